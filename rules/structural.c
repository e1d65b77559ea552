/* Structural ops: rows that own no compute of their own (profiler ranges,
 * autograd and module boundary markers, compiler and scripting wrappers).
 * Their class is not_applicable and their children, if any, are evaluated.
 * A row that launches kernels itself still owns those launches in the
 * device-time join (the join never looks at classes when it attributes),
 * but such a row is not an op (tlc_eval__row_not_op): kernel time with no
 * op between it and the launch is time on a wrapper, not attributed for the
 * gate (docs/join.md).
 * Also here: rows whose cost is exactly their children's (decomposed) and
 * metadata queries that touch no data (zero_by_rule). */
#include <stddef.h>
#include "rules.h"
#include "util.h"

#define RANGE "profiler/bookkeeping range: owns no compute"
#define S TLC_RULE_STRUCTURAL
#define D TLC_RULE_DECOMPOSED
#define Z TLC_RULE_ZERO

static const struct {
	const char *name;
	tlc_rule_kind kind;
	const char *note;
} structural[] = {
	{ "profiler::_record_function_enter", S, RANGE },
	{ "profiler::_record_function_enter_new", S, RANGE },
	{ "profiler::_record_function_exit", S, RANGE },
	{ "profiler::_call_end_callbacks_on_jit_fut", S, RANGE },
	{ "aten::record_stream", S, RANGE },
	{ "aten::_record_function_enter", S, RANGE },
	{ "aten::_record_function_exit", S, RANGE },
	/* Kineto wrapper rows, as the trace reader names them (docs/kineto.md) */
	{ "autograd::engine::evaluate_function", S,
	  "autograd engine wrapper around one backward node (the node is the overload): "
	  "owns no compute; the ops inside it are evaluated" },
	{ "autograd::node", S,
	  "autograd backward node row (FooBackward0; the node name is the overload): a "
	  "boundary around the backward ops it calls, which are evaluated" },
	{ "torch::autograd::AccumulateGrad", S,
	  "autograd leaf gradient accumulation boundary: the add/copy it performs is an "
	  "aten child row, evaluated there" },
	{ "torch::autograd::CppNode", S,
	  "C++ custom autograd Function node (the Function type is the overload): a "
	  "boundary; its backward's ops are children, evaluated there" },
	/* torch.compile: Dynamo, AOTAutograd and Inductor runtime ranges. The
	 * compiled graph's work is its children: aten rows (extern kernels such
	 * as mm) and kineto::triton rows (generated kernels, rules/inductor.c); kernels
	 * launched with no row of their own are reported by the device join. */
	{ "kineto::TorchDynamo_Cache_Lookup", S,
	  "torch.compile guard check (Python, host only): owns no compute" },
	{ "kineto::Torch-Compiled_Region", S,
	  "torch.compile frame boundary (frame/compile id is the overload): owns no compute; "
	  "the compiled graph's ops inside it are evaluated" },
	{ "kineto::##_Call_CompiledFxGraph", S,
	  "Inductor compiled-graph call range (graph hash is the overload): owns no compute; "
	  "the kernels' rows inside it are evaluated" },
	{ "kineto::CompiledFunction", S,
	  "AOTAutograd autograd.Function around a compiled graph: a boundary; the graph's "
	  "ops are its children (kernels it launches itself are the device join's)" },
	{ "kineto::AOTDispatcher_Runtime_Wrapper_Prologue", S,
	  "AOTAutograd runtime wrapper bookkeeping (host only): owns no compute" },
	{ "kineto::Pregraph_bytecode", S,
	  "Dynamo range around the Python bytecode before a compiled graph: owns no "
	  "compute; eager ops inside it are evaluated" },
	/* SGLang's kernel_shape_profiler (TraceLens' kernel_shape_tool, enabled
	 * with TRACELENS_SHAPE_DISCOVERY=1) wraps each kernel launcher function
	 * as a torch.library custom op named
	 * sglang_profiler::<module>_<function>_<counter>, so that its tensor
	 * operands are recorded: these rows are ops, not profiler ranges. A
	 * launcher that calls other ops costs exactly those ops (decomposed);
	 * one that launches its kernel itself needs a rule of its own (the paged
	 * attention launcher's is in attention.c). There is deliberately no rule
	 * for the whole namespace: an unlisted launcher is an unknown op, never
	 * a range that owns no compute. A rule "ns::stem_*" matches every
	 * counter (eval.c). The calls are as the SGLang Qwen3-8B capture trace
	 * records them (TraceLens tests/traces/inference/sglang_decode/
	 * capture_traces): each launcher's op children are listed, and none of
	 * these five launches a kernel outside them. */
	{ "sglang_profiler::rmsnorm_rmsnorm2d_fwd_*", D,
	  "SGLang-wrapped aiter rmsnorm2d_fwd launcher (aiter/ops/rmsnorm.py): allocates its "
	  "output and calls aiter::rmsnorm, a child row that carries the cost" },
	{ "sglang_profiler::rmsnorm_rmsnorm2d_fwd_with_add_*", D,
	  "SGLang-wrapped aiter rmsnorm2d_fwd_with_add launcher (aiter/ops/rmsnorm.py): calls "
	  "aiter::add_rmsnorm, a child row that carries the cost" },
	{ "sglang_profiler::utils__reshape_for_qk_norm_*", D,
	  "SGLang-wrapped _reshape_for_qk_norm (sglang/srt/models/utils.py): reshape, whose "
	  "aten::clone/copy_ children carry the cost" },
	{ "sglang_profiler::utils_apply_qk_norm_*", D,
	  "SGLang-wrapped apply_qk_norm (sglang/srt/models/utils.py): the reshapes and RMSNorms "
	  "of q and k, child rows that carry the cost" },
	/* in SGLang's Qwen3-8B prefill+decode trace (TraceLens tests/traces/
	 * inference/sglang_prefilldecode): the prefill attention launcher (aiter
	 * backend, aiter/ops/mha.py _mha_batch_prefill) launches nothing outside
	 * its aiter::mha_batch_prefill child; compute_position's one launch is
	 * inside its compute_position_triton child */
	{ "sglang_profiler::mha__mha_batch_prefill_*", D,
	  "SGLang-wrapped aiter _mha_batch_prefill launcher (aiter/ops/mha.py): allocates its "
	  "outputs and calls aiter::mha_batch_prefill, a child row that carries the cost" },
	{ "sglang_profiler::forward_batch_info_compute_position_*", D,
	  "SGLang-wrapped compute_position (sglang/srt/model_executor/forward_batch_info.py): "
	  "calls compute_position_triton, a child row that carries the cost" },
	{ "sglang_profiler::memory_pool__set_kv_buffer_impl_*", D,
	  "SGLang-wrapped KV-cache store (sglang/srt/mem_cache/memory_pool.py, "
	  "_set_kv_buffer_impl): views and sglang::store_cache, a child row that carries the cost" },
	/* TorchScript graph executor */
	{ "kineto::<forward_op>", S,
	  "TorchScript differentiable-graph forward range: a boundary; the aten ops it "
	  "runs are children, evaluated there" },
	{ "kineto::<backward_op>", S,
	  "TorchScript differentiable-graph backward range: a boundary; the aten ops it "
	  "runs are children, evaluated there" },
	{ "torch::jit::(anonymous_namespace)::DifferentiableGraphBackward", S,
	  "TorchScript autograd node of a differentiable graph: a boundary; its "
	  "backward's ops are children, evaluated there" },
	{ "kineto::_grad_sum_to_size", D,
	  "TorchScript autodiff sum-to-shape: its aten::sum child is the work (none when "
	  "the shapes already match)" },
	/* activation checkpointing (torch.utils.checkpoint, non-reentrant) */
	{ "kineto::_NoopSaveInputs", S,
	  "checkpoint autograd.Function that only saves the inputs for recomputation: its "
	  "forward allocates an empty tensor (a child row): owns no compute" },
	/* DDP reducer (torch/csrc/distributed/c10d/reducer.cpp) */
	{ "torch.distributed.ddp.reducer::copy_bucket_to_grad", D,
	  "DDP: param.grad.copy_(bucket view) after the allreduce: exactly its aten::copy_ "
	  "child" },
	/* metadata queries: no data touched */
	{ "aten::result_type", Z, "type promotion query: returns a dtype, no data read" },
	{ "aten::_has_compatible_shallow_copy_type", Z,
	  "tensor-impl type query: returns a bool, no data read" },
};

/* Real work that no rule can count from a record: unknown, with the way to
 * count it said in the ledger's detail. */
static int honest_unknown(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)op;
	return tlc_rules__missing(out, host, "%s", (const char *)payload);
}

/* SGLang's compute_position_triton(extend_prefix_lens [bs],
 * extend_seq_lens [bs]) launches compute_position_kernel, which writes each
 * extend token's position (prefix length + offset, int64) and each
 * sequence's start: integer index arithmetic, no floating point (MACs and
 * other FLOPs 0). How many positions it writes is the sum of
 * extend_seq_lens' contents, which no trace records: the bytes are missing
 * (partly known). */
static int rule_compute_position(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                                 void *payload)
{
	(void)op;
	(void)payload;
	static const char why[] =
		"SGLang compute_position_triton: integer position arithmetic (no FLOPs); it writes "
		"one int64 position per extend token, and the token count is the sum of "
		"extend_seq_lens' contents, which no trace records: bytes unknown";
	if (!TLC_HOST_HAS(host, cost_set_missing))
		return tlc_rules__missing(out, host, "%s", why);
	host->cost_explain(out, why);
	host->cost_set_missing(out, TLC_FIELD_BYTES_READ);
	host->cost_set_missing(out, TLC_FIELD_BYTES_WRITTEN);
	return TLC_RULE_OK;
}

static const tlc_rules_entry unknowns[] = {
	{ "sglang_profiler::forward_batch_info_compute_position_triton_*", TLC_RULE_COST,
	  TLC_EVIDENCE_FORMULA_EXACT, rule_compute_position, NULL,
	  "partly known: no FLOPs (integer positions); bytes set by extend_seq_lens' contents" },
	{ "torchvision::nms", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT, honest_unknown,
	  "non-maximum suppression: the IoU tests depend on the data (how many boxes each kept "
	  "box suppresses), so no shape gives the count; a plugin rule can bound it "
	  "(n*(n-1)/2 IoUs for n boxes) if a bound is what you want",
	  "data-dependent: unknown" },
};

int tlc_rules__structural_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	int urc = tlc_rules__register_table(ctx, host, unknowns, TLC_RULES_COUNT(unknowns));
	if (urc < 0)
		return urc;
	for (size_t i = 0; i < sizeof structural / sizeof structural[0]; i++) {
		tlc_rule_def d = { sizeof d, structural[i].name, structural[i].kind,
			           TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
			           structural[i].note, 0 };
		int rc = host->register_rule(ctx, &d);
		if (rc < 0)
			return rc;
	}
	return 0;
}
