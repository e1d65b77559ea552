/* tlcost ledger FILE: every unknown-cost op group with its remedy. */
#include <stdio.h>
#include "cli.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost ledger [--format text|json] FILE\n\n"
	        "Lists the ops that have no cost rule (or whose rule could not evaluate),\n"
	        "grouped by name and sorted by count: example ids, example input shapes,\n"
	        "FLOPs counted inside them by nested children, and a runnable remedy.\n"
	        "A partly known op (its rule determined some terms, not all) also names\n"
	        "the missing term and its cause; its determined terms are in the totals.\n");
}

static int on_arg(cli_ctx *ctx, int id, const char *v, void *payload)
{
	(void)id; /* only positionals: the command has no options of its own */
	const char **file = payload;
	if (*file)
		return cli_usage_error(ctx, "give exactly one FILE");
	*file = v;
	return 0;
}

int tool_ledger(cli_ctx *ctx)
{
	static const cli_opt none[] = { { NULL, 0, 0 } };
	const cli_opt *tables[] = { none, NULL };
	const char *file = NULL;
	int rc = cli_parse(ctx, tables, on_arg, &file, help);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (!file)
		return cli_usage_error(ctx, "give exactly one FILE");
	if (ctx->format == TLC_FORMAT_CSV)
		return cli_usage_error(ctx, "ledger supports --format text or json");
	tlc_eval *ev;
	if ((rc = cli_load(ctx, file, 0, &ev)) != 0)
		return rc;
	rc = tlc_write_ledger(stdout, ev, ctx->format) < 0 ? cli_fail(ctx) : 0;
	tlc_eval_free(ev);
	return rc;
}
