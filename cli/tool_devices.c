/* tlcost devices: the device presets (and a user file's devices). */
#include <stdio.h>
#include <string.h>
#include "report_args.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost devices [--devices FILE] [--format text|json|csv]\n\n"
	        "Lists the device presets used as roofline and MFU ceilings: dense peak\n"
	        "FLOP/s per dtype (no structured sparsity), memory bandwidth, the vendor\n"
	        "datasheet they come from and its date. --devices FILE adds or replaces\n"
	        "devices from a file (format in docs/devices.md).\n");
}

int tool_devices(cli_ctx *ctx)
{
	ra_ceil rc;
	memset(&rc, 0, sizeof rc);
	int status = 0;
	for (int i = 0; i < ctx->argc && status == 0; i++) {
		const char *v;
		if (cli_is_help(ctx->argv[i])) {
			help(stdout);
			tlc_devices_free(rc.devs);
			return 0;
		}
		if ((v = ra_value(ctx, &i, "--devices"))) {
			if (!*v)
				status = cli_usage_error(ctx, "--devices needs a FILE");
			else if (!rc.devs && tlc_devices_new(&rc.devs) < 0)
				status = cli_fail(ctx);
			else if (tlc_devices_load(rc.devs, v) < 0)
				status = cli_fail(ctx);
		} else {
			status = cli_usage_error(ctx, "unknown argument %s", ctx->argv[i]);
		}
	}
	if (status == 0 && !rc.devs && tlc_devices_new(&rc.devs) < 0)
		status = cli_fail(ctx);
	if (status == 0 && tlc_write_devices(stdout, rc.devs, ctx->format) < 0)
		status = cli_fail(ctx);
	tlc_devices_free(rc.devs);
	return status;
}
