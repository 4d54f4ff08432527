#!/usr/bin/env bash
# Heap allocations per reading of the benchmark's 40x90 crop: PipelineBenchmarks'
# "decode+frame 40x90" run twice, for two lengths of time, under a preload that counts
# `malloc` calls; the difference in calls over the difference in samples is what one decode
# and reading allocate (the benchmark's own setup cancels out). One line per checkout given
# (default: this one, built in release), so that a change can be compared with the commit
# before it.
#   Benchmarks/allocations.sh [CHECKOUT...]
set -euo pipefail
cd "$(dirname "$0")/.."
checkouts=("$@")
[ ${#checkouts[@]} -gt 0 ] || checkouts=(.)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/count.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
static atomic_long calls;
static void *(*real_malloc)(size_t);
void *malloc(size_t size) {
  if (!real_malloc) real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
  atomic_fetch_add(&calls, 1);
  return real_malloc(size);
}
__attribute__((destructor)) static void report(void) { fprintf(stderr, "mallocs %ld\n", (long)calls); }
C
gcc -O2 -shared -fPIC -o "$work/count.so" "$work/count.c" -ldl
for checkout in "${checkouts[@]}"; do
  [ -x "$checkout/.build/release/PipelineBenchmarks" ] || (cd "$checkout" && swift build -c release >/dev/null)
  for seconds in 0.2 0.6; do
    LD_PRELOAD="$work/count.so" "$checkout/.build/release/PipelineBenchmarks" \
      --filter "decode+frame 40x90" --seconds "$seconds" 2>&1 \
      | awk '/^mallocs/ { m = $2 } /^decode\+frame/ { s = $NF } END { print m, s }'
  done | awk -v checkout="$checkout" '
    NR == 1 { m0 = $1; s0 = $2 }
    NR == 2 { printf "%s: %.1f allocations per decode and reading of the 40x90 crop\n", checkout, ($1 - m0) / ($2 - s0) }'
done
