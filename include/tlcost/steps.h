/*
 * libtlcost "where the step went" report (`tlcost steps`, contract section
 * 10, "Step buckets"; docs/reports.md, "tlcost steps").
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_STEPS_H
#define TLCOST_STEPS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "eval.h"
#include "join.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The buckets of one step's wall time on one device, in this order; they
 *  add up exactly (integer ns) to the wall time. The compute families
 *  split the compute kernel time (the union of non-NCCL/RCCL kernels); at
 *  an instant where kernels of several families run, the first family in
 *  this order takes the instant. */
typedef enum tlc_steps_bucket {
	TLC_STEPS_GEMM = 0,
	TLC_STEPS_ATTENTION,
	TLC_STEPS_CONVOLUTION,
	TLC_STEPS_NORMALISATION,
	TLC_STEPS_ELEMENTWISE,
	TLC_STEPS_REDUCTION,
	TLC_STEPS_OTHER_COMPUTE,
	TLC_STEPS_EXPOSED_COMM,     /* NCCL/RCCL kernel time no compute kernel overlaps */
	TLC_STEPS_EXPOSED_COPY,     /* memcpy/memset time no kernel overlaps */
	TLC_STEPS_IDLE_QUEUED,      /* idle while a launch is pending (call made, work not started) */
	TLC_STEPS_IDLE_HOST_BOUND,  /* idle with nothing queued: the host did not launch */
	TLC_STEPS_BUCKET_COUNT
} tlc_steps_bucket;

/** The bucket's stable name ("gemm", "exposed_communication", ...), as the
 *  JSON and CSV write it; NULL out of range. */
const char *tlc_steps_bucket_name(tlc_steps_bucket b);

typedef struct tlc_steps tlc_steps;

/** One step on one device. Grows only at the end. */
typedef struct tlc_steps_row {
	uint32_t size;          /* sizeof(tlc_steps_row) of the caller's build */
	int64_t step;           /* N of ProfilerStep#N; -1 for the device span (no markers) */
	int64_t device;
	int64_t start_ns, end_ns, wall_ns;
	int64_t residual_ns;    /* wall minus the buckets' sum: 0 (the contract) */
	int64_t buckets[TLC_STEPS_BUCKET_COUNT];
} tlc_steps_row;

/** The size set, every other field 0. */
#define TLC_STEPS_ROW_INIT { sizeof(tlc_steps_row), 0, 0, 0, 0, 0, 0, { 0 } }

/** Builds the step buckets of a finished evaluation (keep_ops) and its
 *  device-time join j: one row per (ProfilerStep#N, device with device
 *  records), or, where the input has no step markers, one row per device
 *  whose window is that device's span (first work start to last work
 *  end). Bucket times need no passed gate: only the compute families use
 *  the attribution (an attributed kernel takes its costed op's family).
 *  TLC_EINVAL (NULL argument), reports_need_ops, TLC_ENOTFOUND with
 *  steps_no_device_records when the input has no kernel, memcpy or memset
 *  record, TLC_ENOMEM. Free with tlc_steps_free. */
int tlc_steps_build(tlc_steps **out, const tlc_eval *ev, const tlc_join *j);
void tlc_steps_free(tlc_steps *s);

/** Rows, step-major then device. */
size_t tlc_steps_count(const tlc_steps *s);
/** Fills the fields of row i that out->size covers. TLC_EINVAL when s or
 *  out is NULL, out->size is too small or i is out of range. */
int tlc_steps_get(tlc_steps_row *out, const tlc_steps *s, size_t i);
/** 1 when the windows are ProfilerStep#N spans, 0 when each is a device's
 *  span (the input has no step markers). */
int tlc_steps_marked(const tlc_steps *s);

/** Writes the report: text, JSON (schema tlcost.steps/1) or CSV
 *  (docs/reports.md). TLC_EIO when writing fails. */
int tlc_write_steps(FILE *out, const tlc_steps *s, tlc_format fmt);

#ifdef __cplusplus
}
#endif

#endif
