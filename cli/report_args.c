/* Argument helpers shared by the report subcommands (tree, profile,
 * roofline, devices, mfu, report). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_args.h"

/* Decimal digits only: no sign, no blank (strtoull would skip blanks and
 * wrap a "-1" to a huge count), nothing after. */
static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* A decimal number at the start of s ("12", "0.5", "1e-3"): not nan, inf,
 * hex or a blank that strtod would take; *end past it. 0 or -1. */
static int decimal_prefix(double *out, const char *s, char **end)
{
	if (!((*s >= '0' && *s <= '9') || *s == '.'))
		return -1;
	errno = 0;
	double v = strtod(s, end);
	if (*end == s || errno)
		return -1;
	for (const char *p = s; p < *end; p++)
		if (*p == 'x' || *p == 'X')
			return -1;
	*out = v;
	return 0;
}

int ra_decimal(double *out, const char *s)
{
	char *end;
	double v;
	if (decimal_prefix(&v, s, &end) < 0 || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* A number with an optional SI suffix (k, M, G, T, P, E): "989.5T". */
int ra_number(double *out, const char *s)
{
	char *end;
	double v;
	if (decimal_prefix(&v, s, &end) < 0)
		return -1;
	static const char suf[] = "kMGTPE";
	const char *p = *end ? strchr(suf, *end) : NULL;
	for (const char *q = suf; p && q <= p; q++)
		v *= 1000.0;
	if (p)
		end++;
	if (*end || !isfinite(v) || v <= 0)
		return -1;
	*out = v;
	return 0;
}

int ra_size(size_t *out, const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = all_digits(s) ? strtoull(s, &end, 10) : 0;
	if (!all_digits(s) || errno || v > SIZE_MAX)
		return -1;
	*out = (size_t)v;
	return 0;
}

int ra_int64(int64_t *out, const char *s)
{
	char *end;
	if (!all_digits(s + (*s == '-')))
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno)
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

const cli_opt ra_ceil_opts[] = {
	{ "--device", 1, RA_DEVICE }, { "--dtype", 1, RA_DTYPE },
	{ "--peak-flops", 1, RA_PEAK_FLOPS }, { "--peak-bw", 1, RA_PEAK_BW },
	{ "--basis", 1, RA_BASIS }, { "--devices", 1, RA_DEVICES }, { NULL, 0, 0 }
};

/* A ceiling option's value into rc; 0 or an exit code. */
static int ceil_option(cli_ctx *ctx, int id, const char *v, ra_ceil *rc)
{
	switch (id) {
	case RA_DEVICE:
		return *v ? (rc->c.device = v, 0) : cli_usage_error(ctx, "--device needs a NAME");
	case RA_DTYPE:
		return *v ? (rc->c.dtype = v, 0) : cli_usage_error(ctx, "--dtype needs a dtype");
	case RA_PEAK_FLOPS:
		return ra_number(&rc->c.peak_flops, v) == 0 ? 0
		       : cli_usage_error(ctx, "--peak-flops needs a finite number > 0 (FLOP/s), "
		                              "got '%s'", v);
	case RA_PEAK_BW:
		return ra_number(&rc->c.peak_bw, v) == 0 ? 0
		       : cli_usage_error(ctx, "--peak-bw needs a finite number > 0 (bytes/s), "
		                              "got '%s'", v);
	case RA_BASIS:
		return tlc_basis_parse(&rc->c.basis, v) == 0 ? 0 : cli_fail_usage(ctx);
	default: /* RA_DEVICES */
		if (!*v)
			return cli_usage_error(ctx, "--devices needs a FILE");
		if (!rc->devs && tlc_devices_new(&rc->devs) < 0)
			return cli_fail(ctx);
		rc->c.devices = rc->devs;
		return tlc_devices_load(rc->devs, v) == 0 ? 0 : cli_fail(ctx);
	}
}

/* Validates a --dtype early so the error names the option. */
static int ceil_check(cli_ctx *ctx, const ra_ceil *rc)
{
	tlc_peak_dtype d;
	if (rc->c.dtype && tlc_peak_dtype_parse(&d, rc->c.dtype) < 0)
		return cli_fail_usage(ctx);
	return 0;
}

int ra_ceil_arg(cli_ctx *ctx, int id, const char *v, ra_ceil *rc)
{
	int r = ceil_option(ctx, id, v, rc);
	return r == 0 && id == RA_DTYPE ? ceil_check(ctx, rc) : r;
}

int ra_cache_bytes(int64_t *out, cli_ctx *ctx, const char *v)
{
	size_t n;
	if (ra_size(&n, v) < 0)
		return cli_usage_error(ctx, "--cache-bytes needs a byte count, got '%s'", v);
	if (n > (size_t)INT64_MAX)
		return cli_usage_error(ctx, "--cache-bytes needs a byte count below 2^63, got '%s'", v);
	*out = n == 0 ? -1 : (int64_t)n;
	return 0;
}

int ra_file(cli_ctx *ctx, const char **file, const char *arg)
{
	if (*file)
		return cli_usage_error(ctx, "give one FILE");
	*file = arg;
	return 0;
}

typedef struct ra_state {
	cli_on_arg on;
	void *args;
	const char **file;
	ra_ceil *rc;
} ra_state;

/* --capture: every report that loads through cli_load pairs a graph replay
 * with its capture (docs/join.md, "Capture pairing"). */
enum { RA_CAPTURE = 2000 };
static const cli_opt ra_capture_opts[] = { { "--capture", 1, RA_CAPTURE }, { NULL, 0, 0 } };

static int ra_on(cli_ctx *ctx, int id, const char *v, void *payload)
{
	ra_state *st = payload;
	if (id == CLI_POS)
		return ra_file(ctx, st->file, v);
	if (id == RA_CAPTURE)
		return cli_add_capture(ctx, v);
	if (id > RA_CEIL_ID)
		return ceil_option(ctx, id, v, st->rc);
	return st->on(ctx, id, v, st->args);
}

int ra_parse_args(cli_ctx *ctx, const cli_opt *opts, cli_on_arg on, void *args,
                  void (*help)(FILE *), const char **file, ra_ceil *rc)
{
	static const cli_opt none[] = { { NULL, 0, 0 } };
	const cli_opt *tables[] = { opts ? opts : none, rc ? ra_ceil_opts : none, ra_capture_opts,
	                            NULL };
	ra_state st = { on, args, file, rc };
	int r = cli_parse(ctx, tables, ra_on, &st, help);
	if (r != 0)
		return r;
	if (!*file)
		return cli_usage_error(ctx, "give one FILE");
	return rc ? ceil_check(ctx, rc) : 0;
}
