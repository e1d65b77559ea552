/* Communication cost: collective kinds, bus factors (nccl-tests,
 * doc/PERFORMANCE.md) and the per-phase totals an evaluation keeps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "comm.h"
#include "error.h"
#include "eval.h"

static const char *const kind_names[TLC_COMM_COUNT] = {
	"allreduce", "allgather", "reduce_scatter", "alltoall", "broadcast",
	"reduce", "send", "recv", "gather", "scatter",
};

const char *tlc_comm_kind_name(tlc_comm_kind k)
{
	return (unsigned)k < TLC_COMM_COUNT ? kind_names[k] : "unknown";
}

int tlc_comm_kind_from_name(tlc_comm_kind *out, const char *name)
{
	for (int k = 0; name && k < TLC_COMM_COUNT; k++)
		if (strcmp(name, kind_names[k]) == 0) {
			if (out)
				*out = (tlc_comm_kind)k;
			return 0;
		}
	return tlc_error__set(TLC_EINVAL, "invalid_argument",
	                      "use allreduce, allgather, reduce_scatter, alltoall, broadcast, "
	                      "reduce, send, recv, gather or scatter",
	                      "not a collective kind");
}

int tlc_comm_bus_factor(int64_t *num, int64_t *den, tlc_comm_kind k, int64_t n)
{
	if (!num || !den || (unsigned)k >= TLC_COMM_COUNT || n < 1)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a collective kind and a group size >= 1",
		                      "tlc_comm_bus_factor: bad argument");
	switch (k) {
	case TLC_COMM_ALLREDUCE: *num = 2 * (n - 1); *den = n; break;
	case TLC_COMM_ALLGATHER: case TLC_COMM_REDUCE_SCATTER: case TLC_COMM_ALLTOALL:
	case TLC_COMM_GATHER: case TLC_COMM_SCATTER:
		*num = n - 1; *den = n; break;
	default: *num = 1; *den = 1; break;
	}
	return 0;
}

int tlc_comm__new(tlc_comm_acc **out, const tlc_allocator *a)
{
	tlc_comm_acc *acc = tlc_alloc__calloc(a, 1, sizeof *acc);
	if (!acc)
		return tlc_error__oom();
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			tlc_count__init(&acc->msg[p][k]);
			mpq_init(acc->bus[p][k]);
		}
	acc->dist.size = sizeof acc->dist;
	acc->dist.rank = acc->dist.world_size = -1;
	*out = acc;
	return 0;
}

void tlc_comm__free(tlc_comm_acc *acc, const tlc_allocator *a)
{
	if (!acc)
		return;
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			tlc_count__clear(&acc->msg[p][k]);
			mpq_clear(acc->bus[p][k]);
		}
	tlc_alloc__free(a, acc);
}

static void count_to_mpz(mpz_t z, const tlc_count *c)
{
	if (c->big)
		mpz_set(z, c->z);
	else
		mpz_set_si(z, (long)c->small);
}

void tlc_comm__bus_of(mpq_t q, const tlc_count *msg, tlc_comm_kind k, int64_t n)
{
	int64_t num = 1, den = 1;
	if (tlc_comm_bus_factor(&num, &den, k, n) < 0)
		num = 0;
	mpz_t z;
	mpz_init(z);
	count_to_mpz(z, msg);
	mpz_mul_si(z, z, (long)num);
	mpq_set_z(q, z);
	mpz_set_si(z, (long)den);
	mpq_set_den(q, z);
	mpq_canonicalize(q);
	mpz_clear(z);
}

void tlc_comm__add(tlc_comm_acc *acc, tlc_phase p, const tlc_cost *c)
{
	if (!c->has_comm || (unsigned)c->comm_kind >= TLC_COMM_COUNT)
		return;
	tlc_comm_kind k = c->comm_kind;
	acc->calls[p][k]++;
	tlc_count__add(&acc->msg[p][k], &c->comm_msg);
	mpq_t q;
	mpq_init(q);
	tlc_comm__bus_of(q, &c->comm_msg, k, c->comm_group);
	mpq_add(acc->bus[p][k], acc->bus[p][k], q);
	mpq_clear(q);
	if (c->comm_flags & TLC_COMM_GROUP_RECORDED)
		acc->by_basis[0]++;
	else if (c->comm_flags & TLC_COMM_GROUP_DERIVED)
		acc->by_basis[1]++;
	else if (c->comm_flags & TLC_COMM_GROUP_WORLD)
		acc->by_basis[2]++;
}

char *tlc_comm__q_str(const mpq_t q)
{
	/* mpq_get_str writes "P/Q", or "P" when the denominator is 1; the
	 * buffer is ours (malloc) so callers free it with free/tlc_free */
	size_t n = mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3;
	char *s = malloc(n);
	if (s)
		mpq_get_str(s, 10, q);
	return s;
}

/* ---- public accessors ---- */

uint64_t tlc_eval_comm_calls(const tlc_eval *ev, tlc_phase p, tlc_comm_kind k)
{
	if (!ev || !tlc_eval__finished(ev) || (unsigned)p >= TLC_PHASE_COUNT ||
	    (unsigned)k >= TLC_COMM_COUNT)
		return 0;
	return tlc_eval__comm(ev)->calls[p][k];
}

static int bad_arg(const char *what)
{
	return tlc_error__set(TLC_EINVAL, "invalid_argument",
	                      "pass a finished eval, a phase and a collective kind", "%s", what);
}

int tlc_eval_comm_bytes(char **msg, char **bus, const tlc_eval *ev, tlc_phase p,
                        tlc_comm_kind k)
{
	if (!ev || !tlc_eval__finished(ev) || (unsigned)p >= TLC_PHASE_COUNT ||
	    (unsigned)k >= TLC_COMM_COUNT)
		return bad_arg("tlc_eval_comm_bytes: bad argument");
	const tlc_comm_acc *acc = tlc_eval__comm(ev);
	char *m = msg ? tlc_count__to_str(&acc->msg[p][k]) : NULL;
	char *b = bus ? tlc_comm__q_str(acc->bus[p][k]) : NULL;
	if ((msg && !m) || (bus && !b)) {
		free(m);
		free(b);
		return tlc_error__oom();
	}
	if (msg)
		*msg = m;
	if (bus)
		*bus = b;
	return 0;
}

void tlc_eval_comm_group_basis(uint64_t out[3], const tlc_eval *ev)
{
	for (int i = 0; i < 3; i++)
		out[i] = ev ? tlc_eval__comm(ev)->by_basis[i] : 0;
}

int tlc_cost_comm(const tlc_cost *c, tlc_comm_kind *kind, int64_t *group_size, char **msg,
                  char **bus)
{
	if (!c || !c->has_comm)
		return 0;
	if (kind)
		*kind = c->comm_kind;
	if (group_size)
		*group_size = c->comm_group;
	char *m = msg ? tlc_count__to_str(&c->comm_msg) : NULL;
	char *b = NULL;
	if (bus) {
		mpq_t q;
		mpq_init(q);
		tlc_comm__bus_of(q, &c->comm_msg, c->comm_kind, c->comm_group);
		b = tlc_comm__q_str(q);
		mpq_clear(q);
	}
	if ((msg && !m) || (bus && !b)) {
		free(m);
		free(b);
		return tlc_error__oom();
	}
	if (msg)
		*msg = m;
	if (bus)
		*bus = b;
	return 1;
}

int tlc_eval_set_dist(tlc_eval *ev, const tlc_dist_info *d)
{
	if (!ev || !d || d->size < sizeof(tlc_dist_info))
		return bad_arg("tlc_eval_set_dist: bad argument");
	tlc_comm_acc *acc = tlc_eval__comm(ev);
	acc->dist.rank = d->rank;
	acc->dist.world_size = d->world_size;
	acc->dist.backend = NULL;
	if (d->backend) {
		snprintf(acc->backend, sizeof acc->backend, "%s", d->backend);
		acc->dist.backend = acc->backend;
	}
	acc->has_dist = 1;
	return 0;
}

const tlc_dist_info *tlc_eval_dist(const tlc_eval *ev)
{
	return ev && tlc_eval__comm(ev)->has_dist ? &tlc_eval__comm(ev)->dist : NULL;
}
