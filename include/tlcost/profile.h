/*
 * libtlcost profile tables.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/headers.sh).
 */
#ifndef TLCOST_PROFILE_H
#define TLCOST_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reports read a finished evaluation made with keep_ops set; without kept
 * rows they refuse with reports_need_ops. Objects they return own their
 * strings; free them with the matching *_free. docs/reports.md has the
 * text, JSON and CSV layouts. */

typedef enum tlc_profile_by {
	TLC_PROFILE_BY_OP = 0,
	TLC_PROFILE_BY_TYPE,
	TLC_PROFILE_BY_MODULE
} tlc_profile_by;

typedef enum tlc_profile_sort {
	TLC_SORT_FLOPS = 0,
	TLC_SORT_BYTES,
	TLC_SORT_INTENSITY,
	TLC_SORT_TIME,   /* instrumented host time */
	TLC_SORT_COUNT
} tlc_profile_sort;

typedef struct tlc_profile_options {
	uint32_t size;  /* sizeof(tlc_profile_options) */
	tlc_profile_by by;
	tlc_profile_sort sort;
	size_t top;     /* 0 = all rows */
	int phase;      /* -1 = all phases; else a tlc_phase */
} tlc_profile_options;
/** The size set, every other field its default (as zeroed options: by op, forward phase, all rows). */
#define TLC_PROFILE_OPTIONS_INIT { sizeof(tlc_profile_options), TLC_PROFILE_BY_OP, TLC_SORT_FLOPS, 0, 0 }

/** One table row. Unknown is never zero: flops counts only counted ops and
 *  `unknown` says how many of the row's ops have no cost; bytes is NULL
 *  when some element size was unknown. */
typedef struct tlc_profile_row {
	const char *key;           /* op name, op type or module path */
	const tlc_op_row *op;      /* TLC_PROFILE_BY_OP only */
	uint64_t count, unknown;
	const char *flops;         /* exact decimal of the counted ops; NULL when every
	                              op of the row is unknown */
	const char *bytes;         /* exact decimal, or NULL when unknown */
	double intensity;          /* FLOPs / bytes; < 0 when undefined */
	int has_time;              /* time (instrumented) present */
	int64_t time_ns;
	int has_device_time;       /* from a device-time join only */
	int64_t device_time_ns, kernel_time_ns;
} tlc_profile_row;

typedef struct tlc_profile tlc_profile;
int tlc_profile_build(tlc_profile **out, const tlc_eval *ev, const tlc_profile_options *opts);
void tlc_profile_free(tlc_profile *prof);
/** Rows shown (after top); tlc_profile_hidden_rows says how many were cut. */
size_t tlc_profile_row_count(const tlc_profile *prof);
const tlc_profile_row *tlc_profile_row_at(const tlc_profile *prof, size_t i);
size_t tlc_profile_hidden_rows(const tlc_profile *prof);
int tlc_write_profile(FILE *out, const tlc_profile *prof, tlc_format fmt);
#define tlc_profile_write tlc_write_profile /* module-first spelling (docs/api.md, "Names") */

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_PROFILE_H */
