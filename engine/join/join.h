/* Device-time join internals (semi-private): the result object shared by
 * engine/join/join.c and engine/join/write_join.c. */
#ifndef TLC_ENGINE_JOIN_H
#define TLC_ENGINE_JOIN_H

#include "tlcost/tlcost.h"
#include "alloc.h"
#include "rows.h"
#include "overlay.h"

/* One launch, compact: record indices (32 bits: rows.h caps the stores),
 * the op row or group by status, the cause of an unattributed one. */
typedef struct tlc_jlaunch {
	uint32_t rec;
	uint32_t runtime;   /* TLC_JOIN__NONE: no runtime call */
	uint32_t target;    /* op row (attributed) or group (ambiguous) */
	uint8_t status;     /* tlc_attribution */
	uint8_t why;        /* index into the TLC_JOIN_WHY_* texts, 0: none */
	uint8_t not_op;     /* attributed, but every row on its host path is not
	                       an op (tlc_eval__row_not_op): time on a wrapper */
	uint8_t via_capture; /* attributed by capture pairing (engine/input/capture_pair.c) */
} tlc_jlaunch;

#define TLC_JOIN__NONE UINT32_MAX

/** Launch i as the public struct. */
tlc_join_launch tlc_join__launch(const tlc_join *j, size_t i);
/** The join's per-row device times (never NULL for a join). */
const tlc_overlay *tlc_join__overlay(const tlc_join *j);
/** Costed row of row i (docs/cost-contract.md, "Costed row"): the nearest
 *  ancestor-or-self whose class is known or zero_by_rule, else the row
 *  itself (its cost is unknown, or it is not an op). */
size_t tlc_join__costed_row(const tlc_join *j, size_t i);
/** Kernel ns of ambiguous group g (0 when out of range). */
int64_t tlc_join__group_kernel_ns(const tlc_join *j, size_t g);

/** The JSON document of tlc_write_join (same schema and fields) without
 *  the per-launch rows: what a page embeds (tlc_html_write_input). all:
 *  the spans of tlc_join__spans(ev, j, copies 1) when the caller holds
 *  them (borrowed), else NULL. */
struct tlc_join__span;
int tlc_join__write_json_summary(FILE *out, const tlc_join *j, const tlc_eval *ev,
                                 const struct tlc_join__span *all, size_t nall);

struct tlc_join {
	const tlc_allocator *a;
	const struct tlc_devs *devs; /* the eval's device records (the eval outlives the join) */
	tlc_join_summary sum;
	char reason[320];
	tlc_join_phase phases[TLC_PHASE_COUNT];
	tlc_join_device *devices;
	size_t ndevices;
	tlc_join_remainder *remainder;
	size_t nremainder;
	tlc_jlaunch *launches;   /* compact; tlc_join__launch gives the public struct */
	size_t nlaunches;
	tlc_join_group *groups;
	size_t ngroups;
	size_t *group_rows;      /* storage of every group's rows */
	size_t nrows;            /* op rows of the eval */
	uint32_t *counted;       /* per row: counted row index, or a marker (join.c) */
	/* the join's result per row: device time of the launches each row made
	 * and of those whose costed row it is (overlay.h); attached to the eval
	 * for tlc_eval_op_get, never written into it */
	tlc_overlay ov;
	struct tlc_eval *ev;     /* the eval the overlay is attached to */
	/* costed-row view (docs/cost-contract.md, "Costed row"): attributed
	 * kernel time whose costed row is an op / is a row that is not an op */
	int64_t costed_op_kernel_ns, costed_not_op_kernel_ns;
	int64_t *group_kernel;   /* per ambiguous group: its kernel ns */
	/* kernel time on rows that are not ops (contract "Not an op"): not
	 * attributed for the gate; by wrapper row, by time descending */
	tlc_join_wrapper *wrappers;
	size_t nwrappers;
	tlc_join_detail detail;  /* tlc_join_detail_get */
	/* correlation path: attributed launches whose op's host interval (on the
	 * launching call's thread) does not hold the call: External ids that
	 * coincide with op ids by accident (tlc_join_correlation_outside) */
	uint64_t corr_checked, corr_outside;
};

/** Name of the cause an unattributed launch carries. */
#define TLC_JOIN_WHY_NO_RUNTIME "no runtime call with this correlation (launched before the profiling window, or its record was dropped)"
#define TLC_JOIN_WHY_NO_CORRELATION "the record carries no correlation id"
#define TLC_JOIN_WHY_NO_OP "its runtime call leads to no op"
#define TLC_JOIN_WHY_NO_PATH "no join path is usable for this input"
#define TLC_JOIN_WHY_PAIR_NO_MATCH "capture pairing: its graph launch's kernel sequence (names and count) matches no captured graph"
#define TLC_JOIN_WHY_PAIR_AMBIGUOUS "capture pairing: its graph launch's kernel sequence matches several captured graphs (ambiguous; not attributed)"
#define TLC_JOIN_WHY_PAIR_NO_OP "capture pairing: its launch during capture names no op of the capture trace"
#define TLC_JOIN_WHY_GRAPH "replayed from a CUDA/HIP graph (cudaGraphLaunch/hipGraphLaunch): the graph's ops were captured before the profiling window and are not in the trace"

#endif
