/* tlcost profile FILE: per op, op type or module tables. */
#include <stdio.h>
#include <string.h>
#include "report_args.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost profile [--by op|type|module] [--sort flops|bytes|intensity|time|count]\n"
	        "                      [--top K] [--phase P|all] [--format text|json|csv] FILE\n\n"
	        "Tables of FLOPs (fma=2, exact), ideal bytes, intensity (FLOP/byte) and op\n"
	        "counts per op, per op type or per module (innermost module). Host times from\n"
	        "a capture are shown as `time (instrumented)`: measured under the capture's\n"
	        "overhead, hotspot guidance and not a benchmark. Device time columns appear\n"
	        "only after a device-time join.\n\n"
	        "  --by B      op (one row per op), type (default) or module\n"
	        "  --sort S    flops (default), bytes, intensity, time or count, descending\n"
	        "  --top K     rows to show (default 25; 0 = all)\n"
	        "  --phase P   forward, backward, optimizer, other or all (default)\n"
	        "  --device-time  require per-op device time: refused\n"
	        "              (device_time_unavailable) when the input has no device\n"
	        "              records to join (a trace or an op log with kernel records)\n");
}

static int parse_by(tlc_profile_by *out, const char *v)
{
	static const char *const n[] = { "op", "type", "module" };
	for (int k = 0; k < 3; k++)
		if (strcmp(v, n[k]) == 0) {
			*out = (tlc_profile_by)k;
			return 0;
		}
	return -1;
}

static int parse_sort(tlc_profile_sort *out, const char *v)
{
	static const char *const n[] = { "flops", "bytes", "intensity", "time", "count" };
	for (int k = 0; k < 5; k++)
		if (strcmp(v, n[k]) == 0) {
			*out = (tlc_profile_sort)k;
			return 0;
		}
	return -1;
}

static int parse(cli_ctx *ctx, tlc_profile_options *o, const char **file, int *want_dev)
{
	for (int i = 0; i < ctx->argc; i++) {
		const char *v;
		if (cli_is_help(ctx->argv[i])) {
			help(stdout);
			return -1;
		}
		if (strcmp(ctx->argv[i], "--device-time") == 0) {
			*want_dev = 1;
			continue;
		}
		if ((v = ra_value(ctx, &i, "--by"))) {
			if (parse_by(&o->by, v) < 0)
				return cli_usage_error(ctx, "--by must be op, type or module");
		} else if ((v = ra_value(ctx, &i, "--sort"))) {
			if (parse_sort(&o->sort, v) < 0)
				return cli_usage_error(ctx, "--sort must be flops, bytes, intensity, time or count");
		} else if ((v = ra_value(ctx, &i, "--top"))) {
			if (ra_size(&o->top, v) < 0)
				return cli_usage_error(ctx, "--top needs a count >= 0, got '%s'", v);
		} else if ((v = ra_value(ctx, &i, "--phase"))) {
			if (ra_phase(&o->phase, v, 1) < 0)
				return cli_usage_error(ctx, "--phase must be forward, backward, optimizer, other or all");
		} else {
			int rc = ra_positional(ctx, i, file);
			if (rc)
				return rc;
		}
	}
	return *file ? 0 : cli_usage_error(ctx, "give one FILE");
}

int tool_profile(cli_ctx *ctx)
{
	tlc_profile_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.by = TLC_PROFILE_BY_TYPE;
	o.top = 25;
	o.phase = -1;
	const char *file = NULL;
	int want_dev = 0;
	int rc = parse(ctx, &o, &file, &want_dev);
	if (rc)
		return rc < 0 ? 0 : rc;
	tlc_eval *ev;
	if ((rc = cli_load(ctx, file, 1, &ev)) != 0)
		return rc;
	if (want_dev && tlc_join_require_device_time(ctx->join) < 0) {
		rc = cli_fail(ctx);
		cli_unload(ctx, ev);
		return rc;
	}
	tlc_profile *p;
	rc = tlc_profile_build(&p, ev, &o);
	if (rc == 0) {
		rc = tlc_write_profile(stdout, p, ctx->format);
		tlc_profile_free(p);
	}
	rc = rc < 0 ? cli_fail(ctx) : 0;
	cli_unload(ctx, ev);
	return rc;
}
