#!/bin/sh
# `tlcost join` on an op log written by tlc_cupti_write_oplog: the records
# come from hand-built CUPTI buffers walked by libcupti (tests/unit/capture/test_cupti
# --write-e2e-log), with the ops of tests/gpu/e2e.cu. Expected, from the
# launch plan in tests/unit/capture/test_cupti.c (e2e_launches): 22 launches, 12 kernels,
# kernels per op 0:1 1:2 2:3 3:2 4:4 (op 4 runs nested inside op 3, whose
# own two kernels stay with it), every launch attributed, gate passed; the
# join shows the module's device_profiler statement (docs/oplog-v1.md).
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_tmpdir cupti-join
log="$tmp/log.jsonl"
check() { grep -F -q -- "$1" "$out" || { fail "missing '$1'"; cat "$out"; }; }

"$top_builddir/tests/unit/capture/test_cupti" --write-e2e-log "$log" || { echo "FAIL: writing the log"; exit 1; }
${TLCOST_RUN:-} "$top_builddir/tlcost" join "$log" > "$out" || fail "tlcost join exited $?"
check "device-time join: joined (path: correlation)"
check "device profiler (cupti) says: complete"
check "launches: 22 (12 kernels): attributed 22, ambiguous 0"
check "kernels: 12 of 12 attributed, 0 ambiguous, 0 unattributed"
check "PASSED"
${TLCOST_RUN:-} "$top_builddir/tlcost" join --format csv "$log" > "$out" || fail "tlcost join --format csv exited $?"
per_op=$(awk -F, 'NR > 1 && $2 == "kernel" { if ($10 == "attributed") n[$11]++; else bad++ }
	END { for (i = 0; i < 5; i++) printf "%d:%d ", i, n[i]; printf "bad:%d", bad }' "$out")
[ "$per_op" = "0:1 1:2 2:3 3:2 4:4 bad:0" ] || fail "kernels per op: $per_op"
# Where CUPTI could not record, the log holds the ops and only the
# disclosure line (docs/cupti.md shows the line a GPU-less machine gives):
# the join is unavailable, carries CUPTI's own text and counts no launch.
grep -v '"kind":' "$log" > "$log.u"
echo '{"kind":"device_profiler","source":"cupti","status":"unavailable","failed_call":"cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION)","cupti_result":999,"message":"CUPTI_ERROR_UNKNOWN"}' >> "$log.u"
${TLCOST_RUN:-} "$top_builddir/tlcost" join "$log.u" > "$out" || fail "tlcost join (unavailable) exited $?"
check "device-time join: unavailable (path: none)"
check "why: the device profiler (cupti) was unavailable: cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION): CUPTI_ERROR_UNKNOWN"
grep -q '^launches:' "$out" && fail "an unavailable join printed a launch table"
${TLCOST_RUN:-} "$top_builddir/tlcost" join --format json "$log.u" > "$out" || fail "tlcost join --format json (unavailable) exited $?"
check '"message": "cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION): CUPTI_ERROR_UNKNOWN"'
check '"launches": 0'
rm -f "$log.u"
exit $((fails > 0))
