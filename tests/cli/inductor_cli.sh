#!/bin/sh
# Inductor / Triton kernels (rules/inductor.c, docs/rules.md "Inductor /
# Triton kernels") as the ledger shows them.
#
# 1. The real torch.compile trace tl_mi300_torch_compile_triton (skipped when
#    ../shared/traces is absent): its four kernels are partly known (MACs 0;
#    other_flops and bytes missing), the wrappers (Torch-Compiled Region,
#    CompiledFxGraph, ...) are not ledgered, and each cause states the
#    buffers' total T and the T..2T bound as text. T by hand from the trace's
#    Input Dims (bf16, 2 bytes):
#      red_..._0: 2 * 8*4096*2048 * 2 + 2048 * 2 = 268,435,456 + 4,096 = 268,439,552
#      red_..._1: 3 * 134,217,728 + 4,096 = 402,657,280
#      poi_..._silu_2: 2 * 8*4096*8192 * 2 = 1,073,741,824
#      poi_..._add_3: 3 * 134,217,728 = 402,653,184
#    The totals are unchanged by them (MACs 0 counted, nothing else).
# 2. tests/fixtures/inductor/flex.oplog.jsonl: FlexAttention's templates stay
#    unknown with the dense bound as text: B*Hq*L*S*(E+Ev) = 2*4*128*128*128
#    = 16,777,216 forward, *(3*64+2*64) = 41,943,040 backward; the plain mm
#    template is counted: 64*32*16 = 32,768 MACs = 65,536 FLOPs.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
tlc_tmpdir inductor
has() { # FILE TEXT NAME
	grep -qF -- "$2" "$1" || { echo "FAIL: $3: missing '$2'"; fails=$((fails + 1)); }
}
lacks() {
	! grep -qF -- "$2" "$1" || { echo "FAIL: $3: unexpected '$2'"; fails=$((fails + 1)); }
}

fix="$top_srcdir/tests/fixtures/inductor/flex.oplog.jsonl"
"$T" ledger "$fix" > "$tmp/flex.txt" 2>&1
has "$tmp/flex.txt" "MACs <= 16777216 (every pair, B*Hq*L*S*(E+Ev)), a bound never counted" "flex forward"
has "$tmp/flex.txt" "MACs <= 41943040 (every pair, B*Hq*L*S*(3E+2Ev)), a bound never counted" "flex backward"
lacks "$tmp/flex.txt" "triton_tem_fused_mm_0" "plain mm template ledgered"
"$T" flops "$fix" > "$tmp/flex_flops.txt" 2>&1
has "$tmp/flex_flops.txt" "true MACs >= 32,768" "mm template MACs"

real="$shared/traces/real/tl_mi300_torch_compile_triton.json.gz"
if [ -f "$real" ]; then
	"$T" ledger "$real" > "$tmp/ledger.txt" 2>&1
	has "$tmp/ledger.txt" "totals are a LOWER BOUND: 4 unknown-cost calls of 4 op types" "real: ledger"
	n=$(grep -c "(partly_known)" "$tmp/ledger.txt")
	[ "$n" -eq 4 ] || { echo "FAIL: real: $n partly known groups, not 4"; fails=$((fails + 1)); }
	for v in "268439552 B: traffic 268439552..536879104 B" "402657280 B: traffic 402657280..805314560 B" \
	         "1073741824 B: traffic 1073741824..2147483648 B" "402653184 B: traffic 402653184..805306368 B"; do
		has "$tmp/ledger.txt" "$v" "real: buffer total"
	done
	for w in Torch-Compiled_Region CompiledFxGraph TorchDynamo AOTDispatcher Pregraph; do
		lacks "$tmp/ledger.txt" "$w" "real: wrapper ledgered"
	done
	"$T" flops "$real" > "$tmp/flops.txt" 2>&1
	# the 7 aten::mm (4 x 32768*2048*2048 + 2 x 32768*2048*8192 + 32768*8192*2048
	# = 2,199,023,255,552) and the flash SDPA (8*16 heads * 4096*4096 pairs *
	# (128+128) = 549,755,813,888) are unchanged: MACs 2,748,779,069,440
	has "$tmp/flops.txt" "true MACs >= 2,748,779,069,440" "real: MACs unchanged"
	has "$tmp/flops.txt" "partly known: 4 of the unknown calls (4 op types)" "real: partly known line"
else
	echo "skip: $real absent"
fi
[ "$fails" -eq 0 ] && echo "inductor_cli: all passed"
exit "$fails"
