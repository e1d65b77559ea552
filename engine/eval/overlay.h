/* The device-time overlay of the kept op rows (semi-private; issue 24 item 1).
 *
 * A device-time join does not write into the evaluation: it produces an
 * overlay, one compact entry per kept row, that reports receive beside the
 * evaluation (read -> evaluate -> join overlay -> report). Per row it holds
 * the time of the launches the row made itself (the innermost launching op,
 * tlc_op_row.device_time_ns / kernel_time_ns / attribution) and the time
 * rolled up to the row as the launches' costed row (docs/cost-contract.md,
 * "Costed row"). The eval's row accessors (tlc_eval_op_get) fill the
 * device-time fields from the overlay attached to the evaluation, so the
 * public promise of <tlcost/eval.h> holds; attaching stores one pointer and
 * changes no result of the evaluation. */
#ifndef TLC_ENGINE_OVERLAY_H
#define TLC_ENGINE_OVERLAY_H

#include <stddef.h>
#include <stdint.h>
#include "tlcost/tlcost.h"
#include "alloc.h"
#include "rows.h"

typedef struct tlc_overlay {
	const tlc_allocator *a;
	size_t n;
	int ready;              /* columns allocated (tlc_overlay__init succeeded) */
	int available;          /* the join had device records (not unavailable) */
	/* launches each row made itself (innermost launching op) */
	tlc_tcol device_ns, kernel_ns;
	uint8_t *attribution;   /* tlc_attribution per row */
	/* launches whose costed row is this row (attributed launches only) */
	tlc_tcol costed_device_ns, costed_kernel_ns;
} tlc_overlay;

/** Columns for n rows: zero times, attribution UNATTRIBUTED when available
 *  else UNAVAILABLE. 0, or TLC_ENOMEM (error set, nothing held). */
int tlc_overlay__init(tlc_overlay *o, const tlc_allocator *a, size_t n, int available);
void tlc_overlay__free(tlc_overlay *o);
/** Adds (saturating) a launch's time to row i, the row that made it, and
 *  marks the row attributed. */
int tlc_overlay__add(tlc_overlay *o, size_t i, int64_t device_ns, int64_t kernel_ns);
/** Adds (saturating) an attributed launch's time to its costed row i. */
int tlc_overlay__add_costed(tlc_overlay *o, size_t i, int64_t device_ns, int64_t kernel_ns);
/** Marks row i ambiguous unless it is attributed. */
void tlc_overlay__ambiguous(tlc_overlay *o, size_t i);
/** Sets the device-time fields of *out (row i) from the overlay. */
void tlc_overlay__fill(const tlc_overlay *o, size_t i, tlc_op_row *out);
size_t tlc_overlay__bytes(const tlc_overlay *o);

static inline int64_t tlc_overlay__kernel_ns(const tlc_overlay *o, size_t i)
{
	return o && o->ready ? tlc_tcol__get(&o->kernel_ns, i) : 0;
}
static inline int64_t tlc_overlay__device_ns(const tlc_overlay *o, size_t i)
{
	return o && o->ready ? tlc_tcol__get(&o->device_ns, i) : 0;
}
static inline int64_t tlc_overlay__costed_kernel_ns(const tlc_overlay *o, size_t i)
{
	return o && o->ready ? tlc_tcol__get(&o->costed_kernel_ns, i) : 0;
}
static inline int64_t tlc_overlay__costed_device_ns(const tlc_overlay *o, size_t i)
{
	return o && o->ready ? tlc_tcol__get(&o->costed_device_ns, i) : 0;
}

#endif
