#!/bin/sh
# One-shot device check for the CUPTI join module, for a machine with an
# NVIDIA GPU: configure, build, run `make check-gpu` and print the results.
#
#   sh tests/gpu/run-device-check.sh          (from the source tree root)
#
# The generated build files are git-ignored: a copied tree needs configure,
# Makefile.in, aclocal.m4, config.h.in and build-aux/ with it (or autoreconf
# on the machine). Build deps: GMP, yajl, zlib, cmocka headers, a C compiler,
# the CUDA toolkit (cupti.h, libcupti, nvcc). Expected last line:
# "check-gpu: PASS". The build dominates; the GPU test runs in seconds.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
bld="$src/build-gpu"
jobs=${JOBS:-16}

echo "== machine"
date; uname -srm
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cuda=
for d in ${CUDA_HOME:-} /usr/local/cuda /usr/local/cuda-13.0 /usr/local/cuda-13 /opt/cuda; do
	[ -n "$d" ] && [ -f "$d/include/cupti.h" ] && { cuda=$d; break; }
done
[ -n "$cuda" ] && echo "CUDA toolkit: $cuda" || echo "no CUDA toolkit with include/cupti.h in the standard prefixes"
PATH="$PATH:${cuda:-/usr/local/cuda}/bin"; export PATH

if [ ! -x "$src/configure" ]; then
	echo "== no configure in the tree: autoreconf"
	(cd "$src" && autoreconf -fi) || { echo "check-gpu: FAIL: no configure and autoreconf failed"; exit 1; }
fi

echo "== configure"
mkdir -p "$bld" && cd "$bld" || exit 1
"$src/configure" -q ${cuda:+--with-cupti=$cuda} || {
	tail -30 config.log; echo "check-gpu: FAIL: configure failed (see above)"; exit 1; }
grep -E "CUPTI join module" config.log | tail -1

echo "== build"
make -j"$jobs" >make.log 2>&1 || { tail -40 make.log; echo "check-gpu: FAIL: build failed"; exit 1; }

echo "== tests/test_cupti (hand-built buffers; the unavailable-path case skips on a GPU)"
if make -j"$jobs" tests/test_cupti >>make.log 2>&1; then
	./tests/test_cupti 2>&1 | tail -25
else
	echo "(tests/test_cupti did not build; see $bld/make.log)"
fi

echo "== make check-gpu"
make check-gpu 2>&1
