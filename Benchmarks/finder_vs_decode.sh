#!/usr/bin/env bash
# The search for lights against the decode it follows, at every kernel level this CPU runs:
# RUNS runs (default 3) of PipelineBenchmarks' "decode+find lights, paired" (a JPEG's decode
# and its decode plus search timed in turn, sample by sample) for a 1080p JPEG with one light
# and with three, and a 640x480 JPEG, in each given checkout (default: this one, built in
# release), alternating checkouts; then each run's median ratio of the pairs, and the median
# over the runs. Give two checkouts (a commit before a change and after it, each with this
# benchmark) to compare them in one run.
#   Benchmarks/finder_vs_decode.sh [CHECKOUT...]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
checkouts=("$@")
[ ${#checkouts[@]} -gt 0 ] || checkouts=(.)
for checkout in "${checkouts[@]}"; do
  [ -x "$checkout/.build/release/PipelineBenchmarks" ] || (cd "$checkout" && swift build -c release >/dev/null)
done
levels=$("${checkouts[0]}/.build/release/PipelineBenchmarks" --levels)
rows=$(mktemp)
for level in $levels; do
  for run in $(seq "$runs"); do
    for checkout in "${checkouts[@]}"; do
      "$checkout/.build/release/PipelineBenchmarks" --kernel-level "$level" --filter "find lights, paired" \
        --seconds 2 --json \
        | python3 -c '
import json, sys
level, run, checkout = sys.argv[1:]
for line in sys.stdin:
    row = json.loads(line)
    if "paired_ratio_p50" in row and row["frame"] in ("1920x1080", "1080p-3-lights", "640x480"):
        print(level, run, checkout, row["frame"], row["paired_ratio_p50"], row["p50_ns"])
' "$level" "$run" "$checkout" >>"$rows"
    done
  done
done
python3 - "$rows" <<'PY'
import collections, statistics, sys
ratios, times = collections.defaultdict(list), collections.defaultdict(list)
for line in open(sys.argv[1]):
    level, run, checkout, frame, ratio, ns = line.split()
    ratios[(level, checkout, frame)].append(float(ratio))
    times[(level, checkout, frame)].append(int(ns) / 1e6)
print("level  checkout  frame  decode+find / decode, median of pairs, per run: median"
      "   (decode+find p50 median, ms)")
for key, values in ratios.items():
    print(" ".join(key) + "  " + ", ".join(f"{x:.2f}x" for x in values)
          + f": {statistics.median(values):.2f}x   ({statistics.median(times[key]):.2f} ms)")
PY
rm -f "$rows"
