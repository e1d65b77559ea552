#!/bin/sh
# One-shot device check for a machine with an NVIDIA GPU: builds everything
# from a clean tree (a fresh build-gpu/ beside the sources), runs the
# GPU-free CUPTI and NVTX suites there too, then `make check-gpu`
# (tests/gpu/check-gpu.sh: the CUDA capture, the live and recorded joins,
# NVTX ranges under the recording injection library, nsys if installed).
#
#   sh tests/gpu/run-device-check.sh          (from anywhere)
#
# Needs: a C compiler, make, pkg-config, the GMP, yajl, zlib and cmocka
# development files (scripts/install-deps), the CUDA toolkit (cupti.h,
# libcupti, nvcc, nvtx3/) and a driver. A tree without the generated
# configure is bootstrapped with autoreconf (autoconf, automake, libtool);
# where those are missing, bring configure, Makefile.in, aclocal.m4,
# config.h.in, build-aux/ and m4/ along from a bootstrapped tree.
#
# Everything printed is indented detail except exactly one last line:
# "check-gpu: PASS", "check-gpu: SKIP: why" or "check-gpu: FAIL: what".
# The build takes about a minute with 16 cores; the GPU runs are capped so
# the whole check stays under 5 minutes.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
bld="$src/build-gpu"
jobs=${JOBS:-$(nproc 2>/dev/null || echo 4)}
say() { echo "  $*"; }
indent() { sed 's/^/  | /'; }
fail() { echo "check-gpu: FAIL: $*"; exit 1; }

say "== machine: $(date -u +%FT%TZ), $(uname -srm), $jobs jobs"
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | indent
else
	say "nvidia-smi not found"
fi
cuda=
for d in ${CUDA_HOME:-} /usr/local/cuda /usr/local/cuda-13.0 /usr/local/cuda-13 /opt/cuda; do
	[ -n "$d" ] && [ -f "$d/include/cupti.h" ] && { cuda=$d; break; }
done
[ -n "$cuda" ] || fail "no CUDA toolkit with include/cupti.h in \$CUDA_HOME or the standard prefixes"
say "CUDA toolkit: $cuda ($("$cuda/bin/nvcc" --version 2>/dev/null | grep -o 'release [0-9.]*'))"
PATH="$PATH:$cuda/bin"; export PATH

[ -f "$src/config.status" ] &&
	fail "the source tree is configured in place ($src/config.status): run 'make distclean' there, or use a fresh checkout"
if [ ! -x "$src/configure" ]; then
	say "== no configure in the tree: autoreconf -fi"
	command -v autoreconf >/dev/null 2>&1 ||
		fail "no configure and no autoreconf: install autoconf, automake and libtool, or bring the generated files along"
	(cd "$src" && autoreconf -fi) > "$src/autoreconf.log" 2>&1 || {
		tail -20 "$src/autoreconf.log" | indent; fail "autoreconf failed (above)"; }
fi

say "== configure (clean build in $bld)"
rm -rf "$bld"
mkdir -p "$bld" && cd "$bld" || fail "cannot create $bld"
"$src/configure" -q --with-cupti="$cuda" > configure.out 2>&1 || {
	tail -15 configure.out | indent; grep -E '^configure: error' config.log | tail -3 | indent
	fail "configure failed (above)"; }
grep -E "(CUPTI join module|NVTX ranges|CUDA sources): " config.log | sed "s/^configure:[0-9]*: //" | indent

say "== build"
make -j"$jobs" > make.log 2>&1 || { tail -40 make.log | indent; fail "the build failed (above)"; }
say "== build the test programs, tests/gpu/e2e with nvcc among them (make check TESTS=)"
make -j"$jobs" check TESTS= > make-check.log 2>&1 || {
	grep -E 'error|Error' make-check.log | head -30 | indent; fail "nvcc could not build tests/gpu/e2e, or another test program failed to build (above)"; }
[ -x tests/gpu/e2e ] || fail "make check built no tests/gpu/e2e (configure: $(grep -E 'CUDA sources: ' config.log | sed 's/^configure:[0-9]*: //'))"

say "== GPU-free suites on this machine (tests/unit/capture/test_cupti, tests/nvtx/ranges.sh)"
make -j"$jobs" check TESTS="tests/unit/capture/test_cupti tests/nvtx/ranges.sh tests/nvtx/example.sh" \
	> suites.log 2>&1
suites=$?
grep -E '^(PASS|FAIL|SKIP|ERROR):' suites.log | indent
if [ $suites -ne 0 ]; then
	for f in tests/unit/capture/test_cupti.log tests/nvtx/ranges.sh.log tests/nvtx/example.sh.log; do
		[ -f "$f" ] && grep -E 'FAIL|ERROR' "$f" | head -10 | indent
	done
fi

say "== make check-gpu"
make -s check-gpu > check-gpu.out 2>&1
gpu=$?
grep -v '^check-gpu: ' check-gpu.out | grep -v '^make' | indent
line=$(grep '^check-gpu: ' check-gpu.out | tail -1)
[ -n "$line" ] || { tail -20 check-gpu.out | indent; fail "make check-gpu gave no result line (above)"; }
[ $suites -eq 0 ] || fail "the GPU-free suites failed on this machine (above); e2e said: ${line#check-gpu: }"
[ $gpu -eq 0 ] || [ "${line#check-gpu: FAIL}" != "$line" ] || fail "make check-gpu exited $gpu (${line#check-gpu: })"
echo "$line"
