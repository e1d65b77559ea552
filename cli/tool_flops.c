/* tlcost flops FILE...: exact per-phase totals, coverage, lower-bound line. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost flops [--format text|json] FILE...\n\n"
	        "Counts FLOPs (fma=2: one MAC = 2 FLOPs) and ideal bytes of every op in each\n"
	        "op log or PyTorch profiler trace (plain or gzip), per phase, with the four-way\n"
	        "coverage and whether the totals are COMPLETE or a LOWER BOUND. Counts are\n"
	        "actual-path analytic: computed by per-op rules from the shapes that ran.\n"
	        "Each FILE gets its own report.\n");
}

int tool_flops(cli_ctx *ctx)
{
	for (int i = 0; i < ctx->argc; i++) {
		if (cli_is_help(ctx->argv[i])) {
			help(stdout);
			return 0;
		}
		if (ctx->argv[i][0] == '-' && ctx->argv[i][1])
			return cli_usage_error(ctx, "unknown option %s", ctx->argv[i]);
	}
	if (ctx->argc == 0)
		return cli_usage_error(ctx, "give at least one FILE");
	if (ctx->format == TLC_FORMAT_CSV)
		return cli_usage_error(ctx, "flops supports --format text or json");
	for (int i = 0; i < ctx->argc; i++) {
		tlc_eval *ev;
		int rc = cli_load(ctx, ctx->argv[i], 0, &ev);
		if (rc != 0)
			return rc;
		if (i > 0 && ctx->format == TLC_FORMAT_TEXT)
			printf("\n");
		if (ctx->argc > 1 && ctx->format == TLC_FORMAT_TEXT)
			printf("== %s\n", ctx->argv[i]);
		rc = tlc_write_flops(stdout, ev, ctx->format);
		tlc_eval_free(ev);
		if (rc < 0)
			return cli_fail(ctx);
	}
	return 0;
}
