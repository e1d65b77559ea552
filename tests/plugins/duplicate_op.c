/* Fixture plugins duplicate_op / override_op: register a rule for aten::mm,
 * which the test has already registered. Without FIXTURE_OVERRIDE the
 * registration must be refused (rule_duplicate); with it, it replaces the
 * existing rule and the host reports a rule_override notice. Both also
 * register fixture::dup_extra first, which must vanish on refusal. */
#include "tlcost/plugin.h"

#ifdef FIXTURE_OVERRIDE
#define NAME "override_op"
#define FLAGS TLC_RULE_OVERRIDE
#else
#define NAME "duplicate_op"
#define FLAGS 0u
#endif

static int init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	static const tlc_rule_def extra = { sizeof(tlc_rule_def), "fixture::dup_extra",
	                                    TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL,
	                                    NULL, "registered before aten::mm", 0 };
	static const tlc_rule_def mm = { sizeof(tlc_rule_def), "aten::mm", TLC_RULE_ZERO,
	                                 TLC_EVIDENCE_ESTIMATED, NULL, NULL,
	                                 "fixture replacement for aten::mm", FLAGS };
	int rc = host->register_rule(ctx, &extra);
	if (rc == 0)
		rc = host->register_rule(ctx, &mm);
	return rc;
}

static const tlc_plugin_desc desc = {
	TLC_PLUGIN_ABI_VERSION, sizeof(tlc_plugin_desc), NAME, "0", init
};

const tlc_plugin_desc *tlc_plugin_describe(void);
const tlc_plugin_desc *tlc_plugin_describe(void) { return &desc; }
