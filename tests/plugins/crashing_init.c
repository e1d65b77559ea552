/* Fixture plugin crashing_init: a valid descriptor whose init() registers a
 * rule and then dies of SIGSEGV, as a plugin with a wild pointer would.
 * `tlcost plugin check` must survive it and report plugin_crashed. The
 * signal is raised rather than provoked by a NULL store so that every build
 * (UBSan's null check included) dies the same way. */
#include <signal.h>
#include "tlcost/plugin.h"

static int init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	static const tlc_rule_def def = { sizeof(tlc_rule_def), "fixture::crash_a",
	                                  TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
	                                  "registered, then init crashes", 0 };
	(void)host->register_rule(ctx, &def);
	raise(SIGSEGV);
	return 0;
}

static const tlc_plugin_desc desc = {
	TLC_PLUGIN_ABI_VERSION, sizeof(tlc_plugin_desc), "crashing_init", "0", init
};

const tlc_plugin_desc *tlc_plugin_describe(void);
const tlc_plugin_desc *tlc_plugin_describe(void) { return &desc; }
