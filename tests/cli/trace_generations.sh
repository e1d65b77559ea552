#!/bin/sh
# Trace generations and device work on small synthetic traces
# (tests/fixtures/trace), expectations derived by hand from the files:
#  kineto_2021.json (2021 format: Operator/Runtime/Kernel categories, lower-case
#   "external id" on runtime and kernel rows, no evaluate_function wrappers):
#   ProfilerStep#1 and Optimizer.step#SGD.step are annotations, not op rows, so
#   5 op rows: forward aten::mm [4,8]x[8,16] = 512 MACs = 1,024 FLOPs; on the
#   autograd thread "101" (top-level rows MmBackward and AccumulateGrad, both
#   autograd nodes) aten::mm [4,16]x[16,8] = 512 MACs = 1,024 backward FLOPs;
#   aten::mul_ of 16x8 inside Optimizer.step# = 128 optimizer FLOPs. Both
#   kernels are launched inside op rows; the memset is not compute: COMPLETE.
#   The join reads "external id": correlation path, 2 of 2 kernels attributed.
#  graph_replay.json: 6 kernels; gemm (9 us) inside aten::mm; replayed_a/b/c
#   (10 + 20 + 30.5 = 60.5 us) from one cudaGraphLaunch; stray (7 us) launched
#   by a cudaLaunchKernel outside any op; orphan (4 us) has no correlation. So
#   1,024 FLOPs are a LOWER BOUND with 0 unknown ops and three causes.
#  device_only.json: two kernels, no op record: never COMPLETE.
#  range_profiler.json: two cudaLaunchKernel calls inside aten::mm / aten::relu
#   and two cuda_profiler_range records (correlations 11, 12), no kernel
#   record: the join is unavailable quoting the range profiler, never "EMPTY:
#   the device profiler ran and recorded no launch"; both ranges are launched
#   inside op rows, so mm + relu (1,024 + 64 FLOPs) are COMPLETE.
#  coincide.json: each runtime call's External id is its own correlation and
#   names the OTHER op (call 2 inside aten::mm names aten::relu's id 2, call 1
#   inside relu names mm's id 1): the correlation path attributes both
#   launches to an op whose interval does not hold the call, so the join warns
#   "2 of 2"; containment attributes them to the right ops.
#  modules.json: nn.Module frames Net_0 > {Linear_0 > mm [4,8]x[8,16] = 1,024;
#   ReLU_0 > relu 4x16 = 64; Linear_1 (its "name" before "cat") > mm
#   [4,16]x[16,2] = 256}, and aten::mul 4x16 = 64 outside every frame: the tree
#   has (root) self 64, Net_0 subtree 1,344, and one node per frame.
#  small.json (tests/cli/join_cli.sh): leftover_kernel (5 us) has no runtime call:
#   the text names the cause.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
T="$TLCOST_RUN $T"
F="$top_srcdir/tests/fixtures/trace"
tlc_tmpdir gen

$T flops "$F/kineto_2021.json" > "$out"
check "2021 forward" "forward compute (actual-path analytic, fma=2: one MAC = 2 FLOPs): 1,024"
check "2021 backward" "backward compute (actual-path analytic, fma=2: one MAC = 2 FLOPs): 1,024"
check "2021 optimizer" "optimizer compute (actual-path analytic, fma=2: one MAC = 2 FLOPs): 128"
check "2021 rows" "coverage: 5 op rows = 3 known + 0 zero_by_rule + 2 not_applicable + 0 unknown"
check "2021 device work" "device work: 2 kernels = 2 launched inside op rows + 0 without an op row; 1 memcpy/memset records"
check "2021 complete" "coverage is COMPLETE, not a lower bound"
check "2021 node row" "autograd::node.MmBackward"
$T join "$F/kineto_2021.json" > "$out"
check "2021 join path" "device-time join: joined (path: correlation)"
check "2021 join kernels" "kernels: 2 of 2 attributed, 0 ambiguous, 0 unattributed"
check "2021 backward share" "backward  attributed 0.006 ms of 0.006 ms = 100.0%  PASS"

$T flops "$F/graph_replay.json" > "$out"
check "replay headline" "forward compute (actual-path analytic, fma=2: one MAC = 2 FLOPs): >= 1,024"
check "replay work" "device work: 6 kernels = 1 launched inside op rows + 5 without an op row; 1 memcpy/memset records"
check "replay bound" "totals are a LOWER BOUND: 0 unknown-cost calls, but work that no op row accounts for:"
check "replay graph" "3 kernels from graph replay (cudaGraphLaunch/hipGraphLaunch) have no op rows (60.500 us of device time) [graph_replay]"
check "replay outside" "1 kernels launched by runtime calls outside any op have no op rows (7.000 us of device time) [launch_outside_op]"
check "replay no host" "1 kernels have no runtime call in the trace"
$T ledger "$F/graph_replay.json" > "$out"
check "ledger names the cause" "[graph_replay]"
$T flops --format json "$F/graph_replay.json" > "$out"
check "json lower bound" '"lower_bound": true'
check "json graph gap" '"cause": "graph_replay"'
check "json graph ns" '"device_ns": 60500'

$T flops "$F/device_only.json" > "$out"
check "device only" "no op records: nothing was counted [no_op_records]"
check "device only bound" "totals are a LOWER BOUND"

$T join "$F/range_profiler.json" > "$out"
check "range join" "device-time join: unavailable (path: none)"
check "range word" "device profiler (CUPTI range profiler) says: unavailable: per-kernel activity records were not collected: the trace holds 2 cuda_profiler_range records"
if grep -q "recorded no launch" "$out"; then echo "FAIL: range profiler read as an empty device profile"; fails=$((fails + 1)); fi
$T flops "$F/range_profiler.json" > "$out"
check "range work" "device work: 2 kernels = 2 launched inside op rows + 0 without an op row"
check "range complete" "coverage is COMPLETE"

$T join --force-correlation "$F/coincide.json" > "$out"
check "coincide warning" "WARNING: 2 of 2 launches attributed by correlation name an op whose host interval does not hold the launching runtime call on its thread"
$T join --force-containment "$F/coincide.json" > "$out"
if grep -q "WARNING" "$out"; then echo "FAIL: containment warns"; fails=$((fails + 1)); fi
$T join --format json --force-correlation "$F/coincide.json" > "$out"
check "coincide json" '"correlation_outside_host_interval": 2'

$T join "$F/small.json" > "$out"
check "why in text" "unattributed launches by cause:"
check "why before window" "1 x no runtime call with this correlation (launched before the profiling window, or its record was dropped)  0.005 ms"
$T join "$F/graph_replay.json" > "$out"
check "why graph" "3 x replayed from a CUDA/HIP graph (cudaGraphLaunch/hipGraphLaunch)"

$T tree "$F/modules.json" > "$out"
check "tree root" "         1,408 100.0             64   4.5   0  (root)"
check "tree Net_0" "         1,344  95.5              0   0.0   0    Net_0"
check "tree Linear_0" "         1,024  72.7          1,024  72.7   0      Linear_0#1 [Linear]"
check "tree ReLU_0" "ReLU_0#2 [ReLU]"
check "tree Linear_1" "           256  18.2            256  18.2   0      Linear_1#3 [Linear]"

# the independent checker agrees on all three (phases, rows, device work, join)
if command -v python3 > /dev/null; then
	python3 "$top_srcdir/tests/cli/real_traces_check.py" "$top_builddir/tlcost" \
		"$F/kineto_2021.json" "$F/graph_replay.json" "$F/device_only.json" \
		"$F/range_profiler.json" "$F/coincide.json" "$F/modules.json" || fails=$((fails + 1))
fi
[ "$fails" -eq 0 ]
