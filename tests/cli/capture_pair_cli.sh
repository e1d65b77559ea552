#!/bin/sh
# Capture pairing (issue 26 item 4; docs/join.md, "Capture pairing"):
# `tlcost join REPLAY --capture CAPTURE` and the reports' --capture.
#
# Hand-made pair (tests/fixtures/capture/): the capture holds two graphs on
# thread 1: graph 1 = [k_gemm by aten::mm [4,8]x[8,16], k_relu by
# aten::relu [4,16]], graph 2 = [k_gemm by aten::mm [2,8]x[8,4], k_sigmoid
# by aten::sigmoid [2,4]], and a warm-up aten::mm [64,64]x[64,64] outside
# both windows (never added). The replay launches k_copy from aten::copy_
# (1 us) and three graphs: [k_gemm 10 us, k_relu 5 us] (= graph 1),
# [k_gemm 8 us, k_sigmoid 4 us] (= graph 2), [k_relu 3 us, k_gemm 2 us]
# (order differs: matches none). By hand: kernel time 1+10+5+8+4+3+2 = 33 us;
# attributed 1 + 27 = 28 us = 84.8% (28/33 = 0.8484), of it by capture
# pairing 4 kernels, 27 us = 81.8% (27/33); 2 kernels 5 us unattributed
# "matches no captured graph"; 4 ops added (2 per matched launch). FLOPs
# (fma=2): aten::mm 2*(4*8*16) + 2*(2*8*4) = 1024 + 128 = 1,152; relu
# 4*16 = 64; sigmoid 4 * (2*4) = 32 (its rule: 4 per element). The same
# capture given twice: every graph has an equal twin, so both matching
# launches are ambiguous (0 ops added) and the third matches none.
#
# The shared SGLang decode pair (skipped when absent) is checked against
# tests/cli/capture_pair_check.py, which derives the pairing from the raw JSON.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
F="$top_srcdir/tests/fixtures/capture"
tlc_tmpdir capture-pair

# --- the hand-made pair
run 0 join --capture "$F/capture_two_graphs.json" "$F/replay_three_launches.json"
check "pairing counts" "capture pairing: 3 graph launches of the replay against 2 captured graphs in 1 capture traces: 2 matched exactly one (kernel names and count), 0 ambiguous, 1 matched none; 4 captured ops added"
check "pairing share" "attributed by capture pairing (a verified sequence match, not a correlation): 4 kernels, 0.027 ms = 81.8% of kernel time"
check "kernels" "kernels: 5 of 7 attributed, 0 ambiguous, 2 unattributed"
check "gate share" "forward   attributed 0.028 ms of 0.033 ms = 84.8%  FAIL"
check "no match" "2 x capture pairing: its graph launch's kernel sequence (names and count) matches no captured graph  0.005 ms"
run 0 join --format csv --capture "$F/capture_two_graphs.json" "$F/replay_three_launches.json"
check "graph 1 gemm" '1,kernel,"k_gemm",0,7,1000000,10000,100,"hipGraphLaunch",attributed,17592186044426,"aten::mm",'
check "graph 1 relu" '2,kernel,"k_relu",0,7,1010000,5000,100,"hipGraphLaunch",attributed,17592186044427,"aten::relu",'
check "graph 2 gemm" '3,kernel,"k_gemm",0,7,1100000,8000,200,"hipGraphLaunch",attributed,17592186044467,"aten::mm",'
check "graph 2 sigmoid" '4,kernel,"k_sigmoid",0,7,1108000,4000,200,"hipGraphLaunch",attributed,17592186044468,"aten::sigmoid",'
check "unmatched" '5,kernel,"k_relu",0,7,1200000,3000,300,"hipGraphLaunch",unattributed,,,'
run 0 join --format json --capture "$F/capture_two_graphs.json" "$F/replay_three_launches.json"
tr -d ' \n' < "$out" > "$out.flat" && mv "$out.flat" "$out"
check "json" '"capture_pairing":{"captures":1,"graphs":2,"graph_launches":3,"matched":2,"ambiguous":0,"unmatched":1,"ops_added":4,"kernels":4,"kernel_ns":27000,"matched_by":"kernel_names"}'
run 0 profile --capture "$F/capture_two_graphs.json" "$F/replay_three_launches.json"
# the costed krn ms column (the roll-up) equals kernel ms: each op is known
# and no counted op encloses it, so it is its own costed row (contract 10)
check "mm flops" "          1,152           1,120    1.03      2    0            0.060 ms      0.018      0.018        0.018  aten::mm"
check "relu flops" "             64             512    0.12      1    0            0.020 ms      0.005      0.005        0.005  aten::relu"
check "sigmoid flops" "             32              64    0.50      1    0            0.020 ms      0.004      0.004        0.004  aten::sigmoid"
check "profile says" "capture pairing: 2 of 3 graph launches matched a captured graph"
check "gap shrinks" "    2 x graph_replay"
# the report: forward FLOPs 1,024 + 128 (mm) + 64 (relu) + 32 (sigmoid) = 1,248
run 0 report --capture "$F/capture_two_graphs.json" "$F/replay_three_launches.json"
check "report says" "capture pairing: 2 of 3 graph launches matched a captured graph"
check "report flops" "forward   >= 1,248 FLOPs"
run 0 report --format json --capture "$F/capture_two_graphs.json" "$F/replay_three_launches.json"
tr -d ' \n' < "$out" > "$out.flat" && mv "$out.flat" "$out"
check "report json" '"capture_pairing":{"captures":1,"graphs":2,"graph_launches":3,"matched":2,"ambiguous":0,"unmatched":1,"ops_added":4}'
check "report json flops" '"flops":1248,'
# without pairing all six graph kernels are a gap and no captured op is counted
run 0 profile "$F/replay_three_launches.json"
check "unpaired gap" "    6 x graph_replay"
absent "unpaired" "aten::mm"

# --- ambiguous: the same capture twice
run 0 join --capture "$F/capture_two_graphs.json" --capture "$F/capture_two_graphs.json" "$F/replay_three_launches.json"
check "ambiguous counts" "capture pairing: 3 graph launches of the replay against 4 captured graphs in 2 capture traces: 0 matched exactly one (kernel names and count), 2 ambiguous, 1 matched none; 0 captured ops added"
check "ambiguous cause" "4 x capture pairing: its graph launch's kernel sequence matches several captured graphs (ambiguous; not attributed)  0.027 ms"

# two launches of graph 1's sequence against that capture given twice: n = 2
# launches equal to k = 2 captured graphs make, per kernel position, one
# ambiguous group of both graphs' ops, each graph added once (by hand:
# group 0 = the two aten::mm, 10 + 8 = 18 us; group 1 = the two aten::relu,
# 5 + 4 = 9 us; FLOPs mm 2 * 1,024 = 2,048, relu 2 * 64 = 128)
run 0 join --capture "$F/capture_two_graphs.json" --capture "$F/capture_two_graphs.json" "$F/replay_two_equal.json"
check "group counts" "launches: 4 (4 kernels): attributed 0, ambiguous 4 (in 2 groups), unattributed 0"
check "group pairing" "0 matched exactly one (kernel names and count), 2 ambiguous, 0 matched none; 4 captured ops added"
run 0 join --format json --capture "$F/capture_two_graphs.json" --capture "$F/capture_two_graphs.json" "$F/replay_two_equal.json"
tr -d ' \n' < "$out" > "$out.flat" && mv "$out.flat" "$out"
check "group 0" '{"group":0,"launches":2,"time_ns":18000,"op_ids":[17592186044426,17592186044457]}'
check "group 1" '{"group":1,"launches":2,"time_ns":9000,"op_ids":[17592186044427,17592186044458]}'
run 0 profile --capture "$F/capture_two_graphs.json" --capture "$F/capture_two_graphs.json" "$F/replay_two_equal.json"
check "group mm flops" "          2,048           1,792    1.14      2    0"
check "group relu flops" "            128           1,024    0.12      2    0"

# the capture's clock and thread ids are not the replay's: a replay launch
# call at ts 112 on tid 1 lies inside the captured aten::mm [110, 140] on
# tid 1, yet an added op never holds a replay call (no host thread), so k_x
# stays unattributed (it went to the added aten::mm before the fix)
run 0 join --format csv --capture "$F/capture_two_graphs.json" "$F/replay_overlap.json"
check "overlap" '0,kernel,"k_x",0,7,900000,1000,60,"hipLaunchKernel",unattributed,,,'
check "overlap paired" '1,kernel,"k_gemm",0,7,1000000,10000,100,"hipGraphLaunch",attributed,17592186044426,"aten::mm",'

# --- a directory laid out as TraceLens lays it out
mkdir -p "$tmp/run/capture_traces"
cp "$F/capture_two_graphs.json" "$tmp/run/capture_traces/bs_4.json"
printf '[\n  {"file": "bs_4.json", "batch_size": 4, "mode": "FULL"}\n]\n' > "$tmp/run/capture_traces/execution_details.json"
run 0 join --capture "$tmp/run" "$F/replay_three_launches.json"
check "dir (parent)" "2 matched exactly one (kernel names and count), 0 ambiguous, 1 matched none; 4 captured ops added"
run 0 join --capture "$tmp/run/capture_traces" "$F/replay_three_launches.json"
check "dir (capture_traces)" "2 matched exactly one (kernel names and count), 0 ambiguous, 1 matched none; 4 captured ops added"

# --- CUDA, paired by graph node ids (docs/join.md, "Capture pairing on CUDA")
# Two op logs as tlcost's CUPTI module writes them (docs/cupti.md), one per
# session. The capture: graph 1 = [cudaLaunchKernel corr 11 by op 1
# aten::mm [4,8]x[8,16] -> node 101, corr 12 by op 2 aten::relu [4,16] ->
# node 102], graph 2 = [corr 13 by op 3 aten::mm [2,8]x[8,4] -> node 201,
# corr 14 by op 4 aten::sigmoid [2,4] -> node 202]; instantiating graph 1
# cloned 101 -> 301, 102 -> 302; a warm-up op 5 (aten::mm 64x64) runs
# before both windows. No launch at capture carries a kernel name. The
# replay: op 1 aten::copy_ launches k_copy (1 us) by correlation; graph 2 is
# instantiated there (201 -> 401, 202 -> 402); four cudaGraphLaunch calls:
# corr 40 = nodes [301 10 us, 302 5 us] (graph 1), corr 41 = [401 8 us,
# 402 4 us] (graph 2), corr 42 = [302 2 us on stream 8 from 1,200,000, 301
# 6 us on stream 7 from 1,202,000] (graph 1 again, its kernels in another
# order on the device, as a graph on two streams may run them: node ids
# match it anyway; kernel names in that order would match nothing),
# corr 43 = [node 999 3 us] (made by no capture). By hand: kernel time
# 1+15+12+8+3 = 39 us; paired 6 kernels, 35 us = 89.7% (35/39 = 0.8974);
# attributed 36 us = 92.3%; 6 ops added (graph 1 twice, graph 2 once).
# Added op ids = 2^44 + instance * stride + capture id, stride 6 (ids 1..5):
# graph 1 holds instances 0 and 1 (launch order), graph 2 instance 2, so
# corr 40 -> 2^44+1, +2; corr 42 -> 2^44+6+1, +6+2; corr 41 -> 2^44+12+3,
# +12+4 (2^44 = 17592186044416). FLOPs (fma=2): mm 2*(4*8*16) = 1,024 twice,
# relu 64 twice, mm 2*(2*8*4) = 128, sigmoid 4*(2*4) = 32, copy_ 0:
# 2,048 + 128 + 128 + 32 = 2,336.
CC="$F/cuda_capture.oplog.jsonl"
CR="$F/cuda_replay.oplog.jsonl"
run 0 join --capture "$CC" "$CR"
check "cuda counts" "capture pairing: 4 graph launches of the replay against 2 captured graphs in 1 capture traces: 3 matched exactly one (graph node ids and count), 0 ambiguous, 1 matched none; 6 captured ops added"
check "cuda share" "attributed by capture pairing (a verified sequence match, not a correlation): 6 kernels, 0.035 ms = 89.7% of kernel time"
check "cuda attributed" "kernels: 7 of 8 attributed, 0 ambiguous, 1 unattributed"
run 0 join --format csv --capture "$CC" "$CR"
# start_ns, duration and correlation are the replay fixture's own values;
# op ids from the formula above (2^44 = 17592186044416 + instance * 6 + id);
# kernel_ns 35000 = the 35 us paired, summed above
check "cuda copy" '0,kernel,"k_copy",0,7,990000,1000,30,"cudaLaunchKernel",attributed,1,"aten::copy_",'
check "cuda g1 gemm" '1,kernel,"k_gemm",0,7,1000000,10000,40,"cudaGraphLaunch",attributed,17592186044417,"aten::mm",'
check "cuda g1 relu" '2,kernel,"k_relu",0,7,1010000,5000,40,"cudaGraphLaunch",attributed,17592186044418,"aten::relu",'
check "cuda g2 gemm" '3,kernel,"k_gemm",0,7,1100000,8000,41,"cudaGraphLaunch",attributed,17592186044431,"aten::mm",'
check "cuda g2 sigmoid" '4,kernel,"k_sigmoid",0,7,1108000,4000,41,"cudaGraphLaunch",attributed,17592186044432,"aten::sigmoid",'
check "cuda g1 again gemm" '5,kernel,"k_gemm",0,7,1202000,6000,42,"cudaGraphLaunch",attributed,17592186044423,"aten::mm",'
check "cuda g1 again relu" '6,kernel,"k_relu",0,8,1200000,2000,42,"cudaGraphLaunch",attributed,17592186044424,"aten::relu",'
check "cuda no node" '7,kernel,"k_other",0,7,1300000,3000,43,"cudaGraphLaunch",unattributed,,,'
run 0 join --format json --capture "$CC" "$CR"
tr -d ' \n' < "$out" > "$out.flat" && mv "$out.flat" "$out"
check "cuda json" '"capture_pairing":{"captures":1,"graphs":2,"graph_launches":4,"matched":3,"ambiguous":0,"unmatched":1,"ops_added":6,"kernels":6,"kernel_ns":35000,"matched_by":"graph_node_ids"}'
run 0 report --capture "$CC" "$CR"
check "cuda report" "(graph node ids and count); their 6 captured ops count as the replay's"
check "cuda report flops" "forward   2,336 FLOPs"
# a capture saved by `join --save` keeps its graph_node lines and pairs the same
run 0 join --save "$tmp.cuda_saved.jsonl" "$CC"
run 0 join --capture "$tmp.cuda_saved.jsonl" "$CR"
check "cuda saved" "3 matched exactly one (graph node ids and count), 0 ambiguous, 1 matched none; 6 captured ops added"
# without its graph_node lines the CUDA capture names nothing: refused
grep -v '"graph_node"' "$CC" > "$tmp.cuda_nonodes.jsonl"
run 1 join --capture "$tmp.cuda_nonodes.jsonl" "$CR"
check "cuda no nodes" "capture_pairing_needs_graph_ids: 4 of 4 kernel launches inside the capture carry no kernel name (args.kernel) and made no graph node the capture recorded"
# malformed graph node lines and fields are typed errors with the line
printf '%s\n' "$(head -1 "$CC")" '{"kind":"graph_node","node":5,"correlation":1,"original":2}' > "$tmp.gn1.jsonl"
run 1 flops "$tmp.gn1.jsonl"
check "gn both" "oplog_field_invalid: a graph_node line names both correlation and original"
check "gn both line" "gn1.jsonl:2"
printf '%s\n' "$(head -1 "$CC")" '{"kind":"graph_node","correlation":1}' > "$tmp.gn2.jsonl"
run 1 flops "$tmp.gn2.jsonl"
check "gn no node" "node"
printf '%s\n' "$(head -1 "$CC")" '{"kind":"graph_node","node":-4,"original":2}' > "$tmp.gn3.jsonl"
run 1 flops "$tmp.gn3.jsonl"
check "gn negative" "field node must be a non-negative integer, found a negative integer"
printf '%s\n' "$(head -1 "$CC")" '{"kind":"runtime","name":"cudaGraphLaunch","thread":1,"start_ns":1,"end_ns":2,"correlation":4,"graph_node":7}' > "$tmp.gn4.jsonl"
run 1 flops "$tmp.gn4.jsonl"
check "gn on a call" "field graph_node: a runtime line is a host call"

# --- refusals, typed
run 1 join --capture "$F/capture_cuda.json" "$F/replay_three_launches.json"
check "cuda refused" "capture_pairing_needs_graph_ids"
check "cuda cause" "4 of 4 kernel launches inside the capture carry no kernel name"
check "cuda remedy" "graphNodeId"
run 1 join --capture "$F/replay_three_launches.json" "$F/replay_three_launches.json"
check "no window" "capture_pairing_no_capture"
mkdir -p "$tmp/empty"
run 1 join --capture "$tmp/empty" "$F/replay_three_launches.json"
check "no details" "capture_details_missing"
mkdir -p "$tmp/bad1" "$tmp/bad2" "$tmp/bad3"
printf '[\n  {"file": "x.json",\n   "batch_size": 4,, "mode": "FULL"}\n]\n' > "$tmp/bad1/execution_details.json"
run 1 join --capture "$tmp/bad1" "$F/replay_three_launches.json"
check "syntax" "capture_details_invalid"
check "syntax position" "execution_details.json:3:"
printf '[{"file": "x.json", "batch_size": "32", "mode": "FULL"}]\n' > "$tmp/bad2/execution_details.json"
run 1 join --capture "$tmp/bad2" "$F/replay_three_launches.json"
check "batch_size" "execution_details.json: entry 1: \"batch_size\" is missing or not a positive integer"
printf '{"file": "x.json"}\n' > "$tmp/bad3/execution_details.json"
run 1 join --capture "$tmp/bad3" "$F/replay_three_launches.json"
check "not a list" "execution_details.json: the document is not a list of capture entries"
# op ids near 2^62 in the capture leave no room for the added ops' ids
run 1 join --capture "$F/capture_huge_ids.json" "$F/replay_three_launches.json"
check "too large" "capture_pairing_too_large"
run 2 join --save "$tmp.saved" --capture "$F/capture_two_graphs.json" "$F/replay_three_launches.json"
check "no save" "--save and --capture exclude each other"
run 2 join --capture "" "$F/replay_three_launches.json"
check "usage" "--capture needs"

# --- the shared SGLang decode pair: replay + its capture
R="$shared/traces/real/tl_mi300_sglang_qwen3_decode.json.gz"
C="$shared/traces/real/sglang_decode_capture"
if [ -f "$R" ] && [ -d "$C" ] && command -v python3 >/dev/null; then
	exp=$(python3 "$top_srcdir/tests/cli/capture_pair_check.py" "$R" "$C/bs_32_rank0.json.gz")
	$T join --format json --capture "$C" "$R" > "$tmp.json" 2>"$out" || {
		echo "FAIL: join --capture on the SGLang pair"; cat "$out"; fails=$((fails + 1)); }
	python3 - "$tmp.json" "$exp" <<'PY' || fails=$((fails + 1))
import json, sys
got = json.load(open(sys.argv[1]))
exp = json.loads(sys.argv[2])
cp = got["capture_pairing"]
pairs = [
    ("graph launches", cp["graph_launches"], exp["graph_launches"]),
    ("matched", cp["matched"], exp["matched"]),
    ("paired kernels", cp["kernels"], exp["paired_kernels"]),
    ("paired ns", cp["kernel_ns"], exp["paired_kernel_ns"]),
    ("kernel ns", got["kernel_ns"], exp["kernel_ns"]),
    ("attributed ns", got["kernel_attributed_ns"], exp["attributed_ns"]),
    ("unattributed ns", got["kernel_unattributed_ns"], exp["unattributed_ns"]),
    ("on wrapper ns", got["kernel_on_wrapper_ns"], exp["on_wrapper_ns"]),
    # every op that launches here has a rule (built-in or pack); all but
    # the paged-attention launcher's have a known cost
    ("known cost ns", got["kernel_known_cost_ns"], exp["on_op_ns"] - exp["on_unknown_op_ns"]),
    # the gate: the time on ops is at least 95% of all kernel time
    ("gate", got["gate"]["passed"],
     100 * exp["on_op_ns"] >= 95 * exp["kernel_ns"]),
]
bad = [(n, g, e) for n, g, e in pairs if g != e]
for n, g, e in bad:
    print("FAIL: SGLang pair: %s: tlcost %s, raw JSON %s" % (n, g, e))
sys.exit(1 if bad else 0)
PY
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "capture_pair_cli: ok"
