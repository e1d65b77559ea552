/* Argument helpers shared by the report subcommands (tree, profile,
 * roofline, devices, mfu, report); cli/report_args.c. */
#ifndef TLC_CLI_REPORT_ARGS_H
#define TLC_CLI_REPORT_ARGS_H

#include <stdint.h>
#include <stdio.h>
#include "cli.h"

/* --opt VALUE or --opt=VALUE at argv[*i]: the value, "" when it is
 * missing, or NULL when argv[*i] is another option. */
const char *ra_value(const cli_ctx *ctx, int *i, const char *opt);
/* A number with an optional SI suffix (k, M, G, T, P, E): "989.5T". */
int ra_number(double *out, const char *s);
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

/* 1 when argv[*i] was a ceiling option (consumed), 0 when not, or minus
 * the exit code after printing the error. */
int ra_ceil_option(cli_ctx *ctx, int *i, ra_ceil *rc);
/* Validates a --dtype early so the error names the option. */
int ra_ceil_check(cli_ctx *ctx, const ra_ceil *rc);
/* --cache-bytes N (0 = exclude nothing, stored as -1). 0 or exit code. */
int ra_cache_bytes(int64_t *out, cli_ctx *ctx, const char *v);
/* argv[i] is no known option: the one FILE, or a usage error. */
int ra_positional(cli_ctx *ctx, int i, const char **file);

/* Handles one argument at argv[*i] (advancing *i past a value): 0 or an
 * exit code. */
typedef int (*ra_parse_fn)(cli_ctx *ctx, int *i, void *args);
/* Runs one over every argument: -1 after printing --help; otherwise 0 or an
 * exit code, requiring one FILE and checking the ceilings (rc may be NULL). */
int ra_parse_args(cli_ctx *ctx, ra_parse_fn one, void *args, void (*help)(FILE *),
                  const char *const *file, const ra_ceil *rc);

#endif
