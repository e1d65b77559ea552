/* The cost record under construction and the host service table
 * (semi-private). */
#ifndef TLC_ENGINE_COST_H
#define TLC_ENGINE_COST_H

#include "tlcost/plugin.h"
#include "count.h"

/* The bytes of one op record's values, summed once while the record was
 * checked (tlc_cost__io_check): host->read_inputs and host->write_outputs
 * add these instead of walking the values again. Kept in the scratch cost
 * the rule writes to, for the record named by op only (NULL: none). A sum
 * that overflowed int64 is not kept (*_ok 0): the helpers then walk the
 * values and count exactly, as without a summary. */
typedef struct tlc_cost_io {
	const tlc_op *op;
	int64_t read;          /* bytes of the tensors read_inputs counts */
	int64_t written;       /* bytes of the recorded outputs */
	unsigned char read_ok, written_ok;           /* the sums fit int64 */
	unsigned char read_unknown, written_unknown; /* an element size was unknown */
} tlc_cost_io;

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
	tlc_cost_io io;        /* scratch costs: the record's byte sums (io.op NULL: none) */
	unsigned missing;      /* fields not determined: 1u << tlc_cost_field (partly known) */
};

void tlc_cost__init(tlc_cost *c, tlc_evidence ev);
void tlc_cost__clear(tlc_cost *c);
/** The GMP values of a reset: every big field (comm_msg included) back
 *  to a small 0. */
void tlc_cost__reset_big(tlc_cost *c);

/** Clears values and note, keeping notebuf. Inline: the eval resets its
 *  scratch cost before every rule, and it almost never holds a GMP value
 *  (one test for all fields; the clearing only then). */
static inline void tlc_cost__reset(tlc_cost *c, tlc_evidence ev)
{
	int big = c->comm_msg.big;
#pragma GCC unroll 4
	for (int i = 0; i < TLC_FIELD_COUNT; i++)
		big |= c->f[i].big;
	if (big)
		tlc_cost__reset_big(c);
#pragma GCC unroll 4
	for (int i = 0; i < TLC_FIELD_COUNT; i++)
		c->f[i].small = 0;
	c->evidence = ev;
	c->bytes_unknown = c->split_unknown = c->bad_factor = c->negative_terms = 0;
	c->missing = 0;
	c->note = NULL;
	c->comm_msg.small = 0;
	c->has_comm = 0;
	/* as tlc_cost__init: a collective's kind, group and flags must not
	 * stay in the scratch for the ops after it, or no later cost equals
	 * a kept one and the eval keeps one cost per row (eval.c share_cost) */
	c->comm_kind = TLC_COMM_ALLREDUCE;
	c->comm_group = 0;
	c->comm_flags = 0;
}
/** Copies values and flags; dst->note borrows src->note (re-point it). */
void tlc_cost__copy(tlc_cost *dst, const tlc_cost *src);
/** Sets every missing field (host->cost_set_missing) to 0: what a rule
 *  added to a field it could not determine is never counted. */
void tlc_cost__drop_missing(tlc_cost *c);
/** fma=2 FLOPs of c added to acc. */
void tlc_cost__add_flops(tlc_count *acc, const tlc_cost *c);
/** Nonzero when any field ended negative. */
int tlc_cost__negative(const tlc_cost *c);

/** Checks the values of op (args, kwargs, outputs: every tensor's shape
 *  given and non-negative, lists nested at most 64 deep, every kwarg
 *  named) and sums their bytes into *io as read_inputs and write_outputs
 *  count them, in one walk. Returns NULL, or the invalid field as the
 *  eval's oplog_field_invalid message names it (io is then not valid).
 *  The record's counts and pointers must have been checked already. */
const char *tlc_cost__io_check(tlc_cost_io *io, const tlc_op *op);

/** The host table given to every rule and plugin (built-ins included). */
const tlc_host *tlc_host__table(void);

#endif
