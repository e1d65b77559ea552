/* The cost record under construction and the host service table
 * (semi-private). */
#ifndef TLC_ENGINE_COST_H
#define TLC_ENGINE_COST_H

#include "tlcost/plugin.h"
#include "count.h"

struct tlc_cost {
	tlc_count f[TLC_FIELD_COUNT];
	tlc_evidence evidence;
	int bytes_unknown;
	int split_unknown;
	int bad_factor;        /* a negative factor was given */
	int negative_terms;    /* some term had a negative coefficient */
	const char *note;      /* rule explanation, or NULL */
	/* communication (host->cost_add_comm): message bytes in comm_msg */
	int has_comm;
	tlc_comm_kind comm_kind;
	int64_t comm_group;
	unsigned comm_flags;
	tlc_count comm_msg;
	char *notebuf;         /* scratch costs: where cost_explain writes */
	size_t notecap;
};

void tlc_cost__init(tlc_cost *c, tlc_evidence ev);
void tlc_cost__clear(tlc_cost *c);
/** Clears values and note, keeping notebuf. */
void tlc_cost__reset(tlc_cost *c, tlc_evidence ev);
/** Copies values and flags; dst->note borrows src->note (re-point it). */
void tlc_cost__copy(tlc_cost *dst, const tlc_cost *src);
/** fma=2 FLOPs of c added to acc. */
void tlc_cost__add_flops(tlc_count *acc, const tlc_cost *c);
/** Nonzero when any field ended negative. */
int tlc_cost__negative(const tlc_cost *c);

/** The host table given to every rule and plugin (built-ins included). */
const tlc_host *tlc_host__table(void);

#endif
