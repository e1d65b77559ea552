/* tlcost profile FILE: per op, op type or module tables. */
#include <stdio.h>
#include <string.h>
#include "report_args.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost profile [--by op|type|module|args] [--sort flops|bytes|intensity|time|count]\n"
	        "                      [--top K] [--phase P|all] [--utilization [ceilings]]\n"
	        "                      [--format text|json|csv] FILE\n\n"
	        "Tables of FLOPs (fma=2, exact), ideal bytes, intensity (FLOP/byte) and op\n"
	        "counts per op, per op type or per module (innermost module). Host times from\n"
	        "a capture are shown as `time (instrumented)`: measured under the capture's\n"
	        "overhead, hotspot guidance and not a benchmark. Device time columns appear\n"
	        "only after a device-time join.\n\n"
	        "  --by B      op (one row per op), type (default), module, or args (op name,\n"
	        "              input shapes and dtypes: TraceLens's unique args)\n"
	        "  --sort S    flops (default), bytes, intensity, time, count or headroom\n"
	        "              (recoverable time, with --utilization), descending\n"
	        "  --top K     rows to show (default 25; 0 = all)\n"
	        "  --phase P   forward, backward, optimizer, other or all (default)\n"
	        "  --device-time  require per-op device time: refused\n"
	        "              (device_time_unavailable) when the input has no device\n"
	        "              records to join (a trace or an op log with kernel records)\n"
	        "  --utilization  attributed kernel utilization per row (TFLOP/s, TB/s, %% of the\n"
	        "              device's peak and bandwidth) over the costed kernel time; refused\n"
	        "              (kernel_utilization_requires_device_join) unless the join passed\n"
	        "              its gate; --format csv gives the TraceLens-style table\n"
	        RA_CEIL_HELP);
}

static int parse_by(tlc_profile_by *out, const char *v)
{
	static const char *const n[] = { "op", "type", "module", "args" };
	for (int k = 0; k < 4; k++)
		if (strcmp(v, n[k]) == 0) {
			*out = (tlc_profile_by)k;
			return 0;
		}
	return -1;
}

static int parse_sort(tlc_profile_sort *out, const char *v)
{
	static const char *const n[] = { "flops", "bytes", "intensity", "time", "count", "headroom" };
	for (int k = 0; k < 6; k++)
		if (strcmp(v, n[k]) == 0) {
			*out = (tlc_profile_sort)k;
			return 0;
		}
	return -1;
}

typedef struct args {
	tlc_profile_options o;
	int want_dev, util;
	ra_ceil rc;
} args;

enum { O_BY = 1, O_SORT, O_TOP, O_PHASE, O_DEVICE_TIME, O_UTIL };
static const cli_opt opts[] = {
	{ "--by", 1, O_BY }, { "--sort", 1, O_SORT }, { "--top", 1, O_TOP },
	{ "--phase", 1, O_PHASE }, { "--device-time", 0, O_DEVICE_TIME },
	{ "--utilization", 0, O_UTIL }, { NULL, 0, 0 }
};

static int on_opt(cli_ctx *ctx, int id, const char *v, void *payload)
{
	args *a = payload;
	switch (id) {
	case O_BY:
		return parse_by(&a->o.by, v) == 0 ? 0
		       : cli_usage_error(ctx, "--by must be op, type, module or args");
	case O_SORT:
		return parse_sort(&a->o.sort, v) == 0 ? 0
		       : cli_usage_error(ctx, "--sort must be flops, bytes, intensity, time, count or "
		                              "headroom (with --utilization)");
	case O_TOP:
		return ra_size(&a->o.top, v) == 0 ? 0
		       : cli_usage_error(ctx, "--top needs a count >= 0, got '%s'", v);
	case O_PHASE:
		return ra_phase(&a->o.phase, v, 1) == 0 ? 0
		       : cli_usage_error(ctx, "--phase must be forward, backward, optimizer, other or all");
	case O_UTIL:
		a->util = 1;
		return 0;
	default:
		a->want_dev = 1;
		return 0;
	}
}

int tool_profile(cli_ctx *ctx)
{
	args a;
	memset(&a, 0, sizeof a);
	a.o.size = sizeof a.o;
	a.o.by = TLC_PROFILE_BY_TYPE;
	a.o.top = 25;
	a.o.phase = -1;
	const char *file = NULL;
	int rc = ra_parse_args(ctx, opts, on_opt, &a, help, &file, &a.rc);
	if (rc) {
		tlc_devices_free(a.rc.devs);
		return rc < 0 ? 0 : rc;
	}
	if (a.o.sort == TLC_SORT_HEADROOM && !a.util) {
		tlc_devices_free(a.rc.devs);
		return cli_usage_error(ctx, "--sort headroom needs --utilization");
	}
	tlc_eval *ev;
	if ((rc = cli_load(ctx, file, 1, &ev)) != 0) {
		tlc_devices_free(a.rc.devs);
		return rc;
	}
	if (a.want_dev && tlc_join_require_device_time(ctx->join) < 0) {
		rc = cli_fail(ctx);
		cli_unload(ctx, ev);
		tlc_devices_free(a.rc.devs);
		return rc;
	}
	tlc_profile *p;
	rc = a.util ? tlc_profile_build_util(&p, ev, ctx->join, &a.o, &a.rc.c)
	            : tlc_profile_build_joined(&p, ev, ctx->join, &a.o);
	if (rc == 0) {
		rc = tlc_write_profile(stdout, p, ctx->format);
		tlc_profile_free(p);
	}
	rc = rc < 0 ? cli_fail(ctx) : 0;
	cli_unload(ctx, ev);
	tlc_devices_free(a.rc.devs);
	return rc;
}
