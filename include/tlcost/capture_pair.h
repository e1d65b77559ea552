/*
 * libtlcost capture pairing: graph replays paired with the trace of their
 * capture (docs/cost-contract.md, "Capture pairing"; docs/join.md).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_CAPTURE_PAIR_H
#define TLCOST_CAPTURE_PAIR_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "eval.h"
#include "input.h"
#include "join.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What pairing a replay with its captures found. */
typedef struct tlc_capture_pair_summary {
	uint32_t size;             /* sizeof(tlc_capture_pair_summary) of the caller's build */
	uint64_t captures;         /* capture traces read */
	uint64_t graphs;           /* captured graphs (StreamBeginCapture .. StreamEndCapture) */
	uint64_t graph_launches;   /* graph launches of the replay (cudaGraphLaunch/hipGraphLaunch) */
	uint64_t matched;          /* ... whose launch sequence matched exactly one captured graph */
	uint64_t ambiguous;        /* ... that matched several (not attributed) */
	uint64_t unmatched;        /* ... that matched none */
	uint64_t ops_added;        /* captured ops added to the replay's evaluation (per matched launch) */
	/* since 4.3: */
	uint64_t by_graph_node;    /* 1: launches were told apart by CUDA graph node ids (CUPTI),
	                            * 0: by the kernel names recorded at capture (ROCm) */
} tlc_capture_pair_summary;

#define TLC_CAPTURE_PAIR_SUMMARY_INIT { sizeof(tlc_capture_pair_summary), 0, 0, 0, 0, 0, 0, 0, 0 }

/** Pairs the replay being read into ev with the traces of its graphs'
 *  capture. Call it after the replay was read (tlc_input_read...) and
 *  before tlc_eval_finish; ev must keep ops. Each path is a capture trace,
 *  or a directory laid out as TraceLens lays it out: execution_details.json
 *  (a list of {"file", "batch_size", "mode"}) in it, or in its
 *  capture_traces/ subdirectory, names the capture traces.
 *
 *  For every graph launch of the replay, the sequence of its launches
 *  (kernel names, memcpy, memset; by device start) is compared with the
 *  launch sequence of every captured graph (the runtime launches between a
 *  StreamBeginCapture and its StreamEndCapture on one thread, with the
 *  kernel name the runtime recorded at capture). Exactly one equal
 *  sequence (names and count): the ops of that capture window are added to
 *  ev (once per such launch, with fresh ids) and each replayed launch is
 *  attributed by the join to the op that launched it during capture.
 *  Several: ambiguous, none: unmatched; those launches stay unattributed
 *  with that cause. The join and its reports say `capture pairing`.
 *
 *  Errors: capture_pairing_needs_graph_ids (the capture's kernel launches
 *  carry no kernel name, as CUDA runtime events do not: pairing would need
 *  the graph and node ids a CUPTI collector records), capture_pairing_no_capture
 *  (a capture trace without a StreamBeginCapture/StreamEndCapture pair),
 *  capture_details_invalid (execution_details.json malformed, with its
 *  position), capture_details_missing (a directory without it), the
 *  readers' errors for the capture traces, eval_finished, invalid_argument,
 *  out_of_memory. lim may be NULL. */
int tlc_capture_pair(tlc_eval *ev, const char *const *paths, size_t npaths,
                     const tlc_input_limits *lim);

/** Fills *out (the fields out->size covers) with what tlc_capture_pair
 *  found for ev. Returns 1 when ev was paired, 0 when not (out zeroed past
 *  size), TLC_EINVAL (invalid_argument) for NULL or a short size. */
int tlc_capture_pair_summary_get(const tlc_eval *ev, tlc_capture_pair_summary *out);

/** Kernels (and their summed duration) that the join attributed through
 *  capture pairing. 0 when the eval was not paired. */
uint64_t tlc_join_capture_paired(const tlc_join *j, int64_t *kernel_ns);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_CAPTURE_PAIR_H */
