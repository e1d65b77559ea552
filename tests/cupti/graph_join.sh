#!/bin/sh
# CUDA graph capture pairing on the module's own op logs, without a GPU:
# tests/unit/capture/test_cupti --write-graph-logs writes the two logs of
# tests/gpu/e2e.cu's --graph case (a capture session: op 30 launches 1
# kernel, op 31 2, as graph nodes 101-103 that instantiation clones as
# 201-203; a replay session: two graph launches running 201-203, and op
# 40's own kernel) from hand-built buffers and the graph nodes the callbacks
# would note. `tlcost join REPLAY --capture CAPTURE` must put every replayed
# kernel on the op that launched its node at capture, once per replay:
# aten::addmm 2 kernels on 2 op rows, aten::gelu 4 on 2, aten::add 1 on 1
# (by correlation), nothing ambiguous or unattributed (docs/join.md,
# "Capture pairing", CUDA).
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_tmpdir cupti-graph-join
cap="$tmp/capture.oplog.jsonl"
rep="$tmp/replay.oplog.jsonl"
"$top_builddir/tests/unit/capture/test_cupti" --write-graph-logs "$cap" "$rep" ||
	{ echo "FAIL: writing the logs"; exit 1; }
[ "$(grep -c '"kind":"graph_node"' "$cap")" = 6 ] || fail "the capture log has not 6 graph_node lines"
${TLCOST_RUN:-} "$top_builddir/tlcost" join "$rep" --capture "$cap" > "$out" ||
	fail "tlcost join --capture exited $?"
cat "$out"
grep -F -q "2 matched exactly one (graph node ids and count)" "$out" ||
	fail "the two graph launches were not matched by graph node ids"
grep -F -q "kernels: 7 of 7 attributed, 0 ambiguous, 0 unattributed" "$out" ||
	fail "not every kernel attributed"
grep -q "^gate .*: PASSED" "$out" || fail "the gate did not pass"
${TLCOST_RUN:-} "$top_builddir/tlcost" join --format csv "$rep" --capture "$cap" > "$out" ||
	fail "tlcost join --format csv --capture exited $?"
# the same count as tests/gpu/check-gpu.sh: columns from the end of the row
per_op=$(awk -f "$top_srcdir/tests/gpu/graph_per_op.awk" "$out")
[ "$per_op" = "aten::add:1/1 aten::addmm:2/2 aten::gelu:4/2 ambiguous:0 bad:0" ] ||
	{ fail "kernels/op rows per op: $per_op"; cat "$out"; }
exit $((fails > 0))
