/* tlcost ledger FILE: every unknown-cost op group with its remedy. */
#include <stdio.h>
#include "cli.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost ledger [--format text|json] FILE\n\n"
	        "Lists the ops that have no cost rule (or whose rule could not evaluate),\n"
	        "grouped by name and sorted by count: example ids, example input shapes,\n"
	        "FLOPs counted inside them by nested children, and a runnable remedy.\n");
}

int tool_ledger(cli_ctx *ctx)
{
	if (ctx->argc == 1 && cli_is_help(ctx->argv[0])) {
		help(stdout);
		return 0;
	}
	if (ctx->argc != 1 || ctx->argv[0][0] == '-')
		return cli_usage_error(ctx, "give exactly one FILE");
	if (ctx->format == TLC_FORMAT_CSV)
		return cli_usage_error(ctx, "ledger supports --format text or json");
	tlc_eval *ev;
	int rc = cli_load(ctx, ctx->argv[0], 0, &ev);
	if (rc != 0)
		return rc;
	rc = tlc_write_ledger(stdout, ev, ctx->format) < 0 ? cli_fail(ctx) : 0;
	tlc_eval_free(ev);
	return rc;
}
