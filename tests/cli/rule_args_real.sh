#!/bin/sh
# Issue 10, item 1 on real traces: no schema default is ever guessed. An
# independent checker (tests/cli/rule_args_check.py) reads each trace's raw JSON
# and recomputes every convolution and matrix-product op from its recorded
# arguments: each op tlcost calls `known` must have exactly those FLOPs, and
# no op whose formula needs an argument the trace did not record may be
# `known`. One trace per Kineto generation: 2021 (no Concrete Inputs, Int/
# GenericList markers), 2022 (Scalar markers), 2023+ (Concrete Inputs), and a
# TorchScript/DDP one. The --min-checked floors are the number of such ops
# in each raw file that need only shapes or recorded values (counted by the
# checker from the JSON, so a reader that lost them fails): ki_v100 has 312
# cudnn_convolution_backward_input + 12 mm + 6 linear rows; the others are
# floors well under their raw counts. Skips (77) when the traces are absent.
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_need python3
tlc_need_shared traces/real
real="$shared/traces/real"
fail=0
run() {
	f=$1; shift
	[ -f "$real/$f" ] || { echo "SKIP: $f absent"; return; }
	python3 "$top_srcdir/tests/cli/rule_args_check.py" "$T" "$real/$f" "$@" || fail=1
}
# 2021: every forward conv needs stride/padding (not recorded): unknown, and
# the totals a lower bound; the backward-input convs are exact from shapes.
run ki_v100_resnet50_2021_06.json.gz --min-checked 330 --lower-bound
run hta_v100_trace_diff_test_r1of2.json.gz --min-checked 400
run hta_sampled_rank0_of128.json.gz --min-checked 250 --lower-bound
run tl_h100_owlv2_large.json.gz --min-checked 1500
exit $fail
