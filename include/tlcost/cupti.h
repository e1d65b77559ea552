/*
 * libtlcost-cupti: live device time per op from CUPTI, for capture libraries.
 *
 * A capture library links libtlcost-cupti (and libtlcost). It starts one
 * session, wraps every op it records in tlc_cupti_op_enter/exit with the
 * op's correlation id (by default its op log id), stops the session, and
 * hands the collected device records to an evaluation (tlc_cupti_push_eval)
 * or writes them as op log v1 "kernel"/"memcpy"/"memset"/"runtime" lines
 * (tlc_cupti_write_oplog) for `tlcost join`.
 *
 * libcupti is loaded with dlopen when a session starts or first parses a
 * buffer: neither this library nor libtlcost links CUDA. Where CUPTI cannot
 * record (no GPU, no driver, insufficient privileges, libcupti not found)
 * the session is UNAVAILABLE: one fact-free disclosure carrying CUPTI's own
 * error text, never an empty set and never zero times.
 *
 * Errors: functions return 0 or a negative TLC_E* code (tlcost.h). The
 * detail (stable snake_case code, message, non-empty remedy) is kept in the
 * session and read with tlc_cupti_session_error(); this library does not use
 * libtlcost's thread-local error state, which is private to libtlcost.
 *
 * Threads: CUPTI's activity API is process-wide and its buffer callbacks
 * carry no payload, so at most one session may be started per process at a
 * time; op enter/exit may be called from any thread (CUPTI keeps one
 * external-correlation stack per thread).
 */
#ifndef TLCOST_CUPTI_H
#define TLCOST_CUPTI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nvtx.h"
#include "tlcost.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tlc_cupti_session tlc_cupti_session;

/** Availability of a session's result (contract section 8). */
typedef enum tlc_cupti_status {
	TLC_CUPTI_IDLE = 0,       /* created, not started and not stopped */
	TLC_CUPTI_RUNNING,        /* started, collecting */
	TLC_CUPTI_UNAVAILABLE,    /* CUPTI could not record: see message */
	TLC_CUPTI_EMPTY,          /* ran and saw no records */
	TLC_CUPTI_PARTIAL,        /* records lost or paused: counts are lower bounds */
	TLC_CUPTI_COMPLETE        /* ran, nothing lost */
} tlc_cupti_status;

/** "idle", "running", "unavailable", "empty", "partial", "complete". */
const char *tlc_cupti_status_name(tlc_cupti_status st);

typedef struct tlc_cupti_options {
	uint32_t size;            /* sizeof(tlc_cupti_options) */
	/* libcupti to dlopen; NULL = $TLCOST_CUPTI_LIBRARY, else the library
	 * found by configure, else "libcupti.so" from the loader path. */
	const char *library_path;
	size_t buffer_size;       /* bytes per activity buffer; 0 = 8 MiB; at least 64 KiB */
	/* NVTX ranges (tlcost/nvtx.h): a started emitter, borrowed (it must
	 * outlive the session), or NULL for none. With one, the named op
	 * enter/exit wrap each op in "tlcost::<op>#<correlation>" and the
	 * session's own work is under "tlcost::internal::cupti_buffer"
	 * (parsing a buffer CUPTI completed), "...::cupti_flush" (stop's forced
	 * flush), "...::cupti_build" (pairing records at stop) and
	 * "...::cupti_write_oplog". */
	tlc_nvtx *nvtx;
} tlc_cupti_options;
/** The size set, every other field its default. */
#define TLC_CUPTI_OPTIONS_INIT { sizeof(tlc_cupti_options), NULL, 0, NULL }

/** Error detail of a session's last failing call (owned by the session,
 *  valid until its next failing call). Without a failure, code is "ok". */
typedef struct tlc_cupti_error {
	int klass;                /* the TLC_E* value returned */
	const char *code;         /* stable snake_case code */
	const char *message;      /* cause, one sentence */
	const char *remedy;       /* never empty for a failure */
} tlc_cupti_error;

/** What a session saw. All counts are exact for COMPLETE and lower bounds
 *  (lower_bound = 1) for PARTIAL. For UNAVAILABLE only status, failed_call,
 *  cupti_result and message mean anything: it is a disclosure, not a set of
 *  zero counts. */
typedef struct tlc_cupti_summary {
	uint32_t size;            /* sizeof(tlc_cupti_summary) of the caller's build */
	tlc_cupti_status status;
	int lower_bound;          /* nonzero when any count is a lower bound */
	/* UNAVAILABLE: the CUPTI call that failed ("cuptiActivityEnable(...)",
	 * or "dlopen") and CUPTI's own text for the result (from
	 * cuptiGetResultString), or the loader's message. NULL otherwise. */
	const char *failed_call;
	int cupti_result;         /* CUptiResult of that call; -1 for dlopen/dlsym */
	const char *message;
	/* counts of records handed on */
	uint64_t kernels, memcpys, memsets, runtime_calls, driver_calls;
	uint64_t external_ids;    /* external-correlation records (our kind) */
	/* counts of records lost or set aside */
	uint64_t dropped;         /* CUPTI dropped them (buffer full) */
	uint64_t undecodable;     /* buffers whose tail CUPTI could not walk */
	uint64_t untimed;         /* device records without timestamps, left out */
	uint64_t skipped;         /* records of kinds this module does not use */
	uint64_t orphan_external; /* external ids naming no API call seen */
	uint64_t external_conflicts; /* API calls given two different op ids */
	uint64_t paused_regions;  /* tlc_cupti_pause calls: work there is unseen */
	/* Appended for graph nodes (a caller's older, shorter struct is filled
	 * only up to paused_regions): CUDA graph nodes the session saw made
	 * (docs/cupti.md), written as op log "graph_node" lines.
	 * graph_nodes_unavailable is NULL when they were recorded, else why
	 * not: the CUPTI call and its text ("cuptiSubscribe: CUPTI_ERROR_
	 * MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED" when another CUPTI client
	 * subscribed first); the session's other records are unaffected.
	 * graph_nodes_lost counts nodes seen whose creating call or original
	 * node could not be told, or that could not be kept (no memory). */
	uint64_t graph_nodes;
	uint64_t graph_nodes_lost;
	const char *graph_nodes_unavailable;
} tlc_cupti_summary;

/** Creates an idle session (nothing is loaded yet). opts may be NULL; an
 *  options struct of an older, shorter layout is accepted (later fields take
 *  their defaults). Errors: TLC_ENOMEM (no session is created), TLC_EINVAL
 *  (opts->size too small or larger than this library knows, or opts->nvtx
 *  an emitter that is not started: start it first, and report its
 *  emit_nvtx_unavailable refusal). */
int tlc_cupti_session_new(tlc_cupti_session **out, const tlc_cupti_options *opts);

/** Stops the session if running, then frees it and every record. */
void tlc_cupti_session_free(tlc_cupti_session *s);

const tlc_cupti_error *tlc_cupti_session_error(const tlc_cupti_session *s);

/** Loads libcupti and enables concurrent kernel, memcpy, memset, runtime,
 *  driver and external-correlation activity, then subscribes to CUPTI's
 *  callbacks to record the CUDA graph nodes made while it runs (one CUPTI
 *  subscriber per process: when another client holds it, the session runs
 *  without graph nodes and its summary says so; stop unsubscribes).
 *  Returns 0 when recording. Where CUPTI cannot record, the session becomes UNAVAILABLE (see the
 *  summary for the failing call and CUPTI's text), every kind this call
 *  enabled is disabled again, and the return is TLC_EUNAVAILABLE with code
 *  cupti_unavailable: not a crash, and the capture may carry on without
 *  device time. Other errors: TLC_ESTATE cupti_session_state (not idle),
 *  TLC_ESTATE cupti_session_busy (another session of this process runs). */
int tlc_cupti_start(tlc_cupti_session *s);

/** Pushes (enter) or pops (exit) correlation as the calling thread's CUPTI
 *  external correlation id (kind CUSTOM0): device work launched in between
 *  is tagged with the innermost op. Exit checks that the popped id is the
 *  one given (TLC_EINVAL cupti_op_mismatch otherwise). Both are no-ops
 *  returning 0 on an UNAVAILABLE session. correlation must be >= 0.
 *  Errors: TLC_ESTATE cupti_session_state, TLC_ERROR cupti_call_failed. */
int tlc_cupti_op_enter(tlc_cupti_session *s, int64_t correlation);
int tlc_cupti_op_exit(tlc_cupti_session *s, int64_t correlation);

/** As op enter/exit, and, when the session has an NVTX emitter
 *  (tlc_cupti_options.nvtx), enter also pushes the NVTX range
 *  "tlcost::<op>#<correlation>" around the op and exit pops it (exit
 *  checks it is the thread's innermost range: nvtx_op_mismatch, with the
 *  emitter's detail, otherwise). The range is emitted on an UNAVAILABLE
 *  session too: NVTX does not need CUPTI. Without an emitter they are
 *  op enter/exit. Pair named enters with named exits. Errors: those of op
 *  enter/exit and of tlc_nvtx_op_enter/exit (nvtx_op_invalid for a NULL or
 *  empty op name); a failed enter leaves neither stack pushed. */
int tlc_cupti_op_enter_named(tlc_cupti_session *s, int64_t correlation, const char *op);
int tlc_cupti_op_exit_named(tlc_cupti_session *s, int64_t correlation);

/** Pauses recording (every activity kind is disabled) and resumes it.
 *  Work launched while paused is not seen, so a session that paused is
 *  PARTIAL and every count a lower bound. Op enter/exit go on while paused.
 *  No-ops returning 0 on an UNAVAILABLE session. Errors: TLC_ESTATE
 *  cupti_session_state (not running, already paused / not paused),
 *  TLC_ERROR cupti_call_failed (resume could not re-enable a kind; the
 *  session stays paused). */
int tlc_cupti_pause(tlc_cupti_session *s);
int tlc_cupti_resume(tlc_cupti_session *s);

/** CUPTI's clock now, in ns: the clock of runtime-call timestamps. A
 *  capture library that writes an op's start_ns/end_ns from it (and the
 *  op's thread as gettid(), which start asks CUPTI to use for its thread
 *  ids) lets the join fall back to containment when external ids are
 *  unusable; the correlation path needs neither. *out is -1 on failure.
 *  Errors: TLC_EUNAVAILABLE cupti_unavailable, TLC_ERROR cupti_call_failed. */
int tlc_cupti_timestamp(int64_t *out, tlc_cupti_session *s);

/** Forces a flush of every buffer, disables the activity kinds, counts the
 *  records CUPTI dropped, and builds the result: EMPTY, PARTIAL or
 *  COMPLETE (an UNAVAILABLE session stays UNAVAILABLE). Also valid on an
 *  idle session that was fed with tlc_cupti_ingest (replay). Ops still
 *  entered (an op that raised past its exit) are closed first where CUPTI
 *  allows: the calling thread's ids are popped from its CUPTI stack and
 *  their NVTX ranges ended; see tlc_cupti_ops_left_open. */
int tlc_cupti_stop(tlc_cupti_session *s);

/** How many ops were still entered when a running session stopped (or was
 *  freed): their launches are attributed as usual; those of the stopping
 *  thread were closed, those of other threads stay on their threads' CUPTI
 *  stacks (exit them there, or their ids tag calls of a later session).
 *  0 for a session that never ran on a GPU. */
uint64_t tlc_cupti_ops_left_open(const tlc_cupti_session *s);

/** Parses one activity buffer as the buffer-completed callback does: walks
 *  it with libcupti's own cuptiActivityGetNextRecord and keeps the records
 *  this module uses. dropped adds to the dropped-record count. For tools
 *  that receive CUPTI's buffers themselves, and for tests; the buffer must
 *  hold records of this process (kernel names are pointers into it). Valid
 *  while idle or running; the buffer is not freed. Errors: TLC_EUNAVAILABLE
 *  cupti_unavailable (libcupti cannot be loaded), TLC_EINVAL
 *  cupti_buffer_invalid, TLC_ESTATE, TLC_ENOMEM. */
int tlc_cupti_ingest(tlc_cupti_session *s, uint8_t *buffer, size_t valid_size,
                     uint64_t dropped);

#define TLC_CUPTI_SUMMARY_INIT { sizeof(tlc_cupti_summary), TLC_CUPTI_IDLE, 0, NULL, 0, NULL, \
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL }

/** Summary of a stopped (or unavailable) session into the fields out->size
 *  covers (set it: TLC_CUPTI_SUMMARY_INIT). TLC_ESTATE when the session is
 *  not stopped; TLC_EINVAL when out->size is smaller than the first layout. */
int tlc_cupti_get_summary(tlc_cupti_summary *out, const tlc_cupti_session *s);
/* Deprecated spelling of 0.1.0, kept so older sources compile. */
#define tlc_cupti_summary_get tlc_cupti_get_summary

/** Device records of a stopped session, in the order CUPTI delivered them:
 *  kernels, memcpys, memsets, runtime and driver calls (a driver call that
 *  shares its correlation id with a runtime call is folded into it).
 *  Runtime/driver records carry the op correlation as external_id when an
 *  op was entered. Owned by the session. An UNAVAILABLE session has none:
 *  read its summary. */
size_t tlc_cupti_record_count(const tlc_cupti_session *s);
const tlc_device_record *tlc_cupti_record_at(const tlc_cupti_session *s, size_t i);

/** Hands every record to ev with tlc_eval_push_device, then every graph
 *  node record with tlc_eval_push_graph_node. On an UNAVAILABLE
 *  session nothing is pushed and the return is TLC_EUNAVAILABLE
 *  (cupti_unavailable, with CUPTI's text). Errors of tlc_eval_push_device
 *  are passed on (its detail is in tlc_error_last()). */
int tlc_cupti_push_eval(tlc_eval *ev, tlc_cupti_session *s);

/** Flags for tlc_join_options.flags that carry what the session knows into
 *  the join: TLC_JOIN_INPUT_PARTIAL when records were lost (the join's
 *  counts are then lower bounds), else 0. */
unsigned tlc_cupti_join_flags(const tlc_cupti_session *s);

/** Writes the session as op log v1 lines (no header): one
 *  {"kind":"device_profiler",...} disclosure line with the status, counts
 *  and, when unavailable, CUPTI's text; then one {"kind":"graph_node",...}
 *  line per graph node record; then one kernel/memcpy/memset/runtime line
 *  per record (driver calls are written as "runtime" lines named after the
 *  driver function; a device record run by a graph launch carries
 *  "graph_id" and "graph_node"). Errors: TLC_EIO cupti_write_failed. */
int tlc_cupti_write_oplog(FILE *out, tlc_cupti_session *s);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_CUPTI_H */
