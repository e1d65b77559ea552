/* Argument helpers shared by the report subcommands (tree, profile,
 * roofline, devices, mfu, report). Header-only (static inline) because the
 * tlcost source list belongs to cli/local.mk. */
#ifndef TLC_CLI_REPORT_ARGS_H
#define TLC_CLI_REPORT_ARGS_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* --opt VALUE or --opt=VALUE at argv[*i]: the value, "" when it is
 * missing, or NULL when argv[*i] is another option. */
static inline const char *ra_value(const cli_ctx *ctx, int *i, const char *opt)
{
	const char *a = ctx->argv[*i];
	size_t n = strlen(opt);
	if (strncmp(a, opt, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != '\0')
		return NULL;
	if (*i + 1 >= ctx->argc)
		return "";
	return ctx->argv[++*i];
}

/* A number with an optional SI suffix (k, M, G, T, P, E): "989.5T". */
static inline int ra_number(double *out, const char *s)
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

static inline int ra_size(size_t *out, const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-')
		return -1;
	*out = (size_t)v;
	return 0;
}

static inline int ra_int64(int64_t *out, const char *s)
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
static inline int ra_phase(int *out, const char *s, int allow_all)
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

/* Ceiling options shared by roofline, mfu and report. */
typedef struct ra_ceil {
	tlc_devices *devs;
	tlc_ceilings c;
} ra_ceil;

#define RA_CEIL_HELP \
	"ceilings (first that applies): --peak-flops F --peak-bw B [--basis advertised|\n" \
	"  measured_achievable] (FLOP/s and bytes/s; suffixes k M G T P allowed), or\n" \
	"  --device NAME (a preset id/name, see `tlcost devices`), or the device named in\n" \
	"  the input's header (matched to a preset; the report says which).\n" \
	"  --devices FILE   add devices from a file (docs/devices.md)\n" \
	"  --dtype D        compare every op with the D peak (fp64 fp32 tf32 fp16 bf16\n" \
	"                   fp8); default: each op's own dtype\n"

/* 1 when argv[*i] was a ceiling option (consumed), 0 when not, or minus
 * the exit code after printing the error. */
static inline int ra_ceil_option(cli_ctx *ctx, int *i, ra_ceil *rc)
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
static inline int ra_ceil_check(cli_ctx *ctx, const ra_ceil *rc)
{
	tlc_peak_dtype d;
	if (rc->c.dtype && tlc_peak_dtype_parse(&d, rc->c.dtype) < 0)
		return cli_fail(ctx);
	return 0;
}

#endif
