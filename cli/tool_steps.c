/* tlcost steps FILE: where each profiler step's wall time went, per device
 * (contract section 10, "Step buckets"; docs/reports.md, "tlcost steps"). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost steps [--format text|json|csv] FILE\n\n"
	        "Splits each profiler step's wall time (a ProfilerStep#N span; where the trace\n"
	        "has none, each device's span, first work start to last work end, and the\n"
	        "output says so) per device into buckets that add up to it exactly (integer\n"
	        "ns; the residual, printed, is 0): compute kernel time by op family (gemm,\n"
	        "attention, convolution, normalisation, elementwise, reduction, other_compute;\n"
	        "by the costed op's family where the kernel is attributed, by kernel name\n"
	        "otherwise), exposed_communication (NCCL/RCCL kernel time no compute kernel\n"
	        "overlaps), exposed_memcpy_memset (copy time no kernel overlaps), idle_queued\n"
	        "(nothing runs but a launch is pending) and idle_host_bound (nothing queued).\n"
	        "Compute, communication, overlap and idle are those of `tlcost ranks` and\n"
	        "`tlcost join` (one computation). The buckets need no passed gate.\n");
}

static int on_arg(cli_ctx *ctx, int id, const char *v, void *payload)
{
	const char **file = payload;
	(void)id;
	if (*file)
		return cli_usage_error(ctx, "give exactly one FILE");
	*file = v;
	return 0;
}

int tool_steps(cli_ctx *ctx)
{
	const char *file = NULL;
	static const cli_opt none[] = { { NULL, 0, 0 } };
	const cli_opt *tables[] = { none, NULL };
	int rc = cli_parse(ctx, tables, on_arg, &file, help);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (!file)
		return cli_usage_error(ctx, "give a FILE (a trace with device records)");
	tlc_eval *ev;
	if ((rc = cli_load(ctx, file, 1, &ev)) != 0)
		return rc;
	tlc_steps *s = NULL;
	rc = tlc_steps_build(&s, ev, ctx->join);
	if (rc == 0)
		rc = tlc_write_steps(stdout, s, ctx->format);
	tlc_steps_free(s);
	rc = rc < 0 ? cli_fail(ctx) : 0;
	cli_unload(ctx, ev);
	return rc;
}
