/*
 * Example rule plugin: a cost rule for the custom operator mylib::fused_gelu.
 *
 * This file is the worked example of docs/plugin-guide.md. It includes only
 * <tlcost/plugin.h> and does not link libtlcost: everything it needs from the
 * host arrives through the tlc_host table passed to init().
 *
 * The op (schema as the capture records it):
 *     mylib::fused_gelu(Tensor x, Tensor bias) -> Tensor
 *     y = gelu_tanh(x + bias), bias broadcast along the last dimension of x.
 *
 * Cost per output element (y has the shape of x), counted by hand from
 *     u = x + b;  y = 0.5 * u * (1 + tanh(sqrt(2/pi) * (u + 0.044715 * u^3)))
 *   bias add                       1
 *   u^3                            2 multiplies
 *   0.044715 * u^3                 1
 *   u + ...                        1
 *   sqrt(2/pi) * (...)             1
 *   tanh(...)                      1 (convention: a transcendental counts as 1)
 *   1 + tanh                       1
 *   u * (...)                      1
 *   0.5 * ...                      1
 *                                 --
 *                                 10 other FLOPs, no MACs
 * Because of the tanh convention the evidence is "estimated".
 * Bytes: x and bias read once, y written once (dtype-aware, by the host).
 *
 * Build (outside the tlcost tree; no library to link):
 *     cc -shared -fPIC $(pkg-config --cflags tlcost) -o fused_gelu.so fused_gelu.c
 * Check, then use:
 *     tlcost plugin check ./fused_gelu.so
 *     tlcost --plugin ./fused_gelu.so flops model.oplog.jsonl
 */
#include <tlcost/plugin.h>

#define FUSED_GELU_FLOPS_PER_ELEMENT 10

static int fused_gelu_cost(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                           void *payload)
{
	(void)payload;
	if (op->nargs < 1 || op->args[0].kind != TLC_VALUE_TENSOR) {
		host->cost_explain(out, "mylib::fused_gelu needs the shape of x (argument 0)");
		return TLC_RULE_MISSING_ARGS;
	}
	const tlc_value *x = &op->args[0];
	int rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, FUSED_GELU_FLOPS_PER_ELEMENT,
	                              &x->u.tensor);
	if (rc == 0)
		rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, x);
	if (rc == 0 && op->nargs >= 2) /* bias; None adds nothing */
		rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, &op->args[1]);
	if (rc == 0) {
		/* y: the recorded output, else a tensor shaped and typed like x */
		int have_out = (op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs >= 1;
		rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN,
		                          have_out ? &op->outputs[0] : x);
	}
	return rc;
}

static int fused_gelu_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	static const tlc_rule_def rule = {
		.size = sizeof(tlc_rule_def),
		.name = "mylib::fused_gelu",
		.kind = TLC_RULE_COST,
		.evidence = TLC_EVIDENCE_ESTIMATED,
		.fn = fused_gelu_cost,
		.payload = NULL,
		.note = "10 other FLOPs per element of x (bias add + tanh-GELU, tanh counted as 1)",
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
