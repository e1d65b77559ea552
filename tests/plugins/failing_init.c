/* Fixture plugin failing_init: registers two rules, then fails. With
 * FIXTURE_OVERRIDE it first overrides aten::mm, so the test can check that
 * the overridden rule and its notice are restored. */
#include "tlcost/plugin.h"

static const tlc_rule_def defs[] = {
	{ sizeof(tlc_rule_def), "fixture::fail_a", TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT,
	  NULL, NULL, "registered, then init fails", 0 },
	{ sizeof(tlc_rule_def), "fixture::fail_b", TLC_RULE_STRUCTURAL,
	  TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL, "registered, then init fails", 0 },
#ifdef FIXTURE_OVERRIDE
	{ sizeof(tlc_rule_def), "aten::mm", TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL,
	  NULL, "a bogus override that must not survive", TLC_RULE_OVERRIDE },
#endif
};

static int init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
		if (host->register_rule(ctx, &defs[i]) < 0)
			return -2; /* would be a test failure: every registration is valid */
	return -1;
}

static const tlc_plugin_desc desc = {
	TLC_PLUGIN_ABI_VERSION, sizeof(tlc_plugin_desc),
#ifdef FIXTURE_OVERRIDE
	"override_then_fail",
#else
	"failing_init",
#endif
	"0", init
};

const tlc_plugin_desc *tlc_plugin_describe(void);
const tlc_plugin_desc *tlc_plugin_describe(void) { return &desc; }
