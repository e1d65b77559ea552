/* tlcost mfu FILE --step-seconds S: model FLOPs utilization (contract 7). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report_args.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost mfu --step-seconds S [CEILINGS] [--params N] [--tokens D]\n"
	        "                  [--format text|json|csv] FILE\n\n"
	        "MFU = (sum over phases of FLOPs / peak FLOP/s for that phase's dtype) / S,\n"
	        "where S is the UNINSTRUMENTED end-to-end wall time of the step the input\n"
	        "captured: the only lawful denominator. Other denominators (kernel-union,\n"
	        "device-busy or instrumented host time) are refused with\n"
	        "mfu_denominator_invalid. MFU above 1 prints the warning mfu_exceeds_one.\n"
	        "With parameter count N and tokens D (flags or the op log header) a 6ND\n"
	        "comparator line is printed.\n\n"
	        RA_CEIL_HELP
	        "  --step-seconds S   uninstrumented end-to-end step wall time (required)\n"
	        "  --params N         model parameters, for the 6ND comparator\n"
	        "  --tokens D         tokens (items) in the step, for the 6ND comparator\n"
	        "  --kernel-utilization  require the attributed kernel utilization: FLOPs of\n"
	        "                     attributed ops / (their kernel time x peak), never MFU;\n"
	        "                     refused (kernel_utilization_requires_device_join)\n"
	        "                     unless a device-time join of the input passes its gate.\n"
	        "                     Without the flag it is printed when available.\n");
}

typedef struct args {
	ra_ceil rc;
	tlc_mfu_options o;
	const char *file;
	int want_util;
} args;

/* Denominators that are refused: accepted here so the library refuses them
 * with mfu_denominator_invalid rather than a usage error. */
enum { O_STEP = 1, O_UTIL, O_PARAMS, O_TOKENS, O_DENOM = 100 };
static const cli_opt opts[] = {
	{ "--step-seconds", 1, O_STEP }, { "--kernel-utilization", 0, O_UTIL },
	{ "--params", 1, O_PARAMS }, { "--tokens", 1, O_TOKENS },
	{ "--kernel-union-seconds", 1, O_DENOM + TLC_MFU_KERNEL_UNION_SECONDS },
	{ "--device-busy-seconds", 1, O_DENOM + TLC_MFU_DEVICE_BUSY_SECONDS },
	{ "--instrumented-seconds", 1, O_DENOM + TLC_MFU_INSTRUMENTED_HOST_SECONDS },
	{ "--host-seconds", 1, O_DENOM + TLC_MFU_INSTRUMENTED_HOST_SECONDS },
	{ "--kernel-seconds", 1, O_DENOM + TLC_MFU_OTHER_SECONDS },
	{ "--device-seconds", 1, O_DENOM + TLC_MFU_OTHER_SECONDS },
	{ NULL, 0, 0 }
};

/* The option names with this id ("--instrumented-seconds/--host-seconds"). */
static const char *opt_names(char *buf, size_t cap, int id)
{
	buf[0] = '\0';
	for (const cli_opt *o = opts; o->name; o++)
		if (o->id == id)
			snprintf(buf + strlen(buf), cap - strlen(buf), "%s%s", buf[0] ? "/" : "", o->name);
	return buf;
}

static int on_opt(cli_ctx *ctx, int id, const char *v, void *payload)
{
	args *a = payload;
	char names[96];
	switch (id) {
	case O_UTIL:
		a->want_util = 1;
		return 0;
	case O_PARAMS:
		return ra_int64(&a->o.params, v) == 0 && a->o.params > 0 ? 0
		       : cli_usage_error(ctx, "--params needs a count > 0, got '%s'", v);
	case O_TOKENS:
		return ra_int64(&a->o.tokens, v) == 0 && a->o.tokens > 0 ? 0
		       : cli_usage_error(ctx, "--tokens needs a count > 0, got '%s'", v);
	default: /* a denominator: nan, inf, 0 or less is a usage error here */
		if (id >= O_DENOM)
			a->o.denominator = (tlc_mfu_denominator)(id - O_DENOM);
		return ra_number(&a->o.seconds, v) == 0 ? 0
		       : cli_usage_error(ctx, "%s needs a finite number of seconds > 0, got '%s'",
		                         opt_names(names, sizeof names, id), v);
	}
}

/* The attributed kernel utilization (contract 7): a separate quantity from
 * MFU, only from a join that passed the gate; printed in text output, and
 * required (typed refusal) with --kernel-utilization. */
static int kernel_utilization(cli_ctx *ctx, const args *a, const tlc_eval *ev,
                              const tlc_mfu_summary *r)
{
	double peak = r->phase[TLC_PHASE_FORWARD].peak_flops;
	for (int p = 0; peak <= 0 && p < TLC_PHASE_COUNT; p++)
		peak = r->phase[p].peak_flops;
	double u = 0;
	int rc = tlc_join_kernel_utilization(&u, ctx->join, ev, peak);
	if (rc < 0) {
		if (a->want_util)
			return cli_fail(ctx);
		if (ctx->format == TLC_FORMAT_TEXT)
			printf("attributed kernel utilization: refused (%s): %s\n",
			       tlc_error_last()->code, tlc_error_last()->message);
		return 0;
	}
	if (ctx->format == TLC_FORMAT_TEXT)
		printf("attributed kernel utilization (not MFU): %.4f = FLOPs of attributed ops / "
		       "(their kernel time x %.4g FLOP/s)%s\n",
		       u, peak, r->lower_bound ? "; a lower bound" : "");
	return 0;
}

static int run(cli_ctx *ctx, args *a)
{
	tlc_eval *ev;
	int rc = cli_load(ctx, a->file, 1, &ev);
	if (rc)
		return rc;
	tlc_mfu *m;
	a->o.ceilings = a->rc.c;
	if (tlc_mfu_compute(&m, ev, &a->o) < 0) {
		rc = cli_fail(ctx);
		cli_unload(ctx, ev);
		return rc;
	}
	const tlc_mfu_summary *r = tlc_mfu_get_summary(m);
	if (r->exceeds_one)
		fprintf(stderr, "%s: warning: mfu_exceeds_one: MFU is %.3f, above 1\n  remedy: check "
		        "that --step-seconds is the uninstrumented wall time of the whole step and "
		        "that the device and dtype are right\n", ctx->prog, r->mfu);
	rc = tlc_write_mfu(stdout, m, ctx->format) < 0 ? cli_fail(ctx) : 0;
	if (rc == 0)
		rc = kernel_utilization(ctx, a, ev, r);
	tlc_mfu_free(m);
	cli_unload(ctx, ev);
	return rc;
}

int tool_mfu(cli_ctx *ctx)
{
	args a;
	memset(&a, 0, sizeof a);
	a.o.size = sizeof a.o;
	a.o.seconds = NAN; /* missing until --step-seconds */
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
