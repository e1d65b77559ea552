/*
 * Example rule plugin: a cost rule for the custom operator mylib::fused_gelu.
 *
 * This file is the worked example of docs/plugin-guide.md. It includes only
 * <tlcost/plugin.h> and does not link libtlcost: everything it needs from the
 * host arrives through the tlc_host table passed to init().
 *
 * The op (schema as the capture records it; examples/custom_gelu_model.py
 * defines it and examples/custom_gelu.oplog.jsonl records it):
 *     mylib::fused_gelu(Tensor x) -> Tensor
 *     y = torch.nn.functional.gelu(x), the erf form
 *     y = 0.5 * x * (1 + erf(x / sqrt(2)))
 *
 * Cost per element of x, counted by hand (the same count as the built-in
 * aten::gelu rule, TLC_RULES_K_GELU in docs/rule-constants.md, and as
 * examples/fused_gelu.tlrules):
 *   x / sqrt(2)                    1
 *   erf(...)                       1 (convention: a transcendental counts as 1)
 *   1 + ...                        1
 *   x * (...)                      1
 *   0.5 * ...                      1
 *                                 --
 *                                  5 other FLOPs, no MACs
 * Because of the erf convention the evidence is "estimated".
 * Bytes: x read once, y written once (dtype-aware, by the host).
 *
 * Everything but the formula is the host's: argument lookup by schema
 * position or name (host->tensor_arg), the exact count (cost_add_numel), and
 * the bytes of inputs and outputs (read_inputs, write_outputs), the same
 * helpers the built-in rules use.
 *
 * Build (outside the tlcost tree; no library to link):
 *     cc -shared -fPIC $(pkg-config --cflags tlcost) -o fused_gelu.so fused_gelu.c
 * Check, then use:
 *     tlcost plugin check ./fused_gelu.so
 *     tlcost --plugin ./fused_gelu.so flops model.oplog.jsonl
 */
#include <tlcost/plugin.h>

#define FUSED_GELU_FLOPS_PER_ELEMENT 5

static int fused_gelu_cost(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                           void *payload)
{
	(void)payload;
	/* x: positional argument 0, or the keyword argument "x" */
	const tlc_tensor *x = host->tensor_arg(op, 0, "x");
	if (!x) {
		host->cost_explain(out, "mylib::fused_gelu needs the shape of x (argument 0)");
		return TLC_RULE_MISSING_ARGS;
	}
	int rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, FUSED_GELU_FLOPS_PER_ELEMENT, x);
	if (rc == 0)
		rc = host->read_inputs(out, op); /* x */
	if (rc == 0) /* y: the recorded output, else a tensor shaped and typed like x */
		rc = host->write_outputs(out, op, host->arg(op, 0, "x"));
	return rc;
}

static int fused_gelu_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	/* the helpers above were added to the host table after its first
	 * version: an older host does not have them */
	if (!TLC_HOST_HAS(host, write_outputs))
		return -1;
	/* "mylib::fused_gelu" without an overload matches every overload the
	 * capture records ("default", or none) */
	static const tlc_rule_def rule = {
		.size = sizeof(tlc_rule_def),
		.name = "mylib::fused_gelu",
		.kind = TLC_RULE_COST,
		.evidence = TLC_EVIDENCE_ESTIMATED,
		.fn = fused_gelu_cost,
		.payload = NULL,
		.note = "5 other FLOPs per element (erf GELU: x/sqrt2, erf, +1, *x, *0.5; erf counted as 1)",
		.flags = 0,
	};
	/* registration is allowed only here; a failure fails the whole load */
	return host->register_rule(ctx, &rule);
}

static const tlc_plugin_desc fused_gelu_desc = {
	.abi_version = TLC_PLUGIN_ABI_VERSION,
	.size = sizeof(tlc_plugin_desc),
	.name = "fused_gelu",
	.version = "1.0.0",
	.init = fused_gelu_init,
};

/* The one exported symbol: no side effects, may be called any number of times. */
const tlc_plugin_desc *tlc_plugin_describe(void);
const tlc_plugin_desc *tlc_plugin_describe(void)
{
	return &fused_gelu_desc;
}
