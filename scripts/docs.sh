#!/usr/bin/env bash
# Builds the library's DocC documentation (the toolchain's docc, no package plugin: the
# package depends on nothing) into .build/docs/site, warnings as errors, and checks that every
# public declaration of TrafficLight, TrafficLightKernels and TrafficLightStudy has a doc comment.
#
#   scripts/docs.sh            (seconds after `swift build` or `swift test`, which it reuses;
#                               open .build/docs/site/index.html through a web server, or
#                               read .build/docs/site/data/documentation)
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=.build/docs/symbol-graphs
site=.build/docs/site
rm -rf "$graphs" "$site"
mkdir -p "$graphs"
# The public symbols of the debug build (built first if it is not there), as SwiftPM extracts
# them; the pages are those of TrafficLight and TrafficLightKernels, with their extensions.
dumped="$(swift package dump-symbol-graph --minimum-access-level public | sed -n 's/^Files written to //p')"
[ -f "$dumped/TrafficLight.symbols.json" ] || { echo "docs.sh: no symbol graph of TrafficLight" >&2; exit 1; }
shopt -s nullglob
cp "$dumped"/TrafficLight.symbols.json "$dumped"/TrafficLight@*.symbols.json \
  "$dumped"/TrafficLightKernels.symbols.json "$dumped"/TrafficLightKernels@*.symbols.json "$graphs"/
shopt -u nullglob
docc convert --additional-symbol-graph-dir "$graphs" --output-path "$site" --warnings-as-errors \
  --fallback-display-name TrafficLight --fallback-bundle-identifier org.traffic-light.TrafficLight \
  --fallback-bundle-version 1.0
echo "DocC: $(find "$site/data/documentation" -name '*.json' | wc -l) pages in $site"

# Every public declaration has a doc comment (attributes may stand between them).
python3 - <<'PY'
import glob, re, sys
missing = []
files = (
    glob.glob("Sources/TrafficLight/**/*.swift", recursive=True)
    + glob.glob("Sources/TrafficLightKernels/*.swift")
    + glob.glob("Sources/TrafficLightStudy/*.swift")
)
total = 0
for path in sorted(files):
    lines = open(path).read().split("\n")
    for i, line in enumerate(lines):
        text = line.strip()
        if re.match(r"(@\w+(\(.*\))?\s+)*public\s", text):
            total += 1
            j = i - 1
            while j >= 0 and lines[j].strip().startswith("@"):
                j -= 1
            if j < 0 or not lines[j].strip().startswith("///"):
                missing.append(f"{path}:{i + 1}: {text}")
print(f"doc comments: {total - len(missing)} of {total} public declarations")
if missing:
    print("\n".join(missing))
    sys.exit(1)
PY
