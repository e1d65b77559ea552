/*
 * libtlcost annotated traces (`tlcost annotate`, docs/annotate.md): a
 * PyTorch profiler (Kineto) Chrome trace copied byte for byte, with each op
 * event's analytic cost added to its args (keys "tlcost.*") and counter
 * tracks ("ph":"C") of its cumulative analytic FLOPs and bytes per process,
 * so that Perfetto or chrome://tracing shows them with no plugin.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_ANNOTATE_H
#define TLCOST_ANNOTATE_H

#include <stdint.h>

#include "engine.h"
#include "input.h"

struct tlc_ceilings;

#ifdef __cplusplus
extern "C" {
#endif

/** Options of tlc_annotate_trace; set size (TLC_ANNOTATE_OPTIONS_INIT). */
typedef struct tlc_annotate_options {
	uint32_t size;                  /* sizeof(tlc_annotate_options) of the caller's build */
	int gzip;                       /* 1 gzip output, 0 plain, -1 (default) when the
	                                   output path ends in ".gz" */
	const tlc_input_limits *limits; /* bounds on the input (NULL: the defaults) */
	const char *tmpdir;             /* where an input that cannot be read twice (a pipe,
	                                   standard input) is buffered; NULL: $TMPDIR or /tmp */
	/* Appended after release 4.2.0 (issue 28 item 3). The ceilings (a device preset,
	 * user peaks) against which each op's attributed kernel utilization is
	 * written (tlcost.util.*, docs/annotate.md, "Utilization"), from the
	 * per-row model of tlc_profile_build_util over the trace's device-time
	 * join; NULL: no utilization keys. Under a join that did not pass its
	 * gate no keys are written either (summary.utilization_refused). */
	const struct tlc_ceilings *ceilings;
} tlc_annotate_options;

#define TLC_ANNOTATE_OPTIONS_INIT { sizeof(tlc_annotate_options), -1, NULL, NULL, NULL }

/** What tlc_annotate_trace did; the caller sets size (TLC_ANNOTATE_SUMMARY_INIT). */
typedef struct tlc_annotate_summary {
	uint32_t size;            /* sizeof(tlc_annotate_summary) of the caller's build */
	uint64_t events;          /* event objects of the trace, all copied */
	uint64_t ops;             /* op rows whose events received tlcost.* args */
	uint64_t known;           /* of them: a known cost (known, zero by rule) */
	uint64_t unknown;         /* of them: an unknown cost (tlcost.unknown says why) */
	uint64_t not_applicable;  /* of them: no cost of their own (nested, wrappers) */
	uint64_t args_not_object; /* op events whose "args" is not an object: left as
	                             they are (nothing can be added without changing it) */
	uint64_t counters;        /* counter events added */
	uint64_t buffered_bytes;  /* bytes of an input buffered to a temporary file
	                             (it was not a file that can be read twice); 0 when not */
	int lower_bound;          /* the trace's totals are a lower bound */
	int gzip;                 /* the output was written gzip-compressed */
	/* Appended after release 4.2.0 (issue 28 item 3), with options.ceilings only. */
	uint64_t utilization;     /* op events that received tlcost.util.* keys */
	int utilization_refused;  /* ceilings given, but the join did not pass its gate
	                             (kernel_utilization_requires_device_join) or the
	                             trace has no device records: no keys written */
} tlc_annotate_summary;

#define TLC_ANNOTATE_SUMMARY_INIT { sizeof(tlc_annotate_summary), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/** Evaluates the trace at input (plain or gzip; "-" is standard input) with
 *  eng, then writes output: the input's bytes with the cost of every op
 *  event spliced into its args and counter events appended to its event
 *  array. Written whole or not at all (tlc_outfile_*). An input that is not
 *  a regular file is first copied to a temporary file (summary says so),
 *  since it is read twice. out may be NULL; opts may be NULL.
 *  With opts->ceilings, the device-time join runs and each op whose row
 *  has attributed kernel utilization (tlc_profile_build_util, by op) gets
 *  tlcost.util.* keys; the ceilings' own errors (roofline_device_missing,
 *  ...) are returned, a join that fails its gate is not an error
 *  (summary.utilization_refused).
 *  Errors: those of tlc_input_read_limited; annotate_not_trace (an op log
 *  or other non-trace input); annotate_input_changed (the input read the
 *  second time is not the one evaluated); io_error (reading, buffering);
 *  output_open_failed, output_write_failed; invalid_argument; out_of_memory. */
int tlc_annotate_trace(tlc_annotate_summary *out, tlc_engine *eng, const char *input,
                       const char *output, const tlc_annotate_options *opts);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_ANNOTATE_H */
