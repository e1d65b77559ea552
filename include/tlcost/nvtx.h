/*
 * libtlcost-nvtx: NVTX call-identity ranges for Nsight, for capture libraries.
 *
 * A capture library that records a model's ops can also mark each op on a
 * profiler's timeline: between op enter and exit this library holds an
 * NVTX range named "tlcost::<op>#<call_id>" (so twenty conv2d calls are
 * twenty distinguishable ranges, named after their op log ids), and it
 * puts the capture's own bookkeeping (flushing and parsing CUPTI buffers,
 * writing the log) under "tlcost::internal::<what>". The ranges are for
 * visual correlation in Nsight Systems / Nsight Compute only: nothing is
 * measured through them and no number comes back from them.
 *
 * NVTX is header-only: the NVTX3 headers of the CUDA toolkit hand each call
 * to the injection library a profiler names in NVTX_INJECTION64_PATH
 * (nsys and ncu set it), loaded with dlopen on the first NVTX call. This
 * library links no CUDA library and needs no GPU, driver or CUPTI.
 *
 * Available or not: tlc_nvtx_start succeeds only when a tool is attached
 * to this library's NVTX calls and takes range push/pop. Otherwise
 * (NVTX_INJECTION64_PATH unset, its library not loadable or refusing to
 * initialise, or a library built without the NVTX3 headers) ranges would
 * go nowhere, so start refuses with TLC_EUNAVAILABLE, code
 * emit_nvtx_unavailable, the cause and a remedy: never a silent no-op.
 * NVTX reads NVTX_INJECTION64_PATH once per process, on its first call:
 * set it before the first emitter starts.
 *
 * Off: every range function accepts NULL as the emitter and then does
 * nothing and returns 0, so a caller whose emit_nvtx option is off passes
 * NULL rather than testing at every op.
 *
 * Errors: functions return 0 or a negative TLC_E* code (tlcost.h); the
 * detail (stable snake_case code, message, non-empty remedy) is kept in the
 * emitter and read with tlc_nvtx_error_get() (one detail per emitter: that
 * of the last failing call on any thread). Threads: ranges nest per host
 * thread, as NVTX's push/pop do; one emitter may be used from any number of
 * threads at once (each thread's exits must mirror its own enters).
 */
#ifndef TLCOST_NVTX_H
#define TLCOST_NVTX_H

#include <stdint.h>

#include "tlcost.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An NVTX range emitter (opaque). */
typedef struct tlc_nvtx tlc_nvtx;

/** Error detail of an emitter's last failing call (owned by the emitter,
 *  valid until its next failing call). Without a failure, code is "ok". */
typedef struct tlc_nvtx_error {
	int klass;                /* the TLC_E* value returned */
	const char *code;         /* stable snake_case code */
	const char *message;      /* cause, one sentence */
	const char *remedy;       /* never empty for a failure */
} tlc_nvtx_error;

/** Creates an emitter that is not started (nothing is emitted yet).
 *  Errors: TLC_ENOMEM (*out is NULL). */
int tlc_nvtx_new(tlc_nvtx **out);

/** Ends the ranges the calling thread still has open on n (an op that
 *  raised and never exited), then frees n. Ranges other threads left open
 *  cannot be ended from here (NVTX ranges belong to their thread). NULL is
 *  a no-op. */
void tlc_nvtx_free(tlc_nvtx *n);

/** Checks that a tool takes this library's NVTX ranges. 0: ranges are
 *  emitted from now on. TLC_EUNAVAILABLE emit_nvtx_unavailable: nothing
 *  would receive them; the message says why (NVTX_INJECTION64_PATH unset,
 *  set to a library that did not attach, or built without NVTX3 headers)
 *  and the emitter stays unstarted. TLC_ESTATE nvtx_state: already started. */
int tlc_nvtx_start(tlc_nvtx *n);

/** Nonzero when n is started (0 for NULL). */
int tlc_nvtx_started(const tlc_nvtx *n);

/** Pushes the range "tlcost::<op>#<call_id>" on the calling thread (enter)
 *  and pops it (exit). call_id is the op's identity in the capture, its op
 *  log id by default (what tlc_cupti_op_enter takes), >= 0; op is the op's
 *  name as the log writes it ("aten::conv2d"). Exit checks that the
 *  thread's innermost open range is this op's. n NULL: no-op, 0.
 *  Errors: TLC_ESTATE nvtx_state (not started), TLC_EINVAL nvtx_op_invalid
 *  (op NULL or empty, call_id negative), TLC_EINVAL nvtx_op_mismatch (exit
 *  out of order, or nothing open on this thread; nothing is popped),
 *  TLC_ENOMEM. */
int tlc_nvtx_op_enter(tlc_nvtx *n, const char *op, int64_t call_id);
int tlc_nvtx_op_exit(tlc_nvtx *n, int64_t call_id);

/** Pushes "tlcost::internal::<what>" around the capture's own work (enter)
 *  and pops it (exit; what must match the innermost open range of the
 *  thread). what is a short snake_case word such as "cupti_flush"; it is
 *  kept (not copied) until the exit, so pass a string literal.
 *  n NULL: no-op, 0. Errors as for the op ranges. */
int tlc_nvtx_internal_enter(tlc_nvtx *n, const char *what);
int tlc_nvtx_internal_exit(tlc_nvtx *n, const char *what);

/** The detail of n's last failing call. */
const tlc_nvtx_error *tlc_nvtx_error_get(const tlc_nvtx *n);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_NVTX_H */
