/* Argument helpers shared by the report subcommands (tree, profile,
 * roofline, devices, mfu, report). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report_args.h"

const char *ra_value(const cli_ctx *ctx, int *i, const char *opt)
{
	return cli_opt_value(ctx->argc, ctx->argv, i, opt);
}

/* A number with an optional SI suffix (k, M, G, T, P, E): "989.5T". */
int ra_number(double *out, const char *s)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno)
		return -1;
	static const char suf[] = "kMGTPE";
	const char *p = *end ? strchr(suf, *end) : NULL;
	for (const char *q = suf; p && q <= p; q++)
		v *= 1000.0;
	if (p)
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

int ra_size(size_t *out, const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-')
		return -1;
	*out = (size_t)v;
	return 0;
}

int ra_int64(int64_t *out, const char *s)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (!*s || *end || errno)
		return -1;
	*out = (int64_t)v;
	return 0;
}

/* Phase name, or "all" (-1) when allow_all. */
int ra_phase(int *out, const char *s, int allow_all)
{
	if (allow_all && strcmp(s, "all") == 0) {
		*out = -1;
		return 0;
	}
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		if (strcmp(s, tlc_phase_name((tlc_phase)p)) == 0) {
			*out = p;
			return 0;
		}
	return -1;
}

/* 1 when argv[*i] was a ceiling option (consumed), 0 when not, or minus
 * the exit code after printing the error. */
int ra_ceil_option(cli_ctx *ctx, int *i, ra_ceil *rc)
{
	const char *v;
	if ((v = ra_value(ctx, i, "--device")))
		return *v ? (rc->c.device = v, 1) : -cli_usage_error(ctx, "--device needs a NAME");
	if ((v = ra_value(ctx, i, "--dtype")))
		return *v ? (rc->c.dtype = v, 1) : -cli_usage_error(ctx, "--dtype needs a dtype");
	if ((v = ra_value(ctx, i, "--peak-flops")))
		return ra_number(&rc->c.peak_flops, v) == 0 ? 1
		       : -cli_usage_error(ctx, "--peak-flops needs a number (FLOP/s), got '%s'", v);
	if ((v = ra_value(ctx, i, "--peak-bw")))
		return ra_number(&rc->c.peak_bw, v) == 0 ? 1
		       : -cli_usage_error(ctx, "--peak-bw needs a number (bytes/s), got '%s'", v);
	if ((v = ra_value(ctx, i, "--basis")))
		return tlc_basis_parse(&rc->c.basis, v) == 0 ? 1 : -cli_fail(ctx);
	if ((v = ra_value(ctx, i, "--devices"))) {
		if (!*v)
			return -cli_usage_error(ctx, "--devices needs a FILE");
		if (!rc->devs && tlc_devices_new(&rc->devs) < 0)
			return -cli_fail(ctx);
		rc->c.devices = rc->devs;
		return tlc_devices_load(rc->devs, v) == 0 ? 1 : -cli_fail(ctx);
	}
	return 0;
}

/* Validates a --dtype early so the error names the option. */
int ra_ceil_check(cli_ctx *ctx, const ra_ceil *rc)
{
	tlc_peak_dtype d;
	if (rc->c.dtype && tlc_peak_dtype_parse(&d, rc->c.dtype) < 0)
		return cli_fail(ctx);
	return 0;
}

int ra_cache_bytes(int64_t *out, cli_ctx *ctx, const char *v)
{
	size_t n;
	if (ra_size(&n, v) < 0)
		return cli_usage_error(ctx, "--cache-bytes needs a byte count, got '%s'", v);
	*out = n == 0 ? -1 : (int64_t)n;
	return 0;
}

int ra_positional(cli_ctx *ctx, int i, const char **file)
{
	if (ctx->argv[i][0] == '-' && ctx->argv[i][1])
		return cli_usage_error(ctx, "unknown option %s", ctx->argv[i]);
	if (*file)
		return cli_usage_error(ctx, "give one FILE");
	*file = ctx->argv[i];
	return 0;
}

int ra_parse_args(cli_ctx *ctx, ra_parse_fn one, void *args, void (*help)(FILE *),
                  const char *const *file, const ra_ceil *rc)
{
	for (int i = 0; i < ctx->argc; i++) {
		if (cli_is_help(ctx->argv[i])) {
			help(stdout);
			return -1;
		}
		int r = one(ctx, &i, args);
		if (r != 0)
			return r;
	}
	if (!*file)
		return cli_usage_error(ctx, "give one FILE");
	return rc ? ra_ceil_check(ctx, rc) : 0;
}
