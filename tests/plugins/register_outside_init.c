/* Fixture plugin register_outside_init: keeps the registration context and
 * host table it was given and tries to register again later, both from a
 * second exported function (the test calls it through dlsym) and from
 * inside its own rule function during evaluation. Both must be refused with
 * plugin_registration_closed; the rule itself keeps working. */
#include "tlcost/plugin.h"

static tlc_plugin_ctx *stash_ctx;
static const tlc_host *stash_host;
static int late_rc = 1; /* 1: no late attempt made yet */

static const tlc_rule_def late = { sizeof(tlc_rule_def), "fixture::late", TLC_RULE_ZERO,
                                   TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
                                   "must never be registered", 0 };

static int sneaky_cost(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)op;
	(void)payload;
	late_rc = stash_host->register_rule(stash_ctx, &late);
	return host->cost_add(out, TLC_FIELD_OTHER_FLOPS, 5, 0, NULL); /* 5 FLOPs, always */
}

static int init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	static const tlc_rule_def def = { sizeof(tlc_rule_def), "fixture::sneaky", TLC_RULE_COST,
	                                  TLC_EVIDENCE_FORMULA_EXACT, sneaky_cost, NULL,
	                                  "5 other FLOPs; registers behind the host's back", 0 };
	stash_ctx = ctx;
	stash_host = host;
	return host->register_rule(ctx, &def);
}

static const tlc_plugin_desc desc = {
	TLC_PLUGIN_ABI_VERSION, sizeof(tlc_plugin_desc), "register_outside_init", "0", init
};

const tlc_plugin_desc *tlc_plugin_describe(void);
const tlc_plugin_desc *tlc_plugin_describe(void) { return &desc; }

/* Test hooks: not part of the plugin ABI. */
int fixture_register_late(void);
int fixture_register_late(void)
{
	return stash_host->register_rule(stash_ctx, &late);
}

int fixture_late_rc(void);
int fixture_late_rc(void) { return late_rc; }
