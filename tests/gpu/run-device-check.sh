#!/bin/sh
# One-shot device check for the CUPTI join module, for a machine with an
# NVIDIA GPU: configure, build, run `make check-gpu` and print the results.
# Run from the source tree root:   sh tests/gpu/run-device-check.sh
# Expected last line: "check-gpu: PASS". Budget: a few minutes (the build
# dominates; the GPU test itself runs in seconds).
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
bld="$src/build-gpu"
jobs=${JOBS:-16}

echo "== machine"
date; uname -a
command -v nvidia-smi >/dev/null && nvidia-smi -L
for d in /usr/local/cuda /usr/local/cuda-13.0 /usr/local/cuda-13; do
	[ -f "$d/include/cupti.h" ] && { echo "CUDA toolkit: $d"; cuda=$d; break; }
done
[ -n "${cuda:-}" ] || echo "no CUDA toolkit with cupti.h found in the standard prefixes"
PATH="$PATH:${cuda:-/usr/local/cuda}/bin"; export PATH

echo "== configure"
mkdir -p "$bld" && cd "$bld" || exit 1
"$src/configure" -q ${cuda:+--with-cupti=$cuda} || { echo "configure failed"; tail -30 config.log; exit 1; }
grep -E "CUPTI join module" config.log | tail -1

echo "== build"
make -j"$jobs" >make.log 2>&1 || { echo "build failed"; tail -40 make.log; exit 1; }

echo "== make check-gpu"
make check-gpu 2>&1
rc=$?
echo "== the GPU-less CUPTI tests, for comparison"
make -j"$jobs" check TESTS=tests/test_cupti >/dev/null 2>&1
cat tests/test_cupti.log 2>/dev/null | tail -25
exit $rc
