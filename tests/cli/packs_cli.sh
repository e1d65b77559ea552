#!/bin/sh
# Rule packs from the command line (docs/packs.md): on by default, listed
# with provider pack:NAME, switched with --no-packs / --packs LIST, replaced
# by a user's rule with a rule_override notice (never rule_duplicate), and
# named by the ledger's remedy when switched off.
#
# Expected numbers, derived by hand (every number below, no program output):
#  tests/fixtures/packs/llm_ops.oplog.jsonl holds two records with the shapes
#  of the shared SGLang Qwen3-8B capture trace (bf16, batch 32):
#   aiter::gemm_a16w16 A [32,4096] x B [6144,4096]: 32*6144*4096 = 805,306,368 MACs
#     = 1,610,612,736 FLOPs (fma=2) (aiter/tuned_gemm.py: out = A @ B^T);
#   aiter::rmsnorm(out [32,4096], input [32,4096], weight [4096], eps):
#     4 * 131,072 = 524,288 other FLOPs (RMS norm 3 + weight 1 per element).
#   With the packs: 1,610,612,736 + 524,288 = 1,611,137,024 FLOPs, complete.
#  The override file tests/fixtures/packs/override.tlrules says
#   aiter::rmsnorm other = 7 * numel(in1) = 917,504 (no `override`):
#   1,610,612,736 + 917,504 = 1,611,530,240.
#  On the real trace sglang_decode_capture/bs_32_rank0.json.gz (skipped when
#  the shared traces are absent): without packs 397 unknown-cost calls of 6
#  op types (144 gemm_a16w16 + 73 rmsnorm + 72 add_rmsnorm + 36 each of
#  rotary_embedding, silu_and_mul, store_cache) + the 36 calls (one per
#  layer, counted in the raw JSON) of SGLang's wrapped paged-attention
#  launcher, sglang_profiler::attention_paged_attention_ragged_100, whose
#  context lengths no trace records: 433 calls of 7 types. Its other 289
#  sglang_profiler:: rows are launchers that call the ops above
#  (decomposed, built in: the same with or without packs). With packs
#  433 - 397 = 36 calls of 1 type remain: a LOWER BOUND.
set -u
. "${top_srcdir:-.}/tests/cli_lib.sh"
T="$TLCOST_RUN $T"
FIX="$top_srcdir/tests/fixtures/packs"
LOG="$FIX/llm_ops.oplog.jsonl"
REAL="$shared/traces/real/sglang_decode_capture/bs_32_rank0.json.gz"
tlc_tmpdir packs-cli


# on by default: listed with their provider
run 0 rules
check "aiter listed" "pack:aiter"
check "sglang listed" "pack:sglang"
check "vllm listed" "pack:vllm"
check "gemm rule" "aiter::gemm_a16w16"
run 0 --format json rules
check "json provider" '"provider": "pack:sglang"'

# on by default: the two records are costed, coverage complete
run 0 flops "$LOG"
check "packs on: FLOPs" "1,611,137,024"
check "packs on: complete" "coverage is COMPLETE"

# --no-packs: both unknown, the remedy names the pack
run 0 --no-packs rules
absent "no-packs rules" "pack:"
run 0 --no-packs flops "$LOG"
check "no-packs: lower bound" "totals are a LOWER BOUND: 2 unknown-cost calls"
run 0 --no-packs ledger "$LOG"
check "remedy names the pack" "covered by pack:aiter, which is not loaded: drop --no-packs, or add aiter to --packs LIST"

# --packs LIST: only those
run 0 --packs sglang,vllm rules
absent "packs sglang,vllm: no aiter" "pack:aiter"
check "packs sglang,vllm: sglang" "pack:sglang"
check "packs sglang,vllm: vllm" "pack:vllm"
run 0 --packs=aiter flops "$LOG"
check "packs aiter: FLOPs" "1,611,137,024"
run 0 --packs sglang ledger "$LOG"
check "packs without aiter: remedy" "covered by pack:aiter, which is not loaded"
run 0 flops "$LOG" --packs vllm
check "after the command too" "totals are a LOWER BOUND: 2 unknown-cost calls"

# an unknown pack: typed usage error listing the packs
run 2 --packs aiter,nosuch rules
check "unknown pack code" "tlcost: error: pack_unknown: no rule pack named 'nosuch'"
check "unknown pack lists" "the packs are: sglang, aiter, vllm, flashinfer, bitsandbytes, apex"
check "unknown pack remedy" "remedy: name one of the packs tlcost ships"
run 2 --packs "" rules
check "empty list" "--packs needs a value"
run 2 --no-packs --packs aiter rules
check "both" "--no-packs and --packs exclude each other"
run 2 --packs aiter --packs vllm rules
check "twice" "--packs given twice"

# a user's rule for an op a pack covers replaces it: notice, no error
run 0 --rules "$FIX/override.tlrules" flops "$LOG"
check "override FLOPs" "1,611,530,240"
check "override notice" "tlcost: notice: rule_override: rules:$FIX/override.tlrules overrides the pack:aiter rule for aiter::rmsnorm"
absent "never rule_duplicate" "rule_duplicate"
run 0 --rules "$FIX/override.tlrules" rules
check "override listed" "rules:$FIX/override.tlrules"
# without packs the same file registers plainly: no notice
run 0 --no-packs --rules "$FIX/override.tlrules" flops "$LOG"
absent "no notice without packs" "rule_override"

# help and man page name the options
run 0 --help
check "help --no-packs" "--no-packs"
check "help --packs" "--packs LIST"

# the real SGLang capture trace, before and after
# true MACs and other FLOPs of `flops` output, as two plain integers
macs_other() {
	sed -n 's/^  true MACs \(>= \)\{0,1\}\([0-9,]*\), other FLOPs \(>= \)\{0,1\}\([0-9,]*\).*/\2 \4/p' "$out" | tr -d ,
}
if [ -f "$REAL" ]; then
	run 0 --no-packs flops "$REAL"
	check "real: before" "totals are a LOWER BOUND: 433 unknown-cost calls of 7 op types"
	set -- $(macs_other)
	macs0=${1:-x} other0=${2:-x}
	run 0 flops "$REAL"
	check "real: after" "totals are a LOWER BOUND: 36 unknown-cost calls of 1 op type (sglang_profiler::attention_paged_attention_ragged_100 x36)"
	absent "real: no aiter unknown" "aiter::gemm_a16w16 x144"
	set -- $(macs_other)
	# MACs unchanged: the 144 gemm_a16w16 calls carry 36 * (805,306,368 +
	# 536,870,912 + 3,221,225,472 + 1,610,612,736) = 222,264,557,568 MACs,
	# what the aten::linear calls nested in them carried before; other FLOPs
	# grow by silu_and_mul 36 * 2,359,296 = 84,934,656 + add_rmsnorm
	# 72 * 655,360 = 47,185,920 + rmsnorm (1 * 524,288 final norm + 36 *
	# 524,288 q-norm + 36 * 131,072 k-norm) = 24,117,248 + rotary 36 * 491,520
	# = 17,694,720: 173,932,544 (tests/rules/packs.tsv has each call's count)
	[ "${1:-y}" = "$macs0" ] || { echo "FAIL: real: MACs $macs0 -> ${1:-?}"; fails=$((fails + 1)); }
	[ $(( ${2:-0} - ${other0:-0} )) -eq 173932544 ] ||
		{ echo "FAIL: real: other FLOPs $other0 -> ${2:-?}, not +173932544"; fails=$((fails + 1)); }
else
	echo "skip: $REAL absent"
fi

# the vLLM trace b200-eager-inference.json.gz: the vllm pack costs
# _C::fused_add_rms_norm x72, _C::rotary_embedding x36,
# _C_cache_ops::reshape_and_cache_flash x36, _C::static_scaled_fp8_quant x36
# and _C::rms_norm x1 = 181 calls of 5 op types of the 401 of 11 without
# packs: 220 of 6 remain
B200="$shared/traces/b200-eager-inference.json.gz"
if [ -f "$B200" ]; then
	run 0 --no-packs flops "$B200"
	check "b200: before" "totals are a LOWER BOUND: 401 unknown-cost calls of 11 op types"
	set -- $(macs_other)
	macs0=${1:-x} other0=${2:-x}
	run 0 flops "$B200"
	check "b200: after" "totals are a LOWER BOUND: 220 unknown-cost calls of 6 op types"
	set -- $(macs_other)
	# no MACs in these ops; other FLOPs grow by 72 * 12,787,200 (5 * 888 *
	# 2880) + 36 * 1,534,464 (3 * 511,488 rotated) + 1 * 10,229,760
	# (4 * 888 * 2880) + 36 * 1,363,968 (3 * 888 * 512, fp8 quantization)
	# = 1,035,251,712
	[ "${1:-y}" = "$macs0" ] || { echo "FAIL: b200: MACs $macs0 -> ${1:-?}"; fails=$((fails + 1)); }
	[ $(( ${2:-0} - ${other0:-0} )) -eq 1035251712 ] ||
		{ echo "FAIL: b200: other FLOPs $other0 -> ${2:-?}, not +1035251712"; fails=$((fails + 1)); }
else
	echo "skip: $B200 absent"
fi
[ "$fails" -eq 0 ] && echo "packs_cli: all passed"
exit "$fails"
