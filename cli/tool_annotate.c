/* tlcost annotate TRACE -o OUT: the trace with each op's analytic cost in
 * its args and counter tracks of cumulative FLOPs and bytes (docs/annotate.md). */
#include <stdio.h>
#include <string.h>
#include "report_args.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost annotate [CEILINGS] TRACE -o OUT[.gz] [--gzip | --no-gzip]\n\n"
	        "Writes OUT: the PyTorch profiler trace TRACE (plain or gzip; - reads standard\n"
	        "input) with every event copied byte for byte, each op event's analytic cost\n"
	        "added to its args (tlcost.class, tlcost.macs, tlcost.flops, tlcost.bytes,\n"
	        "tlcost.rule; an unknown cost as tlcost.unknown with its reason, never 0), and\n"
	        "counter tracks of each process's cumulative analytic FLOPs and bytes. Open\n"
	        "OUT in https://ui.perfetto.dev or chrome://tracing (docs/annotate.md).\n\n"
	        "  -o, --output OUT  where to write (whole or not at all)\n"
	        "  --gzip            compress OUT (default when OUT ends in .gz)\n"
	        "  --no-gzip         do not compress OUT\n\n"
	        "With a ceiling option (--device NAME, --peak-flops/--peak-bw, ...), each op\n"
	        "whose device-time join passed its gate also gets its attributed kernel\n"
	        "utilization (tlcost.util.flops_per_s, tlcost.util.peak_share, ...: its exact\n"
	        "FLOPs and bytes over the kernel time of its costed row, the model of `tlcost\n"
	        "profile --by op --utilization`); without one, or when the gate fails (a\n"
	        "note says so), no tlcost.util.* keys.\n"
	        RA_CEIL_HELP "\n"
	        "TRACE is read twice; an input that is not a regular file (a pipe) is first\n"
	        "buffered to a temporary file in $TMPDIR, and a note says so.\n");
}

enum { OPT_OUT = 1, OPT_GZIP, OPT_NO_GZIP };

typedef struct args {
	const char *input, *output;
	int gzip;
	int extra;
	int ceil;   /* a ceiling option was given: write utilization */
	ra_ceil rc;
	int err;
} args;

static int on_arg(cli_ctx *ctx, int id, const char *v, void *payload)
{
	args *a = payload;
	if (id > RA_CEIL_ID) {
		a->ceil = 1;
		return ra_ceil_arg(ctx, id, v, &a->rc);
	}
	switch (id) {
	case CLI_POS:
		if (a->input)
			a->extra = 1;
		else
			a->input = v;
		break;
	case OPT_OUT: a->output = v; break;
	case OPT_GZIP: a->gzip = 1; break;
	case OPT_NO_GZIP: a->gzip = 0; break;
	}
	return 0;
}

int tool_annotate(cli_ctx *ctx)
{
	static const cli_opt opts[] = {
		{ "-o", 1, OPT_OUT }, { "--output", 1, OPT_OUT },
		{ "--gzip", 0, OPT_GZIP }, { "--no-gzip", 0, OPT_NO_GZIP },
		{ NULL, 0, 0 }
	};
	const cli_opt *tables[] = { opts, ra_ceil_opts, NULL };
	args a;
	memset(&a, 0, sizeof a);
	a.gzip = -1;
	int rc = cli_parse(ctx, tables, on_arg, &a, help);
	if (rc == 0 && (!a.input || a.extra))
		rc = cli_usage_error(ctx, "give one TRACE");
	if (rc == 0 && !a.output)
		rc = cli_usage_error(ctx, "give the output file: -o OUT (OUT.gz for gzip)");
	if (rc == 0 && ctx->format != TLC_FORMAT_TEXT)
		rc = cli_usage_error(ctx, "annotate writes a trace: --format does not apply");
	if (rc == 0)
		rc = cli_engine(ctx);
	if (rc != 0) {
		tlc_devices_free(a.rc.devs);
		return rc < 0 ? 0 : rc;
	}
	tlc_annotate_options o = TLC_ANNOTATE_OPTIONS_INIT;
	o.gzip = a.gzip;
	o.limits = &ctx->limits;
	o.ceilings = a.ceil ? &a.rc.c : NULL;
	tlc_annotate_summary s = TLC_ANNOTATE_SUMMARY_INIT;
	rc = tlc_annotate_trace(&s, ctx->eng, a.input, a.output, &o);
	tlc_devices_free(a.rc.devs);
	if (rc < 0)
		return cli_fail(ctx);
	if (s.utilization_refused)
		fprintf(stderr, "tlcost annotate: note: no attributed kernel utilization "
		        "(kernel_utilization_requires_device_join): the device-time join did not "
		        "pass its gate or the trace has no device records; no tlcost.util.* keys "
		        "were written (`tlcost join` says why)\n");
	if (s.buffered_bytes)
		fprintf(stderr, "tlcost annotate: note: %s is not a file that can be read twice: "
		        "buffered %llu bytes to a temporary file\n",
		        strcmp(a.input, "-") == 0 ? "standard input" : a.input,
		        (unsigned long long)s.buffered_bytes);
	if (s.args_not_object)
		fprintf(stderr, "tlcost annotate: warning: %llu op events have an \"args\" that is "
		        "not an object: left without their cost\n",
		        (unsigned long long)s.args_not_object);
	printf("%s: %llu events copied; %llu op events annotated (%llu known, %llu unknown, "
	       "%llu without a cost of their own); %llu counter events%s%s",
	       a.output, (unsigned long long)s.events, (unsigned long long)s.ops,
	       (unsigned long long)s.known, (unsigned long long)s.unknown,
	       (unsigned long long)s.not_applicable, (unsigned long long)s.counters,
	       s.gzip ? "; gzip" : "", s.lower_bound ? "; totals are a LOWER BOUND" : "");
	if (a.ceil && !s.utilization_refused)
		printf("; %llu with attributed kernel utilization",
		       (unsigned long long)s.utilization);
	printf("\n");
	return 0;
}
