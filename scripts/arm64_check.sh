#!/usr/bin/env bash
# The C kernels compute the same bits on arm64 as on x86-64: Tests/CrossArchitecture/kernel_bits.c
# is built for this x86-64 machine and run at every level it has, then built for arm64 (generic
# level, NEON through the compiler) and run under qemu; every run must print the same hashes.
# Needs clang (the Swift toolchain's), Debian's libc6-dev-arm64-cross, libgcc-12-dev-arm64-cross
# and qemu-user.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sources=(Tests/CrossArchitecture/kernel_bits.c Sources/CKernels/*.c)
clang -O2 -ISources/CKernels/include -o "$work/x86_64" "${sources[@]}"
clang --target=aarch64-linux-gnu --gcc-toolchain=/usr -isystem /usr/aarch64-linux-gnu/include \
  -L/usr/aarch64-linux-gnu/lib -fuse-ld=lld -static -O2 -ISources/CKernels/include \
  -o "$work/arm64" "${sources[@]}"
qemu-aarch64 "$work/arm64" 0 >"$work/arm64.txt"
cat "$work/arm64.txt"
for level in 0 1 2 3; do
  if "$work/x86_64" "$level" >"$work/x86_64-$level.txt" 2>/dev/null; then
    diff -u "$work/arm64.txt" "$work/x86_64-$level.txt" ||
      { echo "FAIL: arm64 (generic) and x86-64 level $level differ"; exit 1; }
    echo "x86-64 level $level: the same"
  fi
done
