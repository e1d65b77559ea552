/* tlcost flops FILE...: exact per-phase totals, coverage, lower-bound line. */
#include <stdio.h>
#include <stdlib.h>
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

typedef struct files {
	char **v;
	int n;
} files;

static int on_arg(cli_ctx *ctx, int id, const char *v, void *payload)
{
	(void)ctx;
	(void)id; /* no options of its own: only positionals reach here */
	files *f = payload;
	f->v[f->n++] = (char *)v;
	return 0;
}

int tool_flops(cli_ctx *ctx)
{
	static const cli_opt none[] = { { NULL, 0, 0 } };
	const cli_opt *tables[] = { none, NULL };
	files f = { calloc((size_t)ctx->argc + 1, sizeof(char *)), 0 };
	if (!f.v)
		return cli_error(ctx, CLI_EXIT_INPUT, "out_of_memory", "free memory",
		                 "cannot hold the file list");
	int rc = cli_parse(ctx, tables, on_arg, &f, help);
	if (rc == 0 && f.n == 0)
		rc = cli_usage_error(ctx, "give at least one FILE");
	if (rc == 0 && ctx->format == TLC_FORMAT_CSV)
		rc = cli_usage_error(ctx, "flops supports --format text or json");
	for (int i = 0; rc == 0 && i < f.n; i++) {
		tlc_eval *ev;
		if ((rc = cli_load(ctx, f.v[i], 0, &ev)) != 0)
			break;
		if (i > 0 && ctx->format == TLC_FORMAT_TEXT)
			printf("\n");
		if (f.n > 1 && ctx->format == TLC_FORMAT_TEXT)
			printf("== %s\n", f.v[i]);
		rc = tlc_write_flops(stdout, ev, ctx->format) < 0 ? cli_fail(ctx) : 0;
		tlc_eval_free(ev);
	}
	free(f.v);
	return rc < 0 ? 0 : rc;
}
