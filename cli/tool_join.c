/* tlcost join FILE: the device-time join of a trace or op log (contract
 * section 8): path used and why, per-device and per-phase shares, the
 * named remainder and the 95% gate; per-launch rows in JSON and CSV. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost join [--format text|json|csv] [--force-correlation|--force-containment]\n"
	        "                   FILE\n\n"
	        "Attributes device activity (kernels, memcpy, memset) of a PyTorch profiler\n"
	        "trace or an op log with kernel/runtime records to the ops that launched them:\n"
	        "by correlation id (launch -> runtime call -> op by external id), or, when the\n"
	        "external ids are unusable, by containment (the innermost op on the runtime\n"
	        "call's host thread). Never by name. Prints the path used and why, per-device\n"
	        "busy time (union of intervals), attributed/ambiguous/unattributed time, the\n"
	        "unattributed remainder by name, and the gate: at least 95%% of kernel time\n"
	        "attributed, forward and backward separately. --format csv writes one row per\n"
	        "launch (name, device, stream, duration, correlation, status, owning op or\n"
	        "ambiguous group). Exit status 0 whether or not the gate passes.\n");
}

static int parse(cli_ctx *ctx, const char **file, unsigned *flags)
{
	*file = NULL;
	*flags = 0;
	for (int i = 0; i < ctx->argc; i++) {
		const char *a = ctx->argv[i];
		if (cli_is_help(a)) {
			help(stdout);
			return -1;
		}
		if (strcmp(a, "--force-correlation") == 0)
			*flags |= TLC_JOIN_FORCE_CORRELATION;
		else if (strcmp(a, "--force-containment") == 0)
			*flags |= TLC_JOIN_FORCE_CONTAINMENT;
		else if (a[0] == '-' && a[1])
			return cli_usage_error(ctx, "unknown option %s", a);
		else if (*file)
			return cli_usage_error(ctx, "give exactly one FILE");
		else
			*file = a;
	}
	if (!*file)
		return cli_usage_error(ctx, "give a FILE (trace or op log)");
	if (*flags == (TLC_JOIN_FORCE_CORRELATION | TLC_JOIN_FORCE_CONTAINMENT))
		return cli_usage_error(ctx, "--force-correlation and --force-containment exclude each other");
	return 0;
}

int tool_join(cli_ctx *ctx)
{
	const char *file;
	unsigned flags;
	int rc = parse(ctx, &file, &flags);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	tlc_eval *ev;
	rc = cli_load(ctx, file, 1, &ev);
	if (rc != 0)
		return rc;
	tlc_join_options opts = { sizeof opts, flags, 0 };
	tlc_join *j;
	if (tlc_join_run(&j, ev, &opts) < 0) {
		rc = cli_fail(ctx);
		tlc_eval_free(ev);
		return rc;
	}
	if (tlc_write_join(stdout, j, ev, (int)ctx->format) < 0)
		rc = cli_fail(ctx);
	tlc_join_free(j);
	tlc_eval_free(ev);
	return rc;
}
