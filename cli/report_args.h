/* Argument helpers shared by the report subcommands (tree, profile,
 * roofline, devices, mfu, report); cli/report_args.c. */
#ifndef TLC_CLI_REPORT_ARGS_H
#define TLC_CLI_REPORT_ARGS_H

#include <stdint.h>
#include <stdio.h>
#include "cli.h"

/* Strict numeric option values (0, or -1 for anything else): decimal
 * only, never nan, inf, hex, a sign or a blank where none belongs.
 * ra_number: a finite number > 0 with an optional SI suffix (k, M, G, T,
 * P, E): "989.5T". ra_decimal: a finite decimal number, no suffix.
 * ra_size: decimal digits that fit a size_t. ra_int64: an optional '-'
 * and decimal digits that fit an int64_t. */
int ra_number(double *out, const char *s);
int ra_decimal(double *out, const char *s);
int ra_size(size_t *out, const char *s);
int ra_int64(int64_t *out, const char *s);
/* Phase name, or "all" (-1) when allow_all. */
int ra_phase(int *out, const char *s, int allow_all);

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

/* Ids of the ceiling options (ra_ceil_opts); a subcommand's own ids stay
 * below RA_CEIL_ID. */
enum { RA_CEIL_ID = 1000, RA_DEVICE, RA_DTYPE, RA_PEAK_FLOPS, RA_PEAK_BW, RA_BASIS, RA_DEVICES };
extern const cli_opt ra_ceil_opts[];

/* One ceiling option (an id above RA_CEIL_ID from ra_ceil_opts), for a
 * subcommand that parses its own positional arguments. 0 or exit code. */
int ra_ceil_arg(cli_ctx *ctx, int id, const char *v, ra_ceil *rc);

/* --cache-bytes N (0 = exclude nothing, stored as -1). 0 or exit code. */
int ra_cache_bytes(int64_t *out, cli_ctx *ctx, const char *v);

/* The one FILE of a report subcommand (a second is a usage error). */
int ra_file(cli_ctx *ctx, const char **file, const char *arg);

/* Parses every argument with cli_parse: options of opts (and the ceiling
 * options when rc is not NULL) go to on, the one FILE to *file. Returns -1
 * after printing --help; otherwise 0 or an exit code, requiring the FILE
 * and checking the ceilings. */
int ra_parse_args(cli_ctx *ctx, const cli_opt *opts, cli_on_arg on, void *args,
                  void (*help)(FILE *), const char **file, ra_ceil *rc);

#endif
