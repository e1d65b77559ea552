/* Fixture plugin "good": one rule of each kind, built only for `make check`.
 * fixture::scaled costs 3 MACs per element of its first argument, so the
 * loader test can evaluate an op through a loaded rule. */
#include "tlcost/plugin.h"

static int scaled_cost(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	if (op->nargs < 1 || op->args[0].kind != TLC_VALUE_TENSOR) {
		host->cost_explain(out, "fixture::scaled needs a tensor as argument 0");
		return TLC_RULE_MISSING_ARGS;
	}
	return host->cost_add_numel(out, TLC_FIELD_MACS, 3, &op->args[0].u.tensor);
}

static const tlc_rule_def rules[] = {
	{ sizeof(tlc_rule_def), "fixture::scaled", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT,
	  scaled_cost, NULL, "3 MACs per element of argument 0", 0 },
	{ sizeof(tlc_rule_def), "fixture::view", TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT,
	  NULL, NULL, "a view: no arithmetic, no copy", 0 },
	{ sizeof(tlc_rule_def), "fixture::wrapper", TLC_RULE_STRUCTURAL, TLC_EVIDENCE_FORMULA_EXACT,
	  NULL, NULL, "a marker that owns no compute", 0 },
	{ sizeof(tlc_rule_def), "fixture::composite", TLC_RULE_DECOMPOSED,
	  TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL, "exactly the sum of its children", 0 },
};

static int init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		int rc = host->register_rule(ctx, &rules[i]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const tlc_plugin_desc desc = {
	TLC_PLUGIN_ABI_VERSION, sizeof(tlc_plugin_desc), "good", "1.2.3", init
};

const tlc_plugin_desc *tlc_plugin_describe(void);
const tlc_plugin_desc *tlc_plugin_describe(void) { return &desc; }
