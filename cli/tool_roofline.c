/* tlcost roofline FILE: memory/compute-bound hypotheses (contract section 6). */
#include <stdio.h>
#include <string.h>
#include "report_args.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost roofline [CEILINGS] [--phase P|all] [--cache-bytes N] [--top K]\n"
	        "                       [--svg FILE] [--format text|json|csv] FILE\n\n"
	        "Roofline HYPOTHESES: each op's intensity is FLOPs / ideal bytes (every input\n"
	        "read once, every output written once), compared with the ridge (peak FLOP/s\n"
	        "/ bandwidth) of its dtype: memory_bound_hypothesis or\n"
	        "compute_bound_hypothesis. Ops are listed with a reason: covered, no_rule,\n"
	        "zero_logical_traffic or missing_shape_dtype. Ops whose whole traffic fits in\n"
	        "cache stay listed but leave the headline counts (the report says how many).\n"
	        "Aggregate intensity = sum(FLOPs) / sum(bytes) over covered ops.\n\n"
	        RA_CEIL_HELP
	        "  --phase P        forward, backward, optimizer, other or all (default)\n"
	        "  --cache-bytes N  cache-resident threshold in bytes (default 4194304;\n"
	        "                   0 = exclude nothing)\n"
	        "  --top K          covered ops listed in text (default 20; 0 = all)\n"
	        "  --svg FILE       also write the roofline chart as SVG\n");
}

typedef struct args {
	ra_ceil rc;
	tlc_roofline_options o;
	size_t top;
	const char *svg, *file;
} args;

enum { O_PHASE = 1, O_CACHE_BYTES, O_TOP, O_SVG };
static const cli_opt opts[] = {
	{ "--phase", 1, O_PHASE }, { "--cache-bytes", 1, O_CACHE_BYTES }, { "--top", 1, O_TOP },
	{ "--svg", 1, O_SVG }, { NULL, 0, 0 }
};

static int on_opt(cli_ctx *ctx, int id, const char *v, void *payload)
{
	args *a = payload;
	switch (id) {
	case O_PHASE:
		return ra_phase(&a->o.phase, v, 1) == 0 ? 0
		       : cli_usage_error(ctx, "--phase must be forward, backward, optimizer, other or all");
	case O_CACHE_BYTES:
		return ra_cache_bytes(&a->o.cache_bytes, ctx, v);
	case O_TOP:
		return ra_size(&a->top, v) == 0 ? 0
		       : cli_usage_error(ctx, "--top needs a count >= 0, got '%s'", v);
	default:
		return *v ? (a->svg = v, 0) : cli_usage_error(ctx, "--svg needs a FILE");
	}
}

/* The chart, whole or not at all: a failed write keeps an older chart. */
static int write_svg(cli_ctx *ctx, const tlc_roofline *rl, const char *path)
{
	tlc_outfile *o;
	FILE *f;
	if (tlc_outfile_open(&o, &f, path) < 0)
		return cli_fail(ctx);
	if (tlc_write_roofline_svg(f, rl) < 0) {
		tlc_outfile_abort(o);
		return cli_fail(ctx);
	}
	return tlc_outfile_commit(o) < 0 ? cli_fail(ctx) : 0;
}

static int run(cli_ctx *ctx, args *a)
{
	tlc_eval *ev;
	int rc = cli_load(ctx, a->file, 1, &ev);
	if (rc)
		return rc;
	tlc_roofline *rl;
	a->o.ceilings = a->rc.c;
	if (tlc_roofline_build_joined(&rl, ev, ctx->join, &a->o) < 0) {
		rc = cli_fail(ctx);
		cli_unload(ctx, ev);
		return rc;
	}
	rc = tlc_write_roofline(stdout, rl, ctx->format, a->top) < 0 ? cli_fail(ctx) : 0;
	if (rc == 0 && a->svg)
		rc = write_svg(ctx, rl, a->svg);
	tlc_roofline_free(rl);
	cli_unload(ctx, ev);
	return rc;
}

int tool_roofline(cli_ctx *ctx)
{
	args a;
	memset(&a, 0, sizeof a);
	a.o.size = sizeof a.o;
	a.o.phase = -1;
	a.top = 20;
	int rc = ra_parse_args(ctx, opts, on_opt, &a, help, &a.file, &a.rc);
	if (rc < 0) { /* --help */
		tlc_devices_free(a.rc.devs);
		return 0;
	}
	if (rc == 0)
		rc = run(ctx, &a);
	tlc_devices_free(a.rc.devs);
	return rc;
}
