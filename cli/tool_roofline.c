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

static int parse_one(cli_ctx *ctx, int *i, void *payload)
{
	args *a = payload;
	const char *v;
	int r = ra_ceil_option(ctx, i, &a->rc);
	if (r != 0)
		return r < 0 ? -r : 0;
	if ((v = ra_value(ctx, i, "--phase")))
		return ra_phase(&a->o.phase, v, 1) == 0 ? 0
		       : cli_usage_error(ctx, "--phase must be forward, backward, optimizer, other or all");
	if ((v = ra_value(ctx, i, "--cache-bytes")))
		return ra_cache_bytes(&a->o.cache_bytes, ctx, v);
	if ((v = ra_value(ctx, i, "--top")))
		return ra_size(&a->top, v) == 0 ? 0
		       : cli_usage_error(ctx, "--top needs a count >= 0, got '%s'", v);
	if ((v = ra_value(ctx, i, "--svg")))
		return *v ? (a->svg = v, 0) : cli_usage_error(ctx, "--svg needs a FILE");
	return ra_positional(ctx, *i, &a->file);
}

static int write_svg(cli_ctx *ctx, const tlc_roofline *rl, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "%s: error: io_error: cannot write '%s'\n  remedy: check the "
		        "directory exists and is writable\n", ctx->prog, path);
		return 1;
	}
	int rc = tlc_write_roofline_svg(f, rl);
	if (fclose(f) != 0 && rc == 0) {
		fprintf(stderr, "%s: error: io_error: writing '%s' failed\n  remedy: check free "
		        "disk space\n", ctx->prog, path);
		return 1;
	}
	return rc < 0 ? cli_fail(ctx) : 0;
}

static int run(cli_ctx *ctx, args *a)
{
	tlc_eval *ev;
	int rc = cli_load(ctx, a->file, 1, &ev);
	if (rc)
		return rc;
	tlc_roofline *rl;
	a->o.ceilings = a->rc.c;
	if (tlc_roofline_build(&rl, ev, &a->o) < 0) {
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
	int rc = ra_parse_args(ctx, parse_one, &a, help, &a.file, &a.rc);
	if (rc < 0) { /* --help */
		tlc_devices_free(a.rc.devs);
		return 0;
	}
	if (rc == 0)
		rc = run(ctx, &a);
	tlc_devices_free(a.rc.devs);
	return rc;
}
