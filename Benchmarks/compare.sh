#!/usr/bin/env bash
# Side-by-side benchmark against the OpenCV peer (../shared/peers/opencv_pipeline.py), all in
# one run on this machine, and the figures BENCHMARKS.md quotes.
#
#   Benchmarks/compare.sh                 (about five minutes)
#   Benchmarks/compare.sh --crops-only    (the crops row alone, under a minute)
#   Benchmarks/compare.sh --frames-only   (the 1080p folder row alone, about a minute)
#
# Creates a Python venv with opencv-python-headless and numpy (in $VENV, default
# .venv-bench), builds the release binaries, then runs Benchmarks/compare.py.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${VENV:-.venv-bench}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q opencv-python-headless numpy
swift build -c release --product traffic-light
swift build -c release --product PipelineBenchmarks
# numpy is slowed by OPENBLAS_CORETYPE on some CPUs here; OpenCV's kernels do not use it,
# but unset it for the peer all the same, as the machine notes advise.
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$venv/bin/python" Benchmarks/compare.py "$@"
