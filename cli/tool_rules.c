/* tlcost rules: every registered rule with kind, evidence and provider. */
#include <stdio.h>
#include "cli.h"

int tool_rules(cli_ctx *ctx)
{
	if (ctx->argc == 1 && cli_is_help(ctx->argv[0])) {
		printf("usage: tlcost [--plugin SO] [--rules FILE] rules [--format text|json]\n\n"
		       "Lists every registered rule: name, kind (cost, zero, decomposed,\n"
		       "structural), evidence (formula_exact or estimated), the provider\n"
		       "(builtin:FAMILY, plugin:NAME, rules:FILE, api) and its formula note.\n"
		       "Overrides of another provider's rule are marked [override].\n");
		return 0;
	}
	if (ctx->argc != 0)
		return cli_usage_error(ctx, "rules takes no arguments");
	if (ctx->format == TLC_FORMAT_CSV)
		return cli_usage_error(ctx, "rules supports --format text or json");
	int rc = cli_engine(ctx);
	if (rc != 0)
		return rc;
	return tlc_write_rules(stdout, ctx->eng, ctx->format) < 0 ? cli_fail(ctx) : 0;
}
