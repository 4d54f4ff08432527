#!/usr/bin/env bash
# The search for lights against the decode it follows, at every kernel level this CPU runs:
# RUNS alternating runs (default 3) of PipelineBenchmarks' "decode F" and "decode+find lights
# F" for a 1080p and a 640x480 JPEG, in each given checkout (default: this one, built in
# release), then each run's ratio of p50s and their median. Give two checkouts (a commit
# before a change and after it) to compare them within one run of a noisy machine.
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
      for frame in 1920x1080 640x480; do
        for filter in "decode $frame" "find lights $frame"; do
          "$checkout/.build/release/PipelineBenchmarks" --kernel-level "$level" --filter "$filter" --seconds 1 --json \
            | python3 -c '
import json, sys
level, run, checkout, frame = sys.argv[1:]
for line in sys.stdin:
    row = json.loads(line)
    if row["frame"] == frame and row["benchmark"] in ("decode", "decode+find lights"):
        print(level, run, checkout, frame, row["benchmark"].replace(" ", "_"), row["p50_ns"])
' "$level" "$run" "$checkout" "$frame" >>"$rows"
        done
      done
    done
  done
done
python3 - "$rows" <<'PY'
import collections, statistics, sys
p50 = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    level, run, checkout, frame, benchmark, ns = line.split()
    p50[(level, checkout, frame, run)][benchmark] = int(ns)
print("level  checkout  frame  decode+find / decode per run: median   (decode+find p50 median, ms)")
for level, checkout, frame in dict.fromkeys((k[0], k[1], k[2]) for k in p50):
    runs = [v for k, v in p50.items() if k[:3] == (level, checkout, frame) and len(v) == 2]
    ratios = [r["decode+find_lights"] / r["decode"] for r in runs]
    find = statistics.median(r["decode+find_lights"] for r in runs) / 1e6
    print(f"{level} {checkout} {frame}  " + ", ".join(f"{x:.2f}x" for x in ratios)
          + f": {statistics.median(ratios):.2f}x   ({find:.2f} ms)")
PY
rm -f "$rows"
