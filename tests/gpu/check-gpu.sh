#!/bin/sh
# make check-gpu: runs tests/gpu/e2e (built from e2e.cu by make with nvcc
# against the freshly built libtlcost-cupti, libtlcost-nvtx and libtlcost) under the recording
# NVTX injection library (it captures ops with CUPTI and NVTX, joins them
# live, writes an op log, reads it back and checks every launch and range),
# then runs `tlcost join` on that log and compares it with the live join;
# then e2e --graph (a stream captured into a CUDA graph in one CUPTI session,
# replayed twice in another) and `tlcost join REPLAY --capture CAPTURE`,
# which must put every replayed kernel on the op that launched it at
# capture; and, where Nsight Systems is installed, runs the ops under
# `nsys profile --trace=cuda,nvtx` and looks for the ranges in its report.
#
# Exactly one line starts with "check-gpu:": PASS, SKIP (with why) or FAIL
# (with what failed); everything else is indented detail. Exit status 0 for
# PASS and SKIP, 1 for FAIL. Each GPU run is capped (timeout) so the whole
# check stays under 5 minutes.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
abs_b=$(cd "$b" && pwd)
out="$abs_b/tests/gpu"
log="$out/e2e.oplog.jsonl"
live="$out/e2e.live.csv"
cli="$out/e2e.join.csv"
inject="$abs_b/tests/nvtx/.libs/inject.so"

say() { echo "  $*"; }
indent() { sed 's/^/  | /'; }
skip() { echo "check-gpu: SKIP: $*"; exit 0; }
fail() { echo "check-gpu: FAIL: $*"; exit 1; }
capped() { # seconds, command...
	t=$1; shift
	if command -v timeout >/dev/null 2>&1; then timeout "$t" "$@"; else "$@"; fi
}

[ -f "$b/libtlcost-cupti.la" ] || skip "the CUPTI module was not built (configure found no cupti.h; use --with-cupti=DIR)"
[ -n "${NVCC:-}" ] || skip "nvcc not found by configure (put the CUDA toolkit's bin on PATH and re-run configure)"
mkdir -p "$out"
[ -x "$out/e2e" ] || skip "tests/gpu/e2e was not built (configure found no libcudart_static.a beside nvcc)"
say "tests/gpu/e2e: built by make with $NVCC"

# the op records parse and evaluate, on any machine
"$out/e2e" --print-ops > "$out/e2e.ops.jsonl" &&
	"$b/tlcost" flops "$out/e2e.ops.jsonl" > "$out/e2e.flops.out" 2>&1 || {
	indent < "$out/e2e.flops.out"; fail "tlcost flops refused the op records of tests/gpu/e2e"; }

if [ -f "$inject" ]; then
	NVTX_INJECTION64_PATH=$inject; export NVTX_INJECTION64_PATH
	say "NVTX: ranges recorded by $inject"
elif [ "$("$abs_b/tests/unit/capture/test_nvtx" features 2>/dev/null)" = nvtx3 ]; then
	fail "the recording NVTX injection library $inject was not built (make check-gpu builds it)"
else
	unset NVTX_INJECTION64_PATH
	say "NVTX: not checked: libtlcost-nvtx was built without the NVTX3 headers"
fi

say "running tests/gpu/e2e"
capped 240 "$out/e2e" "$log" "$live" > "$out/e2e.out" 2>&1
rc=$?
indent < "$out/e2e.out"
[ $rc -eq 77 ] && skip "$(grep -m1 '^SKIP' "$out/e2e.out" | sed 's/^SKIP: //') on this machine: built, not run"
[ $rc -eq 124 ] && fail "tests/gpu/e2e ran past 240 s"
if [ $rc -ne 0 ]; then
	n=$(grep -c '^FAIL' "$out/e2e.out")
	first=$(grep -m1 '^FAIL' "$out/e2e.out" | sed 's/^FAIL[^:]*: *//')
	fail "tests/gpu/e2e exited $rc: ${first:-no FAIL line} ($n check(s) failed, listed above)"
fi

say "tlcost join --format csv $log"
"$b/tlcost" join --format csv "$log" > "$cli" 2> "$out/e2e.join.err" || {
	indent < "$out/e2e.join.err"; fail "tlcost join exited $? on the recorded log"; }
cmp -s "$live" "$cli" || {
	diff "$live" "$cli" | head -20 | indent
	fail "tlcost join on the recorded log disagrees with the live join (diff above)"; }
"$b/tlcost" join "$log" | indent
# the plan of e2e.cu, read back through the CLI: kernels per op
per_op=$(awk -F, 'NR > 1 && $2 == "kernel" {
		if ($10 == "attributed") n[$11]++; else if ($10 == "ambiguous") amb++; else bad++ }
	END { split("0 1 2 3 4 8 9 10 11 12 13 14", ids, " ")
	      for (i = 1; i <= 12; i++) printf "%d:%d ", ids[i], n[ids[i]]
	      printf "ambiguous:%d bad:%d", amb, bad }' "$cli")
want="0:1 1:2 2:3 3:2 4:4 8:2 9:2 10:1 11:1 12:1 13:1 14:1 ambiguous:1 bad:0"
say "kernels per op from tlcost join: $per_op"
[ "$per_op" = "$want" ] || fail "tlcost join attributed kernels as $per_op, want $want"

# CUDA graphs: a capture session and a replay session (e2e --graph), paired
# by graph node ids: every replayed kernel on the op that launched it at
# capture, once per replay (docs/cupti.md, "CUDA graphs")
cap="$out/e2e.graph-capture.oplog.jsonl"
rep="$out/e2e.graph-replay.oplog.jsonl"
say "running tests/gpu/e2e --graph"
capped 120 "$out/e2e" --graph "$cap" "$rep" > "$out/e2e.graph.out" 2>&1
rc=$?
indent < "$out/e2e.graph.out"
[ $rc -eq 124 ] && fail "tests/gpu/e2e --graph ran past 120 s"
if [ $rc -ne 0 ]; then
	first=$(grep -m1 '^FAIL' "$out/e2e.graph.out" | sed 's/^FAIL[^:]*: *//')
	fail "tests/gpu/e2e --graph exited $rc: ${first:-no FAIL line}"
fi
nodes=$(grep -c '"kind":"graph_node"' "$cap")
say "capture log: $nodes graph_node lines"
[ "$nodes" -ge 6 ] || fail "the capture log has $nodes graph_node lines, want 3 created and at least 3 cloned"
grep -q '"kind":"kernel".*"graph_node":' "$rep" || fail "the replay log has no kernel with a graph_node"
say "tlcost join --format csv $rep --capture $cap"
"$b/tlcost" join --format csv "$rep" --capture "$cap" > "$out/e2e.graph.csv" 2> "$out/e2e.graph.err" || {
	indent < "$out/e2e.graph.err"; fail "tlcost join --capture exited $? on the graph logs"; }
"$b/tlcost" join "$rep" --capture "$cap" | indent
# kernels per op name, and how many op rows (one per replay) hold them
# (tests/gpu/graph_per_op.awk): op 30 (aten::addmm) 1 kernel and op 31
# (aten::gelu) 2 per replay, two replays (capture pairing adds the captured
# ops once per replay, with ids of their own); op 40 (aten::add) 1 kernel of
# its own, by correlation.
per_op=$(awk -f "$s/tests/gpu/graph_per_op.awk" "$out/e2e.graph.csv")
want="aten::add:1/1 aten::addmm:2/2 aten::gelu:4/2 ambiguous:0 bad:0"
say "kernels/op rows per op from tlcost join --capture: $per_op"
[ "$per_op" = "$want" ] || fail "tlcost join --capture attributed the replay as $per_op, want $want"

if command -v nsys >/dev/null 2>&1; then
	rep="$out/e2e-nsys"
	say "nsys profile --trace=cuda,nvtx (NVTX only: nsys owns CUPTI there)"
	if (unset NVTX_INJECTION64_PATH; capped 150 nsys profile --trace=cuda,nvtx --force-overwrite=true \
		-o "$rep" "$out/e2e" --nvtx-only) > "$out/nsys.out" 2>&1 &&
	   capped 60 nsys stats --report nvtx_sum --format csv "$rep.nsys-rep" > "$out/nsys.csv" 2>&1; then
		missing=
		for r in 'aten::add#10' 'aten::mm#0' 'aten::linear#3' 'aten::mm#4' 'aten::relu#7' \
		         'aten::mm#8' 'aten::mm#9' 'aten::div#13' 'aten::sub#14'; do
			grep -qF "tlcost::$r" "$out/nsys.csv" || missing="$missing tlcost::$r"
		done
		[ -z "$missing" ] || { indent < "$out/nsys.csv"; fail "nsys saw no range$missing"; }
		say "nsys: every op's tlcost:: range is in the nvtx_sum report"
	else
		indent < "$out/nsys.out"
		say "nsys: could not profile or report here (above); the injection-library check stands"
	fi
else
	say "nsys: not installed; NVTX checked under tests/nvtx/inject.so only"
fi
echo "check-gpu: PASS"
