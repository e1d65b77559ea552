#!/bin/sh
# Runs the documented example (capture/cupti/example, docs/cupti.md) and
# reads what it wrote with `tlcost join`. The example records 3 ops and
# launches no GPU work, so its CUPTI session is "unavailable" (no GPU: one
# disclosure line with CUPTI's text, no counts) or "empty" (a GPU machine).
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_tmpdir cupti-example
log="$tmp/log.jsonl"

${TLCOST_RUN:-} "$top_builddir/capture/cupti/example" "$log" > "$out" || fail "example exited $?"
cat "$out"
[ "$(grep -c '"op":"aten::mm"' "$log")" = 3 ] || fail "expected 3 op records"
[ "$(grep -c '"kind":"device_profiler"' "$log")" = 1 ] || fail "expected one disclosure line"
if grep -q '"status":"unavailable"' "$log"; then
	grep -q '"failed_call":"' "$log" || fail "unavailable without the failing call"
	grep -q '"message":"CUPTI_ERROR\|"message":"[^"]*libcupti' "$log" || fail "unavailable without CUPTI's text"
	grep -q '"kernels":' "$log" && fail "an unavailable disclosure must carry no counts"
	grep -q '"kind":"kernel"' "$log" && fail "an unavailable session must carry no records"
	grep -q 'device time: unavailable (' "$out" || fail "the example did not report unavailable"
elif grep -q '"status":"empty"' "$log"; then
	grep -q '"kernels":0' "$log" || fail "empty session with kernels"
else
	fail "status neither unavailable nor empty"; cat "$log"
fi
${TLCOST_RUN:-} "$top_builddir/tlcost" join "$log" > "$out" || fail "tlcost join exited $?"
cat "$out"
exit $((fails > 0))
