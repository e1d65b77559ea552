/* Merging device-time join partials (engine/report/merge_join.h).
 *
 * What adds: every launch, kernel and time count of the summary; per phase
 * the gate's attributed / ambiguous / unphased / total kernel time (the
 * share and verdict are recomputed from the sums, as one join over all the
 * inputs computes them); per device id the device's counts and times; the
 * unattributed remainder by kernel name; per collective kind the calls,
 * device time and exact bytes, and per phase the communication and overlap
 * time. What does not: the per-launch list and the ambiguous groups name
 * each input's own ops and launches (the merge omits them), and a string
 * that differs between inputs (state, path, profiler statement) is null.
 * Achieved bandwidth is formed again from the sums, only when every input
 * that had collectives passed its own gate. */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include "tlcost/tlcost.h"
#include "error.h"
#include "jsonw.h"
#include "join_comm.h"
#include "merge_join.h"
#include "reports.h"
#include "textw.h"

static const char *const sum_keys[] = {
	"launches", "kernels", "launches_attributed", "launches_ambiguous", "launches_unattributed",
	"kernels_attributed", "kernels_ambiguous", "kernels_unattributed", "device_ns", "busy_ns",
	"kernel_ns", "kernel_attributed_ns", "kernel_ambiguous_ns", "kernel_unattributed_ns",
	"kernel_internal_ns", "ambiguous_group_count", "launch_calls", "launch_calls_with_external",
	"launch_calls_external_matched", "launch_calls_external_self", "correlation_checked",
	"correlation_outside_host_interval",
	/* tlcost.join/3: the gate counts ops, not wrappers (docs/join.md) */
	"kernel_known_cost_ns", "kernels_on_wrapper", "kernel_on_wrapper_ns",
};
#define NSUM (sizeof sum_keys / sizeof sum_keys[0])

static const char *const ph_keys[] = { "attributed_ns", "ambiguous_ns", "unphased_ns", "total_ns",
	"on_wrapper_ns", "annotated_ns" };
#define NPH (sizeof ph_keys / sizeof ph_keys[0])
static const char *const dev_keys[] = { "launches", "busy_ns", "device_ns", "kernel_ns",
	"attributed_ns", "ambiguous_ns", "unattributed_ns", "internal_ns" };
#define NDEV (sizeof dev_keys / sizeof dev_keys[0])

/* A string every input agrees on, else null. */
typedef struct common {
	int seen, differs;
	char *text;          /* NULL: null */
} common;

typedef struct jdev {
	char *id;            /* the device number's text */
	mpz_t v[NDEV];
} jdev;

typedef struct jrem {
	char *name;
	mpz_t count, time;
} jrem;

/* A row that is not an op, per phase (tlcost.join/3 "wrappers"). */
typedef struct jwrap {
	char *name, *phase;
	mpz_t kernels, graph, time;
} jwrap;

struct tlc_mjoin {
	int any;
	uint64_t threshold;
	mpz_t sum[NSUM];
	common state, path, pstate, psource, pmessage;
	int present[TLC_PHASE_COUNT], gated[TLC_PHASE_COUNT];
	mpz_t ph[TLC_PHASE_COUNT][NPH];
	jdev *devs;
	size_t ndevs;
	jrem *rems;
	size_t nrems;
	jwrap *wraps;
	size_t nwraps;
	/* communication */
	int comm_any, comm_refused;
	common link;
	tlc_join__comm ct;   /* bw_* sums, ph_comm / ph_overlap, comm_ns / overlap_ns */
};

int tlc_mjoin__new(tlc_mjoin **out)
{
	tlc_mjoin *j = calloc(1, sizeof *j);
	if (!j)
		return tlc_error__oom();
	for (size_t i = 0; i < NSUM; i++)
		mpz_init(j->sum[i]);
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		for (size_t k = 0; k < NPH; k++)
			mpz_init(j->ph[p][k]);
	for (int k = 0; k < TLC_COMM_COUNT; k++) {
		mpz_init(j->ct.bw_msg[k]);
		mpq_init(j->ct.bw_bus[k]);
	}
	*out = j;
	return 0;
}

void tlc_mjoin__free(tlc_mjoin *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < NSUM; i++)
		mpz_clear(j->sum[i]);
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		for (size_t k = 0; k < NPH; k++)
			mpz_clear(j->ph[p][k]);
	for (size_t i = 0; i < j->nwraps; i++) {
		free(j->wraps[i].name), free(j->wraps[i].phase);
		mpz_clear(j->wraps[i].kernels), mpz_clear(j->wraps[i].graph), mpz_clear(j->wraps[i].time);
	}
	free(j->wraps);
	for (size_t i = 0; i < j->ndevs; i++) {
		free(j->devs[i].id);
		for (size_t k = 0; k < NDEV; k++)
			mpz_clear(j->devs[i].v[k]);
	}
	for (size_t i = 0; i < j->nrems; i++) {
		free(j->rems[i].name);
		mpz_clear(j->rems[i].count);
		mpz_clear(j->rems[i].time);
	}
	free(j->devs), free(j->rems);
	free(j->state.text), free(j->path.text), free(j->pstate.text), free(j->psource.text);
	free(j->pmessage.text), free(j->link.text);
	tlc_join__comm_free(&j->ct);
	free(j);
}

/* ---- validation ------------------------------------------------------ */

static int invalid(const char *name, const char *what)
{
	return tlc_error__set_pos(TLC_EINPUT, "merge_input_invalid", name, 0, 0,
	                          "give the JSON of `tlcost join --format json` or of "
	                          "`tlcost merge --format json` over join partials, unedited",
	                          "not a join partial: %s", what);
}

static int is_uint(const tlc_jnode *n) { return tlc_jtree__is_uint(n); }

static int is_rational(const tlc_jnode *n)
{
	if (!n || n->kind != TLC_J_STRING || !n->text[0])
		return 0;
	int slash = 0;
	for (const char *p = n->text; *p; p++)
		if (*p == '/' && !slash && p != n->text && p[1])
			slash = 1;
		else if (*p < '0' || *p > '9')
			return 0;
	return !slash || strcmp(strchr(n->text, '/') + 1, "0") != 0;
}

static int all_uint(const tlc_jnode *obj, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_uint(tlc_jtree__get(obj, keys[i])))
			return 0;
	return 1;
}

static int phase_index(const char *s)
{
	for (int p = 0; s && p < TLC_PHASE_COUNT; p++)
		if (strcmp(tlc_phase_name((tlc_phase)p), s) == 0)
			return p;
	return -1;
}

static int kind_index(const char *s)
{
	for (int k = 0; s && k < TLC_COMM_COUNT; k++)
		if (strcmp(tlc_comm_kind_name((tlc_comm_kind)k), s) == 0)
			return k;
	return -1;
}

static const char *jstr(const tlc_jnode *o, const char *k) { return tlc_jtree__str(o, k); }

static int check_comm(const tlc_jnode *c, const char *name)
{
	if (!c || c->kind == TLC_J_NULL)
		return 0;
	const tlc_jnode *ach = tlc_jtree__get(c, "achieved");
	if (c->kind != TLC_J_OBJECT || !ach || ach->kind != TLC_J_BOOL)
		return invalid(name, "communication is not null or an object with 'achieved'");
	if (!ach->boolean)
		return 0;
	const tlc_jnode *kinds = tlc_jtree__get(c, "kinds"), *ov = tlc_jtree__get(c, "overlap");
	if (!kinds || kinds->kind != TLC_J_OBJECT || !ov || ov->kind != TLC_J_OBJECT)
		return invalid(name, "achieved communication lacks kinds or overlap");
	static const char *const kk[] = { "calls", "timed_calls", "device_ns", "message_bytes" };
	for (const tlc_jnode *k = kinds->first; k; k = k->next)
		if (kind_index(k->key) < 0 || !all_uint(k, kk, 4) ||
		    !is_rational(tlc_jtree__get(k, "bus_bytes")))
			return invalid(name, "a communication kind lacks a known kind, counts or exact bytes");
	static const char *const ok[] = { "comm_ns", "overlap_ns" };
	for (const tlc_jnode *o = ov->first; o; o = o->next)
		if ((strcmp(o->key, "all") != 0 && phase_index(o->key) < 0) || !all_uint(o, ok, 2))
			return invalid(name, "an overlap entry lacks a known phase or its times");
	return 0;
}

int tlc_mjoin__check(const tlc_mjoin *j, const tlc_jnode *r, const char *name)
{
	if (!all_uint(r, sum_keys, NSUM))
		return invalid(name, "a summary count is missing or not a non-negative integer");
	const tlc_jnode *gate = tlc_jtree__get(r, "gate");
	const tlc_jnode *phs = tlc_jtree__get(gate, "phases");
	const tlc_jnode *th = tlc_jtree__get(gate, "threshold_permille");
	if (!is_uint(th) || !phs || phs->kind != TLC_J_ARRAY)
		return invalid(name, "gate, its threshold or its phases missing");
	if (j->any && strtoull(th->text, NULL, 10) != j->threshold)
		return tlc_error__set_pos(TLC_EINPUT, "merge_incompatible", name, 0, 0,
		                          "join every input with the same gate threshold",
		                          "gate threshold %s permille differs from the inputs merged "
		                          "so far (%llu)", th->text, (unsigned long long)j->threshold);
	for (const tlc_jnode *p = phs->first; p; p = p->next) {
		const tlc_jnode *pr = tlc_jtree__get(p, "present"), *gd = tlc_jtree__get(p, "gated");
		if (phase_index(jstr(p, "phase")) < 0 || !all_uint(p, ph_keys, NPH) || !pr ||
		    pr->kind != TLC_J_BOOL || !gd || gd->kind != TLC_J_BOOL)
			return invalid(name, "a gate phase lacks its name, flags or times");
	}
	const tlc_jnode *devs = tlc_jtree__get(r, "devices"), *rem = tlc_jtree__get(r, "remainder");
	if (!devs || devs->kind != TLC_J_ARRAY || !rem || rem->kind != TLC_J_ARRAY)
		return invalid(name, "devices or remainder missing");
	for (const tlc_jnode *d = devs->first; d; d = d->next) {
		const tlc_jnode *id = tlc_jtree__get(d, "device");
		if (!id || id->kind != TLC_J_NUMBER || !all_uint(d, dev_keys, NDEV))
			return invalid(name, "a device lacks its id or counts");
	}
	static const char *const rk[] = { "count", "time_ns" };
	for (const tlc_jnode *e = rem->first; e; e = e->next)
		if (!jstr(e, "name") || !all_uint(e, rk, 2))
			return invalid(name, "a remainder entry lacks its name, count or time");
	static const char *const wk[] = { "kernels", "graph_replays", "time_ns" };
	const tlc_jnode *wr = tlc_jtree__get(r, "wrappers");
	if (!wr || wr->kind != TLC_J_ARRAY)
		return invalid(name, "wrappers missing");
	for (const tlc_jnode *e = wr->first; e; e = e->next)
		if (!jstr(e, "name") || phase_index(jstr(e, "phase")) < 0 || !all_uint(e, wk, 3))
			return invalid(name, "a wrappers entry lacks its name, phase, counts or time");
	return check_comm(tlc_jtree__get(r, "communication"), name);
}

/* ---- folding --------------------------------------------------------- */

static void add_text(mpz_t acc, const char *text) { tlc_rep__mpz_add_digits(acc, text); }

static int agree(common *c, const char *s)
{
	if (!c->seen) {
		c->seen = 1;
		if (s && !(c->text = strdup(s)))
			return tlc_error__oom();
		return 0;
	}
	if (!c->differs && ((!s) != (!c->text) || (s && strcmp(s, c->text) != 0))) {
		c->differs = 1;
		free(c->text);
		c->text = NULL;
	}
	return 0;
}

static int fold_devices(tlc_mjoin *j, const tlc_jnode *devs)
{
	for (const tlc_jnode *d = devs->first; d; d = d->next) {
		const char *id = tlc_jtree__get(d, "device")->text;
		size_t i = 0;
		while (i < j->ndevs && strcmp(j->devs[i].id, id) != 0)
			i++;
		if (i == j->ndevs) {
			jdev *q = realloc(j->devs, (j->ndevs + 1) * sizeof *q);
			if (!q)
				return tlc_error__oom();
			j->devs = q;
			if (!(q[i].id = strdup(id)))
				return tlc_error__oom();
			for (size_t k = 0; k < NDEV; k++)
				mpz_init(q[i].v[k]);
			j->ndevs++;
		}
		for (size_t k = 0; k < NDEV; k++)
			add_text(j->devs[i].v[k], tlc_jtree__get(d, dev_keys[k])->text);
	}
	return 0;
}

static int fold_remainder(tlc_mjoin *j, const tlc_jnode *rem)
{
	for (const tlc_jnode *e = rem->first; e; e = e->next) {
		const char *nm = jstr(e, "name");
		size_t i = 0;
		while (i < j->nrems && strcmp(j->rems[i].name, nm) != 0)
			i++;
		if (i == j->nrems) {
			jrem *q = realloc(j->rems, (j->nrems + 1) * sizeof *q);
			if (!q)
				return tlc_error__oom();
			j->rems = q;
			if (!(q[i].name = strdup(nm)))
				return tlc_error__oom();
			mpz_init(q[i].count);
			mpz_init(q[i].time);
			j->nrems++;
		}
		add_text(j->rems[i].count, tlc_jtree__get(e, "count")->text);
		add_text(j->rems[i].time, tlc_jtree__get(e, "time_ns")->text);
	}
	return 0;
}

static int fold_wrappers(tlc_mjoin *j, const tlc_jnode *wr)
{
	for (const tlc_jnode *e = wr->first; e; e = e->next) {
		const char *nm = jstr(e, "name"), *ph = jstr(e, "phase");
		size_t i = 0;
		while (i < j->nwraps && (strcmp(j->wraps[i].name, nm) != 0 || strcmp(j->wraps[i].phase, ph) != 0))
			i++;
		if (i == j->nwraps) {
			jwrap *q = realloc(j->wraps, (j->nwraps + 1) * sizeof *q);
			if (!q)
				return tlc_error__oom();
			j->wraps = q;
			q[i].name = strdup(nm);
			q[i].phase = strdup(ph);
			mpz_init(q[i].kernels), mpz_init(q[i].graph), mpz_init(q[i].time);
			j->nwraps++;
			if (!q[i].name || !q[i].phase)
				return tlc_error__oom();
		}
		add_text(j->wraps[i].kernels, tlc_jtree__get(e, "kernels")->text);
		add_text(j->wraps[i].graph, tlc_jtree__get(e, "graph_replays")->text);
		add_text(j->wraps[i].time, tlc_jtree__get(e, "time_ns")->text);
	}
	return 0;
}

static int64_t jns(const tlc_jnode *o, const char *k)
{
	return strtoll(tlc_jtree__get(o, k)->text, NULL, 10);
}

static int fold_comm(tlc_mjoin *j, const tlc_jnode *c)
{
	if (!c || c->kind == TLC_J_NULL)
		return 0;
	j->comm_any = 1;
	if (!tlc_jtree__get(c, "achieved")->boolean) {
		j->comm_refused = 1;
		return 0;
	}
	const tlc_jnode *link = tlc_jtree__get(c, "link");
	int rc = agree(&j->link, link && link->kind == TLC_J_OBJECT ? jstr(link, "id") : NULL);
	tlc_join__comm *t = &j->ct;
	for (const tlc_jnode *k = tlc_jtree__get(c, "kinds")->first; k; k = k->next) {
		int x = kind_index(k->key);
		t->bw_calls[x] += strtoull(tlc_jtree__get(k, "calls")->text, NULL, 10);
		t->bw_timed[x] += strtoull(tlc_jtree__get(k, "timed_calls")->text, NULL, 10);
		t->bw_ns[x] += jns(k, "device_ns");
		add_text(t->bw_msg[x], tlc_jtree__get(k, "message_bytes")->text);
		mpq_t q;
		mpq_init(q);
		mpq_set_str(q, tlc_jtree__get(k, "bus_bytes")->text, 10);
		mpq_canonicalize(q);
		mpq_add(t->bw_bus[x], t->bw_bus[x], q);
		mpq_clear(q);
	}
	for (const tlc_jnode *o = tlc_jtree__get(c, "overlap")->first; o; o = o->next) {
		int p = phase_index(o->key);
		*(p < 0 ? &t->comm_ns : &t->ph_comm[p]) += jns(o, "comm_ns");
		*(p < 0 ? &t->overlap_ns : &t->ph_overlap[p]) += jns(o, "overlap_ns");
	}
	return rc;
}

int tlc_mjoin__fold(tlc_mjoin *j, const tlc_jnode *r)
{
	const tlc_jnode *gate = tlc_jtree__get(r, "gate");
	j->threshold = strtoull(tlc_jtree__get(gate, "threshold_permille")->text, NULL, 10);
	j->any = 1;
	for (size_t i = 0; i < NSUM; i++)
		add_text(j->sum[i], tlc_jtree__get(r, sum_keys[i])->text);
	const tlc_jnode *prof = tlc_jtree__get(r, "profiler");
	int rc = agree(&j->state, jstr(r, "state"));
	if (rc == 0)
		rc = agree(&j->path, jstr(r, "path"));
	if (rc == 0)
		rc = agree(&j->pstate, jstr(prof, "state"));
	if (rc == 0)
		rc = agree(&j->psource, jstr(prof, "source"));
	if (rc == 0)
		rc = agree(&j->pmessage, jstr(prof, "message"));
	for (const tlc_jnode *p = tlc_jtree__get(gate, "phases")->first; p; p = p->next) {
		int x = phase_index(jstr(p, "phase"));
		j->present[x] |= tlc_jtree__get(p, "present")->boolean;
		j->gated[x] |= tlc_jtree__get(p, "gated")->boolean;
		for (size_t k = 0; k < NPH; k++)
			add_text(j->ph[x][k], tlc_jtree__get(p, ph_keys[k])->text);
	}
	if (rc == 0)
		rc = fold_devices(j, tlc_jtree__get(r, "devices"));
	if (rc == 0)
		rc = fold_remainder(j, tlc_jtree__get(r, "remainder"));
	if (rc == 0)
		rc = fold_wrappers(j, tlc_jtree__get(r, "wrappers"));
	if (rc == 0)
		rc = fold_comm(j, tlc_jtree__get(r, "communication"));
	return rc;
}

/* ---- output ---------------------------------------------------------- */

static void jz(yajl_gen g, const char *k, const mpz_t z) { tlc_rep__json_mpz(g, k, z); }

/* The share and verdict of one phase, from its sums (join.c's rule). */
static void phase_verdict(const tlc_mjoin *j, int p, uint64_t *share, int *passed)
{
	mpz_t a, t;
	mpz_init(a), mpz_init(t);
	*share = 0;
	if (mpz_sgn(j->ph[p][3]) > 0) {
		mpz_mul_ui(a, j->ph[p][0], 1000);
		mpz_tdiv_q(a, a, j->ph[p][3]);
		*share = mpz_get_ui(a);
	}
	mpz_mul_ui(a, j->ph[p][0], 1000);
	mpz_mul_ui(t, j->ph[p][3], j->threshold);
	*passed = !j->present[p] || mpz_cmp(a, t) >= 0;
	mpz_clear(a), mpz_clear(t);
}

static int gate_passed(const tlc_mjoin *j)
{
	int any = 0, ok = 1;
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		uint64_t share;
		int passed;
		phase_verdict(j, p, &share, &passed);
		if (j->gated[p]) {
			any |= j->present[p];
			ok &= passed;
		}
	}
	return any && ok && j->state.text && strcmp(j->state.text, "joined") == 0;
}

static void json_gate(yajl_gen g, const tlc_mjoin *j)
{
	tlc_jsonw__key(g, "gate");
	yajl_gen_map_open(g);
	tlc_jsonw__kuint(g, "threshold_permille", j->threshold);
	tlc_jsonw__kbool(g, "passed", gate_passed(j));
	tlc_jsonw__key(g, "phases");
	yajl_gen_array_open(g);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		uint64_t share;
		int passed;
		phase_verdict(j, p, &share, &passed);
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "phase", tlc_phase_name((tlc_phase)p));
		tlc_jsonw__kbool(g, "present", j->present[p]);
		tlc_jsonw__kbool(g, "gated", j->gated[p]);
		for (size_t k = 0; k < NPH; k++)
			jz(g, ph_keys[k], j->ph[p][k]);
		tlc_jsonw__kuint(g, "share_permille", share);
		tlc_jsonw__kbool(g, "passed", passed);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
}

static int cmp_dev(const void *pa, const void *pb)
{
	const jdev *a = *(const jdev *const *)pa, *b = *(const jdev *const *)pb;
	long long x = strtoll(a->id, NULL, 10), y = strtoll(b->id, NULL, 10);
	return (x > y) - (x < y);
}

static int cmp_rem(const void *pa, const void *pb)
{
	const jrem *a = *(const jrem *const *)pa, *b = *(const jrem *const *)pb;
	int c = mpz_cmp(b->time, a->time);
	return c ? c : strcmp(a->name, b->name);
}

static int cmp_wrap(const void *pa, const void *pb)
{
	const jwrap *a = *(const jwrap *const *)pa, *b = *(const jwrap *const *)pb;
	int c = mpz_cmp(b->time, a->time);
	if (!c)
		c = strcmp(a->name, b->name);
	return c ? c : phase_index(a->phase) - phase_index(b->phase);
}

static int json_lists(yajl_gen g, const tlc_mjoin *j)
{
	size_t n = j->ndevs > j->nrems ? j->ndevs : j->nrems;
	n = n > j->nwraps ? n : j->nwraps;
	const void **v = malloc((n + 1) * sizeof *v);
	if (!v)
		return tlc_error__oom();
	for (size_t i = 0; i < j->ndevs; i++)
		v[i] = &j->devs[i];
	qsort(v, j->ndevs, sizeof *v, cmp_dev);
	tlc_jsonw__key(g, "devices");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < j->ndevs; i++) {
		const jdev *d = v[i];
		yajl_gen_map_open(g);
		tlc_jsonw__knum(g, "device", d->id);
		for (size_t k = 0; k < NDEV; k++)
			jz(g, dev_keys[k], d->v[k]);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	for (size_t i = 0; i < j->nrems; i++)
		v[i] = &j->rems[i];
	qsort(v, j->nrems, sizeof *v, cmp_rem);
	tlc_jsonw__key(g, "remainder");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < j->nrems; i++) {
		const jrem *e = v[i];
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "name", e->name);
		jz(g, "count", e->count);
		jz(g, "time_ns", e->time);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	for (size_t i = 0; i < j->nwraps; i++)
		v[i] = &j->wraps[i];
	qsort(v, j->nwraps, sizeof *v, cmp_wrap);
	tlc_jsonw__key(g, "wrappers");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < j->nwraps; i++) {
		const jwrap *w = v[i];
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "name", w->name);
		tlc_jsonw__kstr(g, "phase", w->phase);
		jz(g, "kernels", w->kernels);
		jz(g, "graph_replays", w->graph);
		jz(g, "time_ns", w->time);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	free(v);
	return 0;
}

static void json_comm(yajl_gen g, const tlc_mjoin *j)
{
	tlc_jsonw__key(g, "communication");
	if (!j->comm_any) {
		yajl_gen_null(g);
		return;
	}
	yajl_gen_map_open(g);
	tlc_jsonw__kbool(g, "achieved", !j->comm_refused);
	tlc_jsonw__kstr(g, "refused", j->comm_refused ? "a merged input's device-time join did "
	                "not pass its gate: its collectives' device time is not known well enough "
	                "to divide their bytes by" : NULL);
	if (j->comm_refused) {
		yajl_gen_map_close(g);
		return;
	}
	const tlc_link_preset *link = NULL;
	if (j->link.text && tlc_link_find(&link, j->link.text) < 0)
		link = NULL; /* a preset of another version: no ceiling rather than a wrong one */
	tlc_join__comm_achieved_json(g, &j->ct, link);
	yajl_gen_map_close(g);
}

int tlc_mjoin__json(yajl_gen g, const tlc_mjoin *j)
{
	tlc_jsonw__kstr(g, "state", j->state.text);
	tlc_jsonw__kstr(g, "path", j->path.text);
	tlc_jsonw__kstr(g, "path_reason", NULL);
	tlc_jsonw__key(g, "profiler");
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "state", j->pstate.text);
	tlc_jsonw__kstr(g, "source", j->psource.text);
	tlc_jsonw__kstr(g, "message", j->pmessage.text);
	yajl_gen_map_close(g);
	for (size_t i = 0; i < NSUM; i++)
		jz(g, sum_keys[i], j->sum[i]);
	json_gate(g, j);
	int rc = json_lists(g, j);
	json_comm(g, j);
	return rc;
}

void tlc_mjoin__text(FILE *out, const tlc_mjoin *j)
{
	/* sum_keys[10], [11]: kernel_ns, kernel_attributed_ns */
	char *k = mpz_get_str(NULL, 10, j->sum[10]), *a = mpz_get_str(NULL, 10, j->sum[11]);
	tlc_digits dk = { 0 }, da = { 0 };
	fprintf(out, "device-time join: %s; kernel time %s ns, attributed %s ns\n",
	        j->state.text ? j->state.text : "(inputs differ)", tlc_textw__group(&dk, k),
	        tlc_textw__group(&da, a));
	tlc_textw__digits_free(&dk);
	tlc_textw__digits_free(&da);
	void (*freefn)(void *, size_t);
	mp_get_memory_functions(NULL, NULL, &freefn);
	freefn(k, strlen(k) + 1);
	freefn(a, strlen(a) + 1);
	fprintf(out, "gate (>= %.1f%% of kernel time attributed, forward and backward separately, "
	             "over the merged sums): %s\n", j->threshold / 10.0,
	        gate_passed(j) ? "PASSED" : "FAILED");
	if (!j->comm_any)
		return;
	if (j->comm_refused) {
		fprintf(out, "communication: achieved bandwidth refused: a merged input's join did "
		             "not pass its gate\n");
		return;
	}
	const tlc_link_preset *link = NULL;
	if (j->link.text && tlc_link_find(&link, j->link.text) < 0)
		link = NULL;
	fprintf(out, "communication (achieved, from the merged sums):\n");
	for (int x = 0; x < TLC_COMM_COUNT; x++) {
		if (!j->ct.bw_calls[x])
			continue;
		fprintf(out, "  %-14s ", tlc_comm_kind_name((tlc_comm_kind)x));
		tlc_join__comm_kind_text(out, &j->ct, x, link);
	}
}
