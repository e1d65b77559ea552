/* tlcost report FILE: the one-screen overview a new user runs first. */
#include <stdio.h>
#include <string.h>
#include "report_args.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost report [CEILINGS] [--top K] [--depth D] [--cache-bytes N]\n"
	        "                     [--format text|json|csv] FILE\n\n"
	        "One screen (80 columns): FLOPs per phase (fma=2, exact; `>=` when a lower\n"
	        "bound), coverage, LOWER BOUND or COMPLETE, the top unknown-cost ops, the top\n"
	        "of the module cost tree and the roofline summary (hypotheses from ideal\n"
	        "traffic; skipped, with the reason, when no ceilings are known).\n"
	        "--format json holds the same; --format csv writes one row per op.\n\n"
	        RA_CEIL_HELP
	        "  --top K          tree children per node (default 5)\n"
	        "  --depth D        tree depth (default: the least from 2 to 8 whose\n"
	        "                   remainder rows hide at most 10%% of the FLOPs)\n"
	        "  --cache-bytes N  roofline cache-resident threshold (default 4194304)\n");
}

typedef struct args {
	ra_ceil rc;
	tlc_report_options o;
	const char *file;
} args;

enum { O_TOP = 1, O_DEPTH, O_CACHE_BYTES };
static const cli_opt opts[] = {
	{ "--top", 1, O_TOP }, { "--depth", 1, O_DEPTH }, { "--cache-bytes", 1, O_CACHE_BYTES },
	{ NULL, 0, 0 }
};

static int on_opt(cli_ctx *ctx, int id, const char *v, void *payload)
{
	args *a = payload;
	if (id == O_TOP)
		return ra_size(&a->o.tree_top, v) == 0 ? 0
		       : cli_usage_error(ctx, "--top needs a count, got '%s'", v);
	if (id == O_DEPTH)
		return ra_size(&a->o.tree_depth, v) == 0 ? 0
		       : cli_usage_error(ctx, "--depth needs a count, got '%s'", v);
	return ra_cache_bytes(&a->o.cache_bytes, ctx, v);
}

int tool_report(cli_ctx *ctx)
{
	args a;
	memset(&a, 0, sizeof a);
	a.o.size = sizeof a.o;
	int rc = ra_parse_args(ctx, opts, on_opt, &a, help, &a.file, &a.rc);
	if (rc < 0) { /* --help */
		tlc_devices_free(a.rc.devs);
		return 0;
	}
	tlc_eval *ev = NULL;
	if (rc == 0)
		rc = cli_load(ctx, a.file, 1, &ev);
	if (rc == 0) {
		a.o.ceilings = a.rc.c;
		/* the steps section where the input has device records */
		tlc_steps *st = NULL;
		if (ctx->join && tlc_steps_build(&st, ev, ctx->join) < 0)
			st = NULL;
		a.o.steps = st;
		rc = tlc_write_report(stdout, ev, &a.o, ctx->format) < 0 ? cli_fail(ctx) : 0;
		tlc_steps_free(st);
	}
	cli_unload(ctx, ev);
	tlc_devices_free(a.rc.devs);
	return rc;
}
