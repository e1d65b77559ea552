#!/bin/sh
# Issue 10 on small hand-made traces (tests/fixtures/trace_args), expectations
# derived by hand in the comments:
#  1. a rule file's has(in1) on a trace that passed in1 without its value
#     (2022 "Scalar", no Concrete Inputs) is missing_args, never 0; with
#     Concrete Inputs it counts: (1 + 1) * 16 = 32 other FLOPs.
#  2. wrapper rows (torch.compile, TorchScript, checkpoint, DDP) are
#     structural / decomposed / zero, so only the Inductor kernel row stays
#     unknown. wrappers.json has 13 rows:
#       known 4: aten::mm [4,8]x[8,2] (2*4*8*2 = 128 FLOPs), reducer::mul_out
#         [1000] (1000 multiplies), aten::cat and aten::copy_ (0 FLOPs);
#       zero_by_rule 2: aten::empty, aten::result_type;
#       not_applicable 6: TorchDynamo Cache Lookup, Torch-Compiled Region,
#         <forward op>, _NoopSaveInputs, copy_bucket_to_grad (decomposed)
#         and the aten::mul nested in mul_out;
#       unknown 1: triton_poi_fused_add_0 (as kineto::triton);
#     forward FLOPs 128 + 1000 = 1128, a lower bound.
. "${top_srcdir:-.}/tests/cli_lib.sh"
fx="$top_srcdir/tests/fixtures/trace_args"
tlc_need python3
tlc_tmpdir trace-args-cli
fail=0
check() {
	what=$1; expr=$2; shift 2
	if $TLCOST_RUN "$T" "$@" > "$out" 2>"$out.err" &&
	   python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if ($expr) else 1)" "$out"; then
		echo "ok: $what"
	else
		echo "FAIL: $what"; cat "$out" "$out.err"; fail=1
	fi
}
check "rule file: unrecorded optional scalar is missing_args" \
	"r['coverage']['unknown'] == 1 and r['coverage']['known'] == 0 and r['lower_bound']" \
	--rules "$fx/myop.tlrules" flops --format json "$fx/myop_2022.json"
check "rule file: ledger says the value was not recorded" \
	"r['ledger'][0]['reason'] == 'missing_args' and 'not recorded' in r['ledger'][0]['detail']" \
	--rules "$fx/myop.tlrules" ledger --format json "$fx/myop_2022.json"
check "rule file: recorded scalar counts (1+1)*16" \
	"r['coverage']['known'] == 1 and not r['lower_bound'] and r['phases']['forward']['other_flops'] == 32" \
	--rules "$fx/myop.tlrules" flops --format json "$fx/myop_2023.json"
check "wrapper rows: classes 4/2/6/1 of 13, 1128 FLOPs, a lower bound" \
	"r['coverage'] ['rows'] == 13 and r['coverage']['known'] == 4 and r['coverage']['zero_by_rule'] == 2 and r['coverage']['not_applicable'] == 6 and r['coverage']['unknown'] == 1 and r['phases']['forward']['flops'] == 1128 and r['lower_bound']" \
	flops --format json "$fx/wrappers.json"
check "wrapper rows: the one ledger group is the Inductor kernel" \
	"[(g['name'], g['overload']) for g in r['ledger']] == [('kineto::triton', 'triton_poi_fused_add_0')]" \
	ledger --format json "$fx/wrappers.json"
exit $fail
