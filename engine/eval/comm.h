/* Communication totals of an evaluation (semi-private): per phase and
 * collective kind, the number of calls, exact message bytes and exact bus
 * bytes (a rational: S x 2(n-1)/n is not an integer in general). */
#ifndef TLC_ENGINE_COMM_H
#define TLC_ENGINE_COMM_H

#include <gmp.h>
#include "tlcost/tlcost.h"
#include "alloc.h"
#include "count.h"
#include "cost.h"

typedef struct tlc_comm_acc {
	uint64_t calls[TLC_PHASE_COUNT][TLC_COMM_COUNT];
	tlc_count msg[TLC_PHASE_COUNT][TLC_COMM_COUNT];
	mpq_t bus[TLC_PHASE_COUNT][TLC_COMM_COUNT];
	uint64_t by_basis[3];  /* recorded, derived, world size */
	tlc_dist_info dist;
	char backend[32];
	int has_dist;
} tlc_comm_acc;

int tlc_comm__new(tlc_comm_acc **out, const tlc_allocator *a);
void tlc_comm__free(tlc_comm_acc *acc, const tlc_allocator *a);
/** Adds the collective of c (c->has_comm) to phase p; cannot fail. */
void tlc_comm__add(tlc_comm_acc *acc, tlc_phase p, const tlc_cost *c);
/** q = msg x the kind's bus factor for group size n (q initialised). */
void tlc_comm__bus_of(mpq_t q, const tlc_count *msg, tlc_comm_kind k, int64_t n);
/** "N" or "P/Q" in lowest terms (malloc'd), NULL on failure. */
char *tlc_comm__q_str(const mpq_t q);

#endif
