/*
 * libtlcost device presets and ceilings used by the roofline and MFU reports.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_DEVICES_H
#define TLCOST_DEVICES_H

#include <stddef.h>
#include <stdio.h>

#include "common.h"
#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Precisions a peak is quoted for (dense, no structured sparsity). */
typedef enum tlc_peak_dtype {
	TLC_PEAK_FP64 = 0,
	TLC_PEAK_FP32,
	TLC_PEAK_TF32,
	TLC_PEAK_FP16,
	TLC_PEAK_BF16,
	TLC_PEAK_FP8,
	TLC_PEAK_COUNT
} tlc_peak_dtype;

/** Fixed capacity of peak arrays (TLC_PEAK_COUNT <= it), so a new
 *  precision does not move the fields after them. */
#define TLC_PEAK_SLOTS 16

/** "fp64", "fp32", "tf32", "fp16", "bf16", "fp8". */
const char *tlc_peak_dtype_name(tlc_peak_dtype d);
/** Parses a peak dtype name (also accepts float32, bfloat16, ...).
 *  TLC_EINVAL (dtype_unknown) otherwise. */
int tlc_peak_dtype_parse(tlc_peak_dtype *out, const char *name);
/** The peak an op of element type d is compared with (float32 -> fp32,
 *  float8_* -> fp8, ...). TLC_ENOTFOUND for integer/bool/unknown types. */
int tlc_peak_dtype_of(tlc_peak_dtype *out, tlc_dtype d);

/** Where ceilings come from: the vendor's advertised peaks, or peaks
 *  measured as achievable (e.g. by a microbenchmark) by the user. */
typedef enum tlc_basis {
	TLC_BASIS_ADVERTISED = 0,
	TLC_BASIS_MEASURED_ACHIEVABLE
} tlc_basis;

const char *tlc_basis_name(tlc_basis b);
/** TLC_EINVAL (basis_unknown) for anything but the two names. */
int tlc_basis_parse(tlc_basis *out, const char *name);

/** One device's ceilings. peak_flops[d] is dense FLOP/s, 0 = not offered. */
typedef struct tlc_device_preset {
	const char *id;      /* "h100-sxm" */
	const char *name;    /* "NVIDIA H100 SXM5 80GB" */
	const char *match;   /* device-name patterns: '|'-separated alternatives,
	                        each a space-separated list of tokens that must
	                        all appear (case-insensitive) */
	double peak_flops[TLC_PEAK_SLOTS]; /* indexed by tlc_peak_dtype */
	double mem_bw;       /* bytes/s */
	tlc_basis basis;
	const char *source;  /* vendor datasheet (or the user's note) */
	const char *date;    /* date of the source, YYYY-MM or YYYY */
	const char *origin;  /* "builtin" or the file it came from */
} tlc_device_preset;

typedef struct tlc_devices tlc_devices;

/** A device table holding the built-in presets. Free with tlc_devices_free. */
int tlc_devices_new(tlc_devices **out);
void tlc_devices_free(tlc_devices *devs);
/** Adds the devices of a user file (docs/devices.md); a device with an
 *  existing id replaces it. Errors carry line and column:
 *  devices_file_invalid; io_error. */
int tlc_devices_load(tlc_devices *devs, const char *path);
size_t tlc_devices_count(const tlc_devices *devs);
const tlc_device_preset *tlc_devices_at(const tlc_devices *devs, size_t i);
/** Finds a device by id, by name, or by matching a device string such as
 *  "NVIDIA H100 80GB HBM3" against the presets' patterns (the most
 *  specific match wins). TLC_ENOTFOUND (device_unknown) otherwise. */
int tlc_devices_find(const tlc_device_preset **out, const tlc_devices *devs,
                     const char *name);
/** Lists the devices with their peaks, bandwidth, source and date. */
int tlc_write_devices(FILE *out, const tlc_devices *devs, tlc_format fmt);
#define tlc_devices_write tlc_write_devices /* module-first spelling (docs/api.md, "Names") */

/** How a report picks its ceilings. Precedence: peak_flops/peak_bw (user
 *  ceilings), then device, then the input's device name. Embedded in
 *  tlc_roofline_options, tlc_mfu_options and tlc_report_options, whose size
 *  field versions it; reserved (zero) keeps room for new fields without
 *  moving the fields after it in those structs. */
typedef struct tlc_ceilings {
	const tlc_devices *devices; /* NULL: built-in presets */
	const char *device;         /* preset id/name/device string, or NULL */
	double peak_flops;          /* > 0: user compute ceiling, every dtype */
	double peak_bw;             /* > 0: user bandwidth, bytes/s */
	tlc_basis basis;            /* basis of user ceilings */
	const char *dtype;          /* NULL: from the ops; else a peak dtype name
	                               ("bf16", "tf32", ...) used for every op */
	void *reserved[4];          /* zero (zeroed options): room to grow */
} tlc_ceilings;
/** The size set, every other field its default (embedded in the roofline, MFU and report options). */
#define TLC_CEILINGS_INIT { NULL, NULL, 0, 0, TLC_BASIS_ADVERTISED, NULL, { NULL, NULL, NULL, NULL } }

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_DEVICES_H */
