/* Fixture plugin missing_entry: a shared object that exports a misspelt
 * entry point instead of tlc_plugin_describe. */
#include "tlcost/plugin.h"

static int init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	(void)ctx;
	(void)host;
	return 0;
}

static const tlc_plugin_desc desc = {
	TLC_PLUGIN_ABI_VERSION, sizeof(tlc_plugin_desc), "missing_entry", "0", init
};

const tlc_plugin_desc *tlc_plugin_describ(void);
const tlc_plugin_desc *tlc_plugin_describ(void) { return &desc; }
