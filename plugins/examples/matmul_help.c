/* An example rule plugin written with <tlcost/sys/rulehelp.h>, the helpers
 * the built-in families use, for plugins (issue 24 item 4): a table of
 * rules registered in one call, typed getters, exact products, the usual
 * bytes and explanations. It includes no other tlcost header and links
 * nothing; tests/cli/rulehelp_cli.sh loads it.
 *
 *   mylib::scaled_mm(a [M,K], b [K,N], scale) -> [M,N] = scale * (a @ b)
 *     MACs M*K*N (formula_exact), other FLOPs M*N (the scale multiply),
 *     bytes: a and b read once, the output written once.
 *   mylib::as_strided_view: zero_by_rule (a view: no compute, no traffic).
 */
#include <tlcost/sys/rulehelp.h>

static int scaled_mm_cost(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                          void *payload)
{
	(void)payload;
	const tlc_tensor *a, *b;
	if (tlc_rulehelp_tensor_arg(&a, op, host, 0, "a") < 0 || a->ndim != 2)
		return tlc_rulehelp_missing(out, host, "mylib::scaled_mm needs a 2-D a (argument 0)");
	if (tlc_rulehelp_tensor_arg(&b, op, host, 1, "b") < 0 || b->ndim != 2)
		return tlc_rulehelp_missing(out, host, "mylib::scaled_mm needs a 2-D b (argument 1)");
	if (a->shape[1] != b->shape[0])
		return tlc_rulehelp_bad(out, host, "mylib::scaled_mm: inner dims %lld and %lld differ",
		                        (long long)a->shape[1], (long long)b->shape[0]);
	tlc_rulehelp_term macs, scale;
	tlc_rulehelp_term_init(&macs);
	tlc_rulehelp_term_mul_numel(&macs, a);          /* M*K */
	tlc_rulehelp_term_mul_dims(&macs, b, 1, 2);     /* *N  */
	tlc_rulehelp_term_init(&scale);
	tlc_rulehelp_term_mul_dims(&scale, a, 0, 1);    /* M   */
	tlc_rulehelp_term_mul_dims(&scale, b, 1, 2);    /* *N  */
	int rc = tlc_rulehelp_term_add(out, host, TLC_FIELD_MACS, 1, &macs);
	if (rc == 0)
		rc = tlc_rulehelp_term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &scale);
	if (rc == 0)
		rc = tlc_rulehelp_io_bytes(out, op, host, NULL);
	return rc;
}

static const tlc_rulehelp_entry rules[] = {
	{ "mylib::scaled_mm", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT, scaled_mm_cost, NULL,
	  "M*K*N MACs + M*N scale multiplies" },
	{ "mylib::as_strided_view", TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
	  "a view: no compute, no traffic" },
};

static int matmul_help_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rulehelp_register_table(ctx, host, rules, TLC_RULEHELP_COUNT(rules));
}

static const tlc_plugin_desc matmul_help_desc = {
	TLC_PLUGIN_ABI_VERSION, sizeof(tlc_plugin_desc), "matmul_help", "1.0.0", matmul_help_init,
};

const tlc_plugin_desc *tlc_plugin_describe(void);
const tlc_plugin_desc *tlc_plugin_describe(void)
{
	return &matmul_help_desc;
}
