#!/bin/sh
# tests/unit/capture/test_nvtx once per NVTX setting of the process (NVTX reads
# NVTX_INJECTION64_PATH once per process): under the recording injection
# library, then each way of there being nothing to emit to. Built without
# the NVTX3 headers only the refusal that says so can run.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
t="$top_builddir/tests/unit/capture/test_nvtx"
inject="$top_builddir/tests/nvtx/.libs/inject.so"

run() {
	if [ "${TLCOST_TEST_WRAPPER:-}" = valgrind ]; then
		"$top_builddir/libtool" --mode=execute valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect --suppressions="$top_srcdir/tests/valgrind.supp" \
			"$t" "$@"
	else
		"$t" "$@"
	fi
}

fails=0
check() { # what, then the command's exit status
	if [ "$2" -eq 0 ]; then echo "ok: $1"; else echo "FAIL: $1 (exit $2)"; fails=$((fails + 1)); fi
}

unset NVTX_INJECTION64_PATH NVTX_INJECTION32_PATH TLC_TEST_NVTX_INIT_FAILS TLC_TEST_NVTX_NO_RANGES
features=$("$t" features) || { echo "FAIL: $t features"; exit 1; }
if [ "$features" != nvtx3 ]; then
	run refuse-unbuilt; check "built without NVTX3 headers: emit_nvtx_unavailable" $?
	echo "SKIP: the injection tests need the NVTX3 headers (configure --with-nvtx=DIR)"
	[ $fails -eq 0 ] && exit 77
	exit 1
fi
[ -f "$inject" ] || { echo "FAIL: $inject was not built"; exit 1; }

# a stand-in libcupti (tests/nvtx/fake_cupti.c) lets a session run without a GPU
fake="$top_builddir/tests/nvtx/.libs/fake_cupti.so"
if [ -f "$fake" ]; then TLC_TEST_FAKE_CUPTI=$fake; export TLC_TEST_FAKE_CUPTI; fi
NVTX_INJECTION64_PATH=$inject run inject; check "ranges under the recording injection" $?
run refuse-unset; check "no injection library: emit_nvtx_unavailable" $?
NVTX_INJECTION64_PATH="$top_builddir/tests/nvtx/no-such-injection.so" run refuse-missing
check "a missing injection library: emit_nvtx_unavailable" $?
NVTX_INJECTION64_PATH=$inject TLC_TEST_NVTX_INIT_FAILS=1 run refuse-init
check "an injection whose init fails: emit_nvtx_unavailable" $?
NVTX_INJECTION64_PATH=$inject TLC_TEST_NVTX_NO_RANGES=1 run refuse-noranges
check "an injection that takes no ranges: emit_nvtx_unavailable" $?
[ $fails -eq 0 ] || exit 1
echo "nvtx: every setting behaved"
