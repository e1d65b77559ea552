/* Fixture plugins abi_too_new / abi_too_old: a well-formed descriptor that
 * claims the plugin ABI version FIXTURE_ABI (set by tests/local.mk). Its init
 * would register a rule, so a test can tell that init never ran. */
#include "tlcost/plugin.h"

#ifndef FIXTURE_ABI
#error "define FIXTURE_ABI"
#endif

static int init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	static const tlc_rule_def def = { sizeof(tlc_rule_def), "fixture::abi", TLC_RULE_ZERO,
	                                  TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
	                                  "must never be registered", 0 };
	return host->register_rule(ctx, &def);
}

static const tlc_plugin_desc desc = {
	FIXTURE_ABI, sizeof(tlc_plugin_desc), "abi_fixture", "0", init
};

const tlc_plugin_desc *tlc_plugin_describe(void);
const tlc_plugin_desc *tlc_plugin_describe(void) { return &desc; }
