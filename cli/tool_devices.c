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

static const cli_opt opts[] = { { "--devices", 1, 1 }, { NULL, 0, 0 } };

static int on_arg(cli_ctx *ctx, int id, const char *v, void *payload)
{
	ra_ceil *rc = payload;
	if (id == CLI_POS)
		return cli_usage_error(ctx, "unknown argument %s", v);
	if (!*v)
		return cli_usage_error(ctx, "--devices needs a FILE");
	if (!rc->devs && tlc_devices_new(&rc->devs) < 0)
		return cli_fail(ctx);
	return tlc_devices_load(rc->devs, v) < 0 ? cli_fail(ctx) : 0;
}

int tool_devices(cli_ctx *ctx)
{
	ra_ceil rc;
	memset(&rc, 0, sizeof rc);
	const cli_opt *tables[] = { opts, NULL };
	int status = cli_parse(ctx, tables, on_arg, &rc, help);
	if (status < 0) { /* --help */
		tlc_devices_free(rc.devs);
		return 0;
	}
	if (status == 0 && !rc.devs && tlc_devices_new(&rc.devs) < 0)
		status = cli_fail(ctx);
	if (status == 0 && tlc_write_devices(stdout, rc.devs, ctx->format) < 0)
		status = cli_fail(ctx);
	tlc_devices_free(rc.devs);
	return status;
}
