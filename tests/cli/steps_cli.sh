#!/bin/sh
# `tlcost steps` (issue 25 item 6; docs/reports.md, "tlcost steps").
#
# 1. tests/fixtures/steps/two_steps.json, buckets derived by hand from its
#    timeline (us; drawn on paper, every interval listed here):
#      ProfilerStep#1 [0,100)  ProfilerStep#2 [100,150)
#      gemm kernel [20,50) (aten::mm, launched at 6: pending [6,20))
#      elementwise [40,60) (aten::add; pending [31,40))
#      nccl allreduce [55,80) (no op; pending [52,55))
#      memcpy [85,90) (pending [84,85)), memset [88,92) (no runtime call)
#      softmax [95,110) (aten::_softmax, reduction; pending [94,95))
#      layer norm [125,127) (aten::layer_norm; pending [115,125))
#      my_custom_kernel [130,140) (no runtime call: other)
#    step 1: gemm 30; elementwise U[20,60)-U[20,50) = 10; reduction [95,100) 5;
#      comm 25 - overlap [55,60) 5 = 20; copies U[85,92) 7; pending not
#      covered by work [6,20)+[84,85)+[94,95) = 16; nothing queued
#      [0,6)+[80,84)+[92,94) = 12; 30+10+5+20+7+16+12 = 100.
#    step 2: reduction [100,110) 10; normalisation 2; other 10; queued
#      [115,125) 10; host-bound [110,115)+[127,130)+[140,150) = 18; sum 50.
#    without the ProfilerStep lines the window is the device span [20,140):
#      gemm 30, normalisation 2, elementwise 10, reduction 5+10 = 15, other
#      10, comm 20, copies 7, queued [84,85)+[94,95)+[115,125) = 12,
#      host-bound [80,84)+[92,94)+[110,115)+[127,130) = 14; sum 120.
#    (ns = us x 1000.) The commit that added this test ran it against the
#    build before `tlcost steps` existed: unknown_command, failing.
# 2. tests/cli/steps_check.py, reading the raw JSON on its own, recomputes the
#    unions (compute, comm, overlap, busy, pending) of every step of the
#    fixture and of every shared trace with device records, and checks that
#    the buckets add up to the wall time with residual 0 (skipped traces:
#    absent ones).
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
F="$top_srcdir/tests/fixtures/steps/two_steps.json"
tlc_tmpdir steps

hdr="step,device,start_ns,end_ns,wall_ns,gemm_ns,attention_ns,convolution_ns,normalisation_ns,elementwise_ns,reduction_ns,other_compute_ns,exposed_communication_ns,exposed_memcpy_memset_ns,idle_queued_ns,idle_host_bound_ns,residual_ns"
run 0 steps --format csv "$F"
printf '%s\n%s\n%s\n' "$hdr" \
	"1,0,0,100000,100000,30000,0,0,0,10000,5000,0,20000,7000,16000,12000,0" \
	"2,0,100000,150000,50000,0,0,0,2000,0,10000,10000,0,0,10000,18000,0" > "$tmp/want.csv"
cmp -s "$out" "$tmp/want.csv" || { echo "FAIL: steps csv"; diff "$tmp/want.csv" "$out"; fails=$((fails + 1)); }

grep -v ProfilerStep "$F" > "$tmp/nosteps.json"
run 0 steps --format csv "$tmp/nosteps.json"
printf '%s\n%s\n' "$hdr" \
	",0,20000,140000,120000,30000,0,0,2000,10000,15000,10000,20000,7000,12000,14000,0" > "$tmp/want2.csv"
cmp -s "$out" "$tmp/want2.csv" || { echo "FAIL: steps csv, no markers"; diff "$tmp/want2.csv" "$out"; fails=$((fails + 1)); }

run 0 steps "$F"
check "text header" "2 profiler steps (ProfilerStep#N) x 1 device"
check "text step 1" "ProfilerStep#1, device 0: wall 0.100 ms (100000 ns), residual 0 ns"
check "text bucket" "idle_host_bound"
run 0 steps "$tmp/nosteps.json"
check "no markers said" "the input has no ProfilerStep#N markers"
check "device span row" "device span, device 0: wall 0.120 ms (120000 ns), residual 0 ns"

run 0 steps --format json "$F"
check "json schema" '"schema": "tlcost.steps/1"'
python3 "$top_srcdir/tests/cli/steps_check.py" "$F" "$out" > "$tmp/chk" 2>&1 || {
	echo "FAIL: steps_check on the fixture"; cat "$tmp/chk"; fails=$((fails + 1)); }

# tlcost report's section: the buckets summed over both steps (hand-derived
# above): idle_queued 16+10 = 26 us of 150 = 17.3%, host-bound 12+18 = 30 us
run 0 report "$F"
check "report section" "where the steps went (2 ProfilerStep#N x 1 device, summed; \`tlcost steps\`):"
check "report queued" "  idle_queued                     0.026 ms   17.3%"
check "report host-bound" "  idle_host_bound                 0.030 ms   20.0%"
check "report wall" "  wall                            0.150 ms (residual 0 ns)"
absent "report: zero buckets omitted" "attention"
run 0 report --format json "$F"
check "report json" '"steps_windows": "profiler_steps"'

# two devices (hand-derived, us): ProfilerStep#7 [0,10); device 0: gemm
# [2,6) without runtime call -> gemm 4, host-bound [0,2)+[6,10) = 6;
# device 1: reduce kernel [1,3) launched at 0 (pending [0,1)), nccl [5,9)
# -> reduction 2, exposed communication 4, queued 1, host-bound [3,5)+[9,10) = 3
cat > "$tmp/two_dev.json" <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 0, "dur": 1, "args": {"correlation": 5}},
 {"ph": "X", "cat": "kernel", "name": "reduce_kernel_b", "pid": 1, "tid": 3, "ts": 1, "dur": 2, "args": {"device": 1, "stream": 3, "correlation": 5}},
 {"ph": "X", "cat": "kernel", "name": "gemm_a", "pid": 0, "tid": 3, "ts": 2, "dur": 4, "args": {"device": 0, "stream": 3, "correlation": 6}},
 {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_x", "pid": 1, "tid": 4, "ts": 5, "dur": 4, "args": {"device": 1, "stream": 4, "correlation": 7}}
]}
JSON
run 0 steps --format csv "$tmp/two_dev.json"
printf '%s\n%s\n%s\n' "$hdr" \
	"7,0,0,10000,10000,4000,0,0,0,0,0,0,0,0,0,6000,0" \
	"7,1,0,10000,10000,0,0,0,0,0,2000,0,4000,0,1000,3000,0" > "$tmp/want3.csv"
cmp -s "$out" "$tmp/want3.csv" || { echo "FAIL: steps csv, two devices"; diff "$tmp/want3.csv" "$out"; fails=$((fails + 1)); }

# one kernel across three steps (hand-derived, us): steps [0,10) [10,20)
# [20,30); kernel k [5,25) launched at 0 -> step 0: queued [0,5) 5, other
# [5,10) 5; step 1: other 10; step 2: other [20,25) 5, host-bound [25,30) 5
cat > "$tmp/long.json" <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 10, "dur": 10},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 20, "dur": 10},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 0, "dur": 1, "args": {"correlation": 5}},
 {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 3, "ts": 5, "dur": 20, "args": {"device": 0, "stream": 3, "correlation": 5}}
]}
JSON
run 0 steps --format csv "$tmp/long.json"
printf '%s\n%s\n%s\n%s\n' "$hdr" \
	"0,0,0,10000,10000,0,0,0,0,0,0,5000,0,0,5000,0,0" \
	"1,0,10000,20000,10000,0,0,0,0,0,0,10000,0,0,0,0,0" \
	"2,0,20000,30000,10000,0,0,0,0,0,0,5000,0,0,0,5000,0" > "$tmp/want4.csv"
cmp -s "$out" "$tmp/want4.csv" || { echo "FAIL: steps csv, a kernel across steps"; diff "$tmp/want4.csv" "$out"; fails=$((fails + 1)); }
run 0 steps --format json "$tmp/long.json"
python3 "$top_srcdir/tests/cli/steps_check.py" "$tmp/long.json" "$out" > "$tmp/chk" 2>&1 || {
	echo "FAIL: steps_check, a kernel across steps"; cat "$tmp/chk"; fails=$((fails + 1)); }

# an input without device records: a typed refusal, no crash
printf '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]}\n' > "$tmp/nodev.json"
run 1 steps "$tmp/nodev.json"
check "no device records" "steps_no_device_records"

# every shared trace with device records: independent recomputation
for f in "$shared"/traces/*.json.gz "$shared"/traces/real/*.json.gz "$shared"/traces/real/*/*.json.gz; do
	[ -f "$f" ] || continue
	if "$T" steps --format json "$f" > "$tmp/t.json" 2> "$tmp/t.err"; then
		python3 "$top_srcdir/tests/cli/steps_check.py" "$f" "$tmp/t.json" || fails=$((fails + 1))
	elif grep -q steps_no_device_records "$tmp/t.err"; then
		echo "no device records: $f"
	else
		echo "FAIL: tlcost steps $f"; cat "$tmp/t.err"; fails=$((fails + 1))
	fi
done

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "steps_cli: ok"
