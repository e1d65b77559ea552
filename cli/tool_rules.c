/* tlcost rules: every registered rule with kind, evidence and provider. */
#include <stdio.h>
#include "cli.h"

static void help(FILE *out)
{
	fprintf(out, "usage: tlcost [--plugin SO] [--rules FILE] rules [--format text|json]\n\n"
	        "Lists every registered rule: name, kind (cost, zero, decomposed,\n"
	        "structural), evidence (formula_exact or estimated), the provider\n"
	        "(builtin:FAMILY, pack:NAME, plugin:NAME, rules:FILE, api) and its formula\n"
	        "note. Packs (docs/packs.md) are on by default: --no-packs, --packs LIST.\n"
	        "Overrides of another provider's rule are marked [override].\n");
}

static int on_arg(cli_ctx *ctx, int id, const char *v, void *payload)
{
	(void)id;
	(void)v;
	(void)payload;
	return cli_usage_error(ctx, "rules takes no arguments");
}

int tool_rules(cli_ctx *ctx)
{
	static const cli_opt none[] = { { NULL, 0, 0 } };
	const cli_opt *tables[] = { none, NULL };
	int rc = cli_parse(ctx, tables, on_arg, NULL, help);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (ctx->format == TLC_FORMAT_CSV)
		return cli_usage_error(ctx, "rules supports --format text or json");
	if ((rc = cli_engine(ctx)) != 0)
		return rc;
	return tlc_write_rules(stdout, ctx->eng, ctx->format) < 0 ? cli_fail(ctx) : 0;
}
