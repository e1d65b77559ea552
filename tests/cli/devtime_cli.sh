#!/bin/sh
# Device time reaches the reports only through a join (contract 7): an
# explicit request without one is refused typed; with a trace or an op log
# carrying kernel records, profile shows per-op device time and mfu prints
# the attributed kernel utilization, which is never called MFU.
. "${top_srcdir:-.}/tests/cli_lib.sh"
pass=0
fail=0
tlc_tmpdir devtime
err="$tmp/err"

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; sed 's/^/  | /' "$err" | head -5; fail=$((fail + 1)); }

# expect_refusal CODE ARGS...: non-zero exit, the code and a remedy on stderr
expect_refusal() {
	code=$1
	shift
	if $TLCOST_RUN "$T" "$@" >"$out" 2>"$err"; then
		bad "$* succeeded; wanted $code"
	elif grep -q "error: $code:" "$err" && grep -q "remedy:" "$err"; then
		ok
	else
		bad "$*: wanted $code"
	fi
}

# expect_grep PATTERN ARGS...: success and PATTERN in stdout
expect_grep() {
	pat=$1
	shift
	if $TLCOST_RUN "$T" "$@" >"$out" 2>"$err" && grep -q -- "$pat" "$out"; then
		ok
	else
		bad "$*: wanted /$pat/ in the output"
	fi
}

resnet="$top_srcdir/examples/resnet50.oplog.jsonl.gz"
expect_refusal device_time_unavailable profile --device-time "$resnet"
expect_refusal kernel_utilization_requires_device_join mfu --step-seconds 0.05 \
	--device h100-sxm --kernel-utilization "$resnet"
# no join: the profile has no device columns at all (absent, never zero)
if $TLCOST_RUN "$T" profile "$resnet" >"$out" 2>"$err" && ! grep -q "device ms" "$out"; then
	ok
else
	bad "profile without a join shows device columns"
fi

# an op log with kernel and runtime records (written like the CUPTI module does)
log="$top_srcdir/tests/fixtures/devtime/kernels.oplog.jsonl"
expect_grep "device ms" profile --device-time --by op "$log"
# mm 64x128x256: 2*2097152 = 4194304 FLOPs; relu 64*256 = 16384 (1 per element);
# kernel time 4000 + 200 ns; the H100 SXM fp32 peak 67 TFLOP/s:
# 4210688 / (4.2e-6 s * 6.7e13) = 0.01496... -> 0.0150
expect_grep "attributed kernel utilization (not MFU): 0.0150" mfu --step-seconds 0.001 "$log"

traces="$shared/traces"
if [ -f "$traces/v100-dlrm-training.json.gz" ]; then
	v100="$traces/v100-dlrm-training.json.gz"
	expect_grep "device ms" profile --device-time --by op "$v100"
	expect_grep "attributed kernel utilization (not MFU)" mfu --step-seconds 0.05 "$v100"
	if grep -qi "achieved\|throughput" "$out"; then
		bad "mfu output says achieved/throughput"
	else
		ok
	fi
else
	echo "SKIP: shared traces absent (the real-trace cases)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
