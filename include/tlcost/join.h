/*
 * libtlcost device-time join (contract section 8) and saved joins (docs/join.md).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_JOIN_H
#define TLCOST_JOIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "eval.h"
#include "input.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Attributes device activity (kernels, copies, sets) to the op rows of a
 * finished evaluation made with keep_ops (contract section 8). Correlation
 * path: launch -> runtime call with the same correlation -> op whose
 * correlation equals the call's external id. When the external ids are
 * unusable (they match no op), the fallback is containment: the innermost op
 * on the runtime call's host thread whose [start_ns, end_ns] holds the call's
 * start. Never by name. See docs/join.md. */

typedef struct tlc_join tlc_join;

typedef enum tlc_join_path {
	TLC_JOIN_PATH_NONE = 0,    /* nothing could be joined (see path_reason) */
	TLC_JOIN_PATH_CORRELATION,
	TLC_JOIN_PATH_CONTAINMENT
} tlc_join_path;

typedef enum tlc_join_state {
	TLC_JOIN_UNAVAILABLE = 0, /* no device records at all: no profiler ran */
	TLC_JOIN_EMPTY,           /* runtime calls but no device activity */
	TLC_JOIN_PARTIAL,         /* the source dropped records: counts are lower bounds */
	TLC_JOIN_JOINED
} tlc_join_state;

const char *tlc_join_path_name(tlc_join_path p);
const char *tlc_join_state_name(tlc_join_state s);

/* tlc_join_options.flags */
#define TLC_JOIN_FORCE_CORRELATION (1u << 0) /* do not fall back to containment */
#define TLC_JOIN_FORCE_CONTAINMENT (1u << 1) /* skip the correlation path */
#define TLC_JOIN_INPUT_PARTIAL     (1u << 2) /* the source says records were dropped */

typedef struct tlc_join_options {
	uint32_t size;          /* sizeof(tlc_join_options) */
	unsigned flags;         /* TLC_JOIN_* */
	uint32_t gate_permille; /* gate threshold, 0 = 950 (95.0%) */
} tlc_join_options;
/** The size set, every other field its default (gate 95.0%). */
#define TLC_JOIN_OPTIONS_INIT { sizeof(tlc_join_options), 0, 0 }

/** Totals of one join. Times are integer nanoseconds (sums of durations,
 *  except busy_ns which is the union of intervals per device, summed). */
typedef struct tlc_join_summary {
	tlc_join_state state;
	tlc_join_path path;
	const char *path_reason;    /* why this path, one sentence */
	uint64_t launches;          /* kernel + memcpy + memset records */
	uint64_t kernels;
	uint64_t launches_attributed, launches_ambiguous, launches_unattributed;
	uint64_t kernels_attributed, kernels_ambiguous, kernels_unattributed;
	int64_t device_ns;          /* all launches */
	int64_t busy_ns;            /* union per device, summed over devices */
	int64_t kernel_ns;
	int64_t kernel_attributed_ns, kernel_ambiguous_ns, kernel_unattributed_ns;
	int64_t kernel_internal_ns; /* the capture's own bookkeeping */
	uint64_t ambiguous_groups;
	/* evidence behind the path choice: runtime/driver calls that own launches */
	uint64_t launch_calls, launch_calls_with_external, launch_calls_external_self,
	         launch_calls_external_matched;
	uint32_t gate_permille;
	int gate_passed;            /* forward and backward shares both >= gate */
	/* the device profiler's own statement (tlc_eval_profiler_status):
	 * UNKNOWN when the input made none */
	tlc_profiler_state profiler_state;
	const char *profiler_source;  /* e.g. "cupti", or NULL */
	const char *profiler_message; /* its error text ("failed_call: message"), or NULL */
} tlc_join_summary;

/** Kernel time of one phase, for the gate. Kernels whose phase is unknown
 *  (unattributed, or ambiguous across phases) count against every phase. */
typedef struct tlc_join_phase {
	tlc_phase phase;
	int present;               /* some kernel time belongs to this phase */
	int64_t attributed_ns;
	int64_t ambiguous_ns;      /* ambiguous groups wholly inside this phase */
	int64_t unphased_ns;       /* unattributed/cross-phase kernel time */
	int64_t total_ns;          /* attributed + ambiguous + unphased */
	uint32_t share_permille;   /* floor(1000 * attributed / total) */
	int gated;                 /* forward and backward are gated */
	int passed;                /* share >= gate, or not present */
} tlc_join_phase;

typedef struct tlc_join_device {
	int64_t device;
	uint64_t launches;
	int64_t busy_ns;           /* union of intervals */
	int64_t device_ns;         /* sum of durations */
	int64_t kernel_ns;
	int64_t attributed_ns, ambiguous_ns, unattributed_ns, internal_ns; /* all launch kinds */
} tlc_join_device;

/** An unattributed launch name with how often and how long. */
typedef struct tlc_join_remainder {
	const char *name;
	uint64_t count;
	int64_t time_ns;
} tlc_join_remainder;

/** One launch (kernel, memcpy or memset), as tlc_join_launch_get fills it
 *  (the join stores launches compactly). Records are indices into the
 *  eval's device records (tlc_eval_device_get). */
typedef struct tlc_join_launch {
	uint32_t size;                /* sizeof(tlc_join_launch) of the caller's build */
	size_t rec;                   /* the launch's device record index */
	int64_t runtime;              /* the runtime/driver call's record index, or -1 */
	tlc_attribution status;       /* ATTRIBUTED, AMBIGUOUS or UNATTRIBUTED */
	int64_t op_row;               /* row index when attributed, else -1 */
	int64_t group;                /* ambiguous group id, else -1 */
	const char *why;              /* for unattributed: the cause (static text) */
} tlc_join_launch;

#define TLC_JOIN_LAUNCH_INIT { sizeof(tlc_join_launch), 0, -1, TLC_ATTR_NONE, -1, -1, NULL }

typedef struct tlc_join_group {
	int64_t id;
	size_t nrows;
	const size_t *rows;           /* op row indices */
	uint64_t launches;
	int64_t time_ns;
} tlc_join_group;

/** Runs the join on a finished eval with kept ops, filling every row's
 *  device_time_ns, kernel_time_ns and attribution as tlc_eval_op_get reads
 *  them (row_flags gets TLC_ROW_HAS_DEVICE_TIME unless the state is
 *  unavailable). The eval must outlive the join. opts may be NULL.
 *  Errors: join_requires_op_rows (eval without keep_ops),
 *  eval_not_finished, invalid_argument, out_of_memory. Free with
 *  tlc_join_free. */
int tlc_join_run(tlc_join **out, tlc_eval *ev, const tlc_join_options *opts);
void tlc_join_free(tlc_join *j);

const tlc_join_summary *tlc_join_get_summary(const tlc_join *j);
/* Deprecated spelling of 0.1.0, kept so older sources compile. */
#define tlc_join_summary_get tlc_join_get_summary
/** Phases in tlc_phase order (TLC_PHASE_COUNT entries). */
const tlc_join_phase *tlc_join_phase_at(const tlc_join *j, tlc_phase p);
size_t tlc_join_device_count(const tlc_join *j);
const tlc_join_device *tlc_join_device_at(const tlc_join *j, size_t i);
/** Remainder, by time descending then name. */
size_t tlc_join_remainder_count(const tlc_join *j);
const tlc_join_remainder *tlc_join_remainder_at(const tlc_join *j, size_t i);
/** Launches in the eval's device-record order. */
size_t tlc_join_launch_count(const tlc_join *j);
/** Fills *out with launch i: the fields that out->size covers (set it:
 *  TLC_JOIN_LAUNCH_INIT), out->size left as it was. Replaces 0.x's
 *  tlc_join_launch_at (docs/ABI.md). TLC_EINVAL (invalid_argument) when j
 *  or out is NULL, out->size is smaller than the first layout, or i >=
 *  tlc_join_launch_count. */
int tlc_join_launch_get(const tlc_join *j, size_t i, tlc_join_launch *out);
size_t tlc_join_group_count(const tlc_join *j);
const tlc_join_group *tlc_join_group_at(const tlc_join *j, size_t i);

/** Device and kernel time of row i rolled up to the op that is counted for
 *  it (the nearest ancestor-or-self whose class is known or zero_by_rule).
 *  *counted is that row's index, or -1 when no counted op encloses it.
 *  Per-row times (tlc_op_row) stay with the innermost launching op. */
int tlc_join_rollup(int64_t *counted, const tlc_join *j, size_t row);
/** Rolled-up kernel time of a counted row (0 for rows nothing rolls into). */
int64_t tlc_join_counted_kernel_ns(const tlc_join *j, size_t row);

/** 0 when per-op device time exists; otherwise TLC_EREFUSED with code
 *  device_time_unavailable (j NULL: no join ran; or state unavailable). */
int tlc_join_require_device_time(const tlc_join *j);

/** Attributed kernel utilization: fma=2 FLOPs of counted ops that own kernel
 *  time / (their rolled-up kernel seconds x peak_flops). Refused
 *  (TLC_EREFUSED, kernel_utilization_requires_device_join) unless the join
 *  passed the gate. Never call it MFU. */
int tlc_join_kernel_utilization(double *out, const tlc_join *j, const tlc_eval *ev,
                                double peak_flops);

/* ---- saved joins (docs/join.md, "Saved joins") ---- */

/** Records every op of an evaluation as an op log v1 line while it is read:
 *  pass tlc_op_recorder_on_op as tlc_eval_options.on_op with the recorder
 *  as payload. Free with tlc_op_recorder_free. */
typedef struct tlc_op_recorder tlc_op_recorder;
int tlc_op_recorder_new(tlc_op_recorder **out);
void tlc_op_recorder_free(tlc_op_recorder *rec);
void tlc_op_recorder_on_op(const tlc_op *op, const tlc_op_row *row, void *payload);

/** Writes the joined result as an op log v1: a header whose meta holds the
 *  attribution and gate verdict ("tlcost_saved_join"), the recorded op
 *  records, then every device and runtime record of ev. Reading it back and
 *  joining re-derives everything from the records; see
 *  tlc_join_verify_saved. Errors: saved_join_incomplete (the recorder lost
 *  an op), io_error. */
int tlc_join_save(FILE *out, const tlc_join *j, const tlc_eval *ev, const tlc_op_recorder *rec);

/** For an input read from a saved join: checks that the stored attribution
 *  and gate verdict are exactly what j re-derived from the file's own
 *  records. *is_saved is 1 when ev's header carries a saved join. Returns 0
 *  (agrees, or not a saved join) or TLC_EINPUT with code saved_join_mismatch
 *  naming the first field that disagrees (any added, removed or altered
 *  field of the saved-join object counts). */
int tlc_join_verify_saved(int *is_saved, const tlc_join *j, const tlc_eval *ev);

/** Writes the join: text (summary, path and why, per-device, per-phase gate,
 *  remainder), json (all of it plus launches and groups) or csv (one row per
 *  launch). */
int tlc_write_join(FILE *out, const tlc_join *j, const tlc_eval *ev, tlc_format fmt);
#define tlc_join_write tlc_write_join /* module-first spelling (docs/api.md, "Names") */

/* ---- join: launches whose correlation owner lies outside their call ---- */
/** On the correlation path: how many attributed launches name an op whose
 *  host interval does not hold the launching runtime call on its thread
 *  (External ids that coincide with op ids by accident; `--force-correlation`
 *  warns with this count). *checked (may be NULL) gets how many attributed
 *  launches had host intervals on both sides. 0 on other paths. */
uint64_t tlc_join_correlation_outside(const tlc_join *j, uint64_t *checked);

/** tlc_join_save into path through a tlc_outfile: a failed or killed save
 *  leaves an existing file intact. Errors: those of tlc_join_save and
 *  tlc_outfile_open/commit. */
int tlc_join_save_file(const char *path, const tlc_join *j, const tlc_eval *ev,
                       const tlc_op_recorder *rec);

/* ---- join: the gate over ops, not wrappers; device time with a known cost ---- */

/** Kernel time that landed on a row that is not an op (a structural row: a
 *  compiled-region or graph wrapper, an autograd or module boundary, a
 *  profiler range) with no op between it and the launch. The launch stays
 *  attributed to that row (its device_time), but the gate does not count it
 *  as attributed (docs/cost-contract.md, "Not an op"). One entry per
 *  wrapper row name (name.overload, as reports show it) and phase. */
typedef struct tlc_join_wrapper {
	const char *name;          /* borrowed from the eval */
	tlc_phase phase;           /* the wrapper row's phase */
	uint64_t kernels;
	uint64_t graph_replays;    /* of them, replayed from a graph launch */
	int64_t time_ns;
} tlc_join_wrapper;

/** Wrappers by time descending, then name. */
size_t tlc_join_wrapper_count(const tlc_join *j);
const tlc_join_wrapper *tlc_join_wrapper_at(const tlc_join *j, size_t i);

/** What the gate counts beside tlc_join_summary and tlc_join_phase (which
 *  keep their layout): a phase's total_ns is attributed + ambiguous +
 *  unphased + on_wrapper + annotated. */
typedef struct tlc_join_detail {
	uint32_t size;                 /* sizeof(tlc_join_detail) of the caller's build */
	uint64_t kernels_on_wrapper;   /* attributed to a row that is not an op */
	int64_t kernel_on_wrapper_ns;
	/* kernel time whose costed row (the op on the launching path whose rule
	 * carries the cost under the nesting policy: the launching op or its
	 * evaluated ancestor; for an ambiguous group, every op's) has a known
	 * cost (class known or zero_by_rule): the share of device time that
	 * FLOPs and bytes can be put beside */
	int64_t kernel_known_cost_ns;
	int64_t phase_on_wrapper_ns[TLC_PHASE_COUNT];
	/* unattributed kernel time whose runtime call lies inside an annotation
	 * of the phase (an Optimizer.step# range): that phase's, not unphased */
	int64_t phase_annotated_ns[TLC_PHASE_COUNT];
} tlc_join_detail;

#define TLC_JOIN_DETAIL_INIT { sizeof(tlc_join_detail), 0, 0, 0, { 0 }, { 0 } }

/** Fills *out (the fields out->size covers). TLC_EINVAL (invalid_argument)
 *  when j or out is NULL or out->size is below the first layout. */
int tlc_join_detail_get(const tlc_join *j, tlc_join_detail *out);

/* ---- join: achieved collective bandwidth in the join report ---- */
struct tlc_link_preset;
/** tlc_write_join, with the link ceiling that the communication section
 *  compares each collective kind's achieved bus bandwidth with
 *  (tlc_link_find, tlc_link_for_device in <tlcost/comm.h>; borrowed;
 *  NULL: none, as tlc_write_join does). Errors: those of tlc_write_join. */
int tlc_write_join_with_link(FILE *out, const tlc_join *j, const tlc_eval *ev, tlc_format fmt,
                             const struct tlc_link_preset *link);
#define tlc_join_write_with_link tlc_write_join_with_link /* module-first spelling (docs/api.md, "Names") */

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_JOIN_H */
