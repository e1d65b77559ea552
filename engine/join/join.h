/* Device-time join internals (semi-private): the result object shared by
 * engine/join/join.c and engine/join/write_join.c. */
#ifndef TLC_ENGINE_JOIN_H
#define TLC_ENGINE_JOIN_H

#include "tlcost/tlcost.h"
#include "alloc.h"
#include "rows.h"

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

/** The JSON document of tlc_write_join (same schema and fields) without
 *  the per-launch rows: what a page embeds (tlc_html_write_input). */
int tlc_join__write_json_summary(FILE *out, const tlc_join *j, const tlc_eval *ev);

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
	tlc_tcol rolled_kernel;  /* per row: kernel ns rolled into it (rows.h) */
	int has_rolled;
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
