#!/bin/sh
# The documented example (capture/nvtx/example, docs/nvtx.md) under the
# recording injection library: the ranges it emits, written out by hand
# from the ops it runs; nothing without --emit-nvtx; a typed refusal where
# no tool is attached.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
ex="$top_builddir/capture/nvtx/example"
inject="$top_builddir/tests/nvtx/.libs/inject.so"
tlc_tmpdir nvtx-example
unset NVTX_INJECTION64_PATH TLC_TEST_NVTX_INIT_FAILS TLC_TEST_NVTX_NO_RANGES

[ "$("$top_builddir/tests/unit/capture/test_nvtx" features)" = nvtx3 ] || { echo "SKIP: built without the NVTX3 headers"; exit 77; }
[ -f "$inject" ] || { echo "FAIL: $inject was not built"; exit 1; }

cat > "$tmp/want" <<'W'
push 0 tlcost::aten::conv2d#0
pop 0
push 0 tlcost::aten::conv2d#1
pop 0
push 0 tlcost::aten::conv2d#2
pop 0
push 0 tlcost::aten::linear#3
push 1 tlcost::aten::addmm#4
pop 1
pop 0
push 0 tlcost::internal::write_log
pop 0
W
NVTX_INJECTION64_PATH=$inject TLC_TEST_NVTX_DUMP="$tmp/got" ${TLCOST_RUN:-} "$ex" --emit-nvtx \
	> "$tmp/out" || fail "example --emit-nvtx exited $?"
diff "$tmp/want" "$tmp/got" || fail "the ranges differ from the ops the example ran"

NVTX_INJECTION64_PATH=$inject TLC_TEST_NVTX_DUMP="$tmp/off" ${TLCOST_RUN:-} "$ex" \
	> "$tmp/out" || fail "example exited $?"
[ -f "$tmp/off" ] && [ -s "$tmp/off" ] && fail "without --emit-nvtx something was emitted: $(cat "$tmp/off")"

${TLCOST_RUN:-} "$ex" --emit-nvtx > "$tmp/out" 2> "$tmp/err"
rc=$?
cat "$tmp/err"
[ $rc -eq 3 ] || fail "--emit-nvtx without a tool exited $rc, want 3 (refused)"
grep -q 'emit_nvtx_unavailable: no NVTX tool is attached' "$tmp/err" || fail "refusal without its code and cause"
grep -q 'remedy: run the capture under a profiler' "$tmp/err" || fail "refusal without its remedy"
[ -s "$tmp/out" ] && fail "a refused capture ran its ops anyway"
[ $fails -eq 0 ] && echo "nvtx example: ranges as run, none when off, refused without a tool"
exit $((fails > 0))
