/* Communication through a device-time join: device times, overlap and
 * achieved bandwidth (engine/join/join_comm.h). Moved here from
 * engine/report/ranks.c so that `tlcost join`, `tlcost ranks` and `tlcost
 * steps` share one computation (tlc_join__spans, tlc_join__times_in). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "join_comm.h"
#include "eval.h"
#include "error.h"
#include "join.h"
#include "jsonw.h"

static int is_comm_kernel(const char *name)
{
	if (!name)
		return 0;
	for (const char *p = name; p[0] && p[1] && p[2] && p[3]; p++)
		if ((tolower((unsigned char)p[0]) == 'n' || tolower((unsigned char)p[0]) == 'r') &&
		    tolower((unsigned char)p[1]) == 'c' && tolower((unsigned char)p[2]) == 'c' &&
		    tolower((unsigned char)p[3]) == 'l')
			return 1;
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const tlc_join__span *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

typedef tlc_join__sel span_sel;

/* The span v clipped by sel into [*s, *e]; 0 when not selected. */
static int pick(const tlc_join__span *v, const span_sel *sel, int64_t *s, int64_t *e)
{
	if (v->what > sel->what_max || (sel->want >= 0 && v->comm != sel->want) ||
	    (sel->phase >= 0 && v->phase != sel->phase) || (sel->tag_max >= 0 && v->tag > sel->tag_max))
		return 0;
	*s = v->start > sel->lo ? v->start : sel->lo;
	*e = v->end < sel->hi ? v->end : sel->hi;
	return *e >= *s;
}

/* Union length of the sorted spans that sel picks. */
static int64_t union_ns(const tlc_join__span *v, size_t n, const span_sel *sel)
{
	int64_t total = 0, cs = 0, ce = INT64_MIN, s, e;
	for (size_t i = 0; i < n; i++) {
		if (!pick(&v[i], sel, &s, &e))
			continue;
		if (s > ce) {
			if (ce > cs)
				total += ce - cs;
			cs = s;
			ce = e;
		} else if (e > ce) {
			ce = e;
		}
	}
	if (ce > cs && ce != INT64_MIN)
		total += ce - cs;
	return total;
}

int64_t tlc_join__union_in(const tlc_join__span *v, size_t n, const tlc_join__sel *sel)
{
	return union_ns(v, n, sel);
}

/* The next merged (disjoint) interval of the spans sel picks from v[*i] on,
 * into [*s, *e]; 0 when none is left. Spans merge when one starts at or
 * before the running end. The intervals are produced in order, one at a
 * time, so the overlap needs no copy of the kernels. */
static int next_merged(const tlc_join__span *v, size_t n, size_t *i, const span_sel *sel,
                       int64_t *s, int64_t *e)
{
	size_t k = *i;
	int64_t ks, ke;
	while (k < n && !pick(&v[k], sel, s, e))
		k++;
	if (k >= n) {
		*i = k;
		return 0;
	}
	for (k++; k < n; k++) {
		if (!pick(&v[k], sel, &ks, &ke))
			continue;
		if (ks > *e)
			break;
		if (ke > *e)
			*e = ke;
	}
	*i = k;
	return 1;
}

/* Communication kernel time (of one phase, or all with -1) during which a
 * compute kernel runs (the sorted spans' merged comm intervals of that
 * phase against merged compute intervals of any phase), within [lo, hi). */
static int64_t overlap_of(const tlc_join__span *v, size_t n, int phase, int64_t lo, int64_t hi)
{
	span_sel cs = { TLC_JOIN__KERNEL, 1, phase, -1, lo, hi };
	span_sel ks = { TLC_JOIN__KERNEL, 0, -1, -1, lo, hi };
	size_t ia = 0, ib = 0;
	int64_t as = 0, ae = 0, bs = 0, be = 0, total = 0;
	int ha = next_merged(v, n, &ia, &cs, &as, &ae);
	int hb = ha && next_merged(v, n, &ib, &ks, &bs, &be);
	while (ha && hb) {
		int64_t l = as > bs ? as : bs;
		int64_t h = ae < be ? ae : be;
		if (h > l)
			total += h - l;
		if (ae < be)
			ha = next_merged(v, n, &ia, &cs, &as, &ae);
		else
			hb = next_merged(v, n, &ib, &ks, &bs, &be);
	}
	return total;
}

void tlc_join__times_in(tlc_join__times *out, const tlc_join__span *v, size_t n, int64_t lo,
                        int64_t hi)
{
	span_sel all = { TLC_JOIN__KERNEL, -1, -1, -1, lo, hi };
	span_sel comm = { TLC_JOIN__KERNEL, 1, -1, -1, lo, hi };
	span_sel comp = { TLC_JOIN__KERNEL, 0, -1, -1, lo, hi };
	out->kernel_ns = union_ns(v, n, &all);
	out->comm_ns = union_ns(v, n, &comm);
	out->compute_ns = union_ns(v, n, &comp);
	out->overlap_ns = overlap_of(v, n, -1, lo, hi);
}

/* The device work of ev, each with the phase and collective kind of its op
 * (from the join; -1 without one). */
int tlc_join__spans(tlc_join__span **out, size_t *n, const tlc_eval *ev, const tlc_join *j,
                    int copies)
{
	size_t cnt = j ? tlc_join_launch_count(j) : 0;
	tlc_join__span *v = malloc((cnt + 1) * sizeof *v);
	if (!v)
		return tlc_error__oom();
	size_t k = 0;
	for (size_t i = 0; i < cnt; i++) {
		tlc_join_launch l_ = tlc_join__launch(j, i);
		const tlc_join_launch *l = &l_;
		tlc_device_record r = tlc_eval__device(ev, l->rec);
		int copy = r.kind == TLC_DEVICE_MEMCPY || r.kind == TLC_DEVICE_MEMSET;
		if ((r.kind != TLC_DEVICE_KERNEL && !(copies && copy)) || r.end_ns < r.start_ns)
			continue;
		tlc_join__span s = { r.start_ns, r.end_ns, r.device, INT64_MIN, (uint32_t)i, -1, -1,
		                     (uint8_t)(!copy && is_comm_kernel(r.name)),
		                     copy ? TLC_JOIN__COPY : TLC_JOIN__KERNEL, 0 };
		if (copies && l->runtime >= 0) /* (steps' pending launches; join and ranks need none) */
			s.queued = tlc_eval__device(ev, (size_t)l->runtime).start_ns;
		if (l->op_row >= 0) {
			tlc_op_row row_ = tlc_eval__row(ev, (size_t)l->op_row);
			const tlc_op_row *row = &row_;
			int64_t counted = -1;
			if (row)
				s.phase = (int8_t)row->phase;
			if (tlc_join_rollup(&counted, j, (size_t)l->op_row) == 0 && counted >= 0) {
				tlc_op_row c_ = tlc_eval__row(ev, (size_t)counted);
				const tlc_op_row *c = &c_;
				tlc_comm_kind kind;
				if (c && tlc_cost_comm(c->cost, &kind, NULL, NULL, NULL) == 1)
					s.kind = (int8_t)kind;
			}
		}
		v[k++] = s;
	}
	int sorted = 1; /* launches mostly come in start order: no sort, no copy */
	for (size_t i = 1; i < k && sorted; i++)
		sorted = by_start(&v[i - 1], &v[i]) <= 0;
	if (!sorted)
		qsort(v, k, sizeof *v, by_start);
	*out = v;
	*n = k;
	return 0;
}

/* The kernels of all[0..nall) (tlc_join__spans with copies) as
 * tlc_join__spans without copies returns them, element for element: in
 * launch order (each launch is one span at most: placed by its index, no
 * sort), then the same check and the same sort. */
static int kernel_spans(tlc_join__span **out, size_t *n, const tlc_join *j,
                        const tlc_join__span *all, size_t nall)
{
	size_t cnt = j ? tlc_join_launch_count(j) : 0, k = 0;
	tlc_join__span *v = malloc((cnt + 1) * sizeof *v);
	size_t *at = malloc((cnt + 1) * sizeof *at);
	if (!v || !at) {
		free(v);
		free(at);
		return tlc_error__oom();
	}
	for (size_t i = 0; i < cnt; i++)
		at[i] = SIZE_MAX;
	for (size_t i = 0; i < nall; i++)
		if (all[i].what == TLC_JOIN__KERNEL && all[i].launch < cnt)
			at[all[i].launch] = i;
	for (size_t i = 0; i < cnt; i++)
		if (at[i] != SIZE_MAX) {
			v[k] = all[at[i]];
			v[k].queued = INT64_MIN; /* set with copies only */
			v[k++].tag = 0;          /* the caller's */
		}
	free(at);
	int sorted = 1;
	for (size_t i = 1; i < k && sorted; i++)
		sorted = by_start(&v[i - 1], &v[i]) <= 0;
	if (!sorted)
		qsort(v, k, sizeof *v, by_start);
	*out = v;
	*n = k;
	return 0;
}

static int device_times(tlc_join__comm *w, const tlc_eval *ev, const tlc_join *j,
                        const tlc_join__span *given, size_t ngiven)
{
	tlc_join__span *v = NULL;
	size_t n = 0;
	int rc = given ? kernel_spans(&v, &n, j, given, ngiven) : tlc_join__spans(&v, &n, ev, j, 0);
	if (rc < 0)
		return rc;
	w->first = n ? v[0].start : 0;
	w->last = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].end > w->last)
			w->last = v[i].end;
	tlc_join__times t;
	tlc_join__times_in(&t, v, n, INT64_MIN, INT64_MAX);
	w->kernel_ns = t.kernel_ns;
	w->comm_ns = t.comm_ns;
	w->compute_ns = t.compute_ns;
	w->overlap_ns = t.overlap_ns;
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		span_sel all = { TLC_JOIN__KERNEL, -1, p, -1, INT64_MIN, INT64_MAX };
		span_sel comm = { TLC_JOIN__KERNEL, 1, p, -1, INT64_MIN, INT64_MAX };
		w->ph_kernel[p] = union_ns(v, n, &all);
		w->ph_comm[p] = union_ns(v, n, &comm);
		w->ph_overlap[p] = overlap_of(v, n, p, INT64_MIN, INT64_MAX);
	}
	size_t nc = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].comm)
			v[nc++] = v[i];
	/* keep only the communication kernels: the row must not hold every launch */
	tlc_join__span *cc = realloc(v, (nc ? nc : 1) * sizeof *cc);
	w->colls = cc ? cc : v;
	w->ncolls = nc;
	int oom = w->overlap_ns < 0;
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		oom |= w->ph_overlap[p] < 0;
	return oom ? tlc_error__oom() : 0;
}

/* Per kind, the collectives' message and bus bytes and their rolled-up
 * kernel time, when the join passed its gate (contract section 7: no
 * achieved figure without it). */
static int achieved(tlc_join__comm *w, const tlc_eval *ev, const tlc_join *j)
{
	w->gate_passed = j && tlc_join_summary_get(j)->gate_passed;
	if (!w->gate_passed)
		return 0;
	for (size_t i = 0; i < tlc_eval_op_count(ev); i++) {
		tlc_op_row row_ = tlc_eval__row(ev, i);
		const tlc_op_row *row = &row_;
		tlc_comm_kind k;
		char *m = NULL, *b = NULL;
		if (row->cls != TLC_CLASS_KNOWN)
			continue;
		int rc = tlc_cost_comm(row->cost, &k, NULL, &m, &b);
		if (rc < 0)
			return rc;
		if (rc == 0)
			continue;
		int64_t t = tlc_join_counted_kernel_ns(j, i);
		if (w->nbw == w->bwcap) {
			size_t c = w->bwcap ? w->bwcap * 2 : 16;
			tlc_join__coll *q = realloc(w->bw_list, c * sizeof *q);
			if (!q) {
				tlc_free(m);
				tlc_free(b);
				return tlc_error__oom();
			}
			w->bw_list = q;
			w->bwcap = c;
		}
		w->bw_calls[k]++;
		if (t > 0) {
			tlc_join__comm_add_bytes(w->bw_msg[k], w->bw_bus[k], m, b);
			w->bw_timed[k]++;
			w->bw_ns[k] += t;
		}
		w->bw_list[w->nbw++] = (tlc_join__coll){ (int)k, (int)row->phase, t > 0 ? t : 0, m, b };
	}
	return 0;
}


int tlc_join__comm_compute(tlc_join__comm *c, const tlc_eval *ev, const tlc_join *j)
{
	return tlc_join__comm_compute_spans(c, ev, j, NULL, 0);
}

int tlc_join__comm_compute_spans(tlc_join__comm *c, const tlc_eval *ev, const tlc_join *j,
                                 const tlc_join__span *all, size_t nall)
{
	memset(c, 0, sizeof *c);
	for (int k = 0; k < TLC_COMM_COUNT; k++) {
		mpz_init(c->bw_msg[k]);
		mpq_init(c->bw_bus[k]);
	}
	c->joined = j && tlc_join_summary_get(j)->launches_attributed > 0;
	int rc = device_times(c, ev, j, all, nall);
	if (rc == 0)
		rc = achieved(c, ev, j);
	return rc;
}

void tlc_join__comm_free(tlc_join__comm *c)
{
	for (int k = 0; k < TLC_COMM_COUNT; k++) {
		mpz_clear(c->bw_msg[k]);
		mpq_clear(c->bw_bus[k]);
	}
	free(c->colls);
	for (size_t i = 0; i < c->nbw; i++) {
		tlc_free(c->bw_list[i].msg);
		tlc_free(c->bw_list[i].bus);
	}
	free(c->bw_list);
	memset(c, 0, sizeof *c);
}

int tlc_join__comm_any(const tlc_join__comm *c)
{
	if (c->ncolls)
		return 1;
	for (int k = 0; k < TLC_COMM_COUNT; k++)
		if (c->bw_calls[k])
			return 1;
	return 0;
}

void tlc_join__comm_kinds_json(yajl_gen g, const tlc_join__comm *c, const tlc_link_preset *link)
{
	for (int k = 0; k < TLC_COMM_COUNT; k++) {
		if (!c->bw_calls[k])
			continue;
		tlc_jsonw__key(g, tlc_comm_kind_name((tlc_comm_kind)k));
		yajl_gen_map_open(g);
		tlc_jsonw__kuint(g, "calls", c->bw_calls[k]);
		tlc_jsonw__kuint(g, "timed_calls", c->bw_timed[k]);
		tlc_jsonw__kint(g, "device_ns", c->bw_ns[k]);
		char *m = mpz_get_str(NULL, 10, c->bw_msg[k]), *b = mpq_get_str(NULL, 10, c->bw_bus[k]);
		tlc_jsonw__knum(g, "message_bytes", m);
		tlc_jsonw__kstr(g, "bus_bytes", b);
		void (*freefn)(void *, size_t);
		mp_get_memory_functions(NULL, NULL, &freefn);
		freefn(m, strlen(m) + 1);
		freefn(b, strlen(b) + 1);
		if (c->bw_ns[k]) {
			double sec = (double)c->bw_ns[k] / 1e9;
			double bus = mpq_get_d(c->bw_bus[k]) / sec;
			tlc_jsonw__kdouble(g, "achieved_algbw_bytes_per_s", mpz_get_d(c->bw_msg[k]) / sec);
			tlc_jsonw__kdouble(g, "achieved_busbw_bytes_per_s", bus);
			if (link)
				tlc_jsonw__kdouble(g, "share_of_link", bus / link->bytes_per_s);
		}
		yajl_gen_map_close(g);
	}
}

void tlc_join__comm_kind_text(FILE *out, const tlc_join__comm *c, int k,
                              const tlc_link_preset *link)
{
	fprintf(out, "x%-4llu (%llu with kernel time): device %.3f ms",
	        (unsigned long long)c->bw_calls[k], (unsigned long long)c->bw_timed[k],
	        (double)c->bw_ns[k] / 1e6);
	if (!c->bw_ns[k]) {
		fprintf(out, ", no kernel time attributed: no bandwidth\n");
		return;
	}
	double sec = (double)c->bw_ns[k] / 1e9;
	double alg = mpz_get_d(c->bw_msg[k]) / sec, bus = mpq_get_d(c->bw_bus[k]) / sec;
	fprintf(out, ", achieved algbw %.2f GB/s, achieved busbw %.2f GB/s", alg / 1e9, bus / 1e9);
	if (link)
		fprintf(out, " = %.1f%% of %s (%.1f GB/s)", 100.0 * bus / link->bytes_per_s, link->id,
		        link->bytes_per_s / 1e9);
	fprintf(out, "\n");
}

void tlc_join__comm_achieved_json(yajl_gen g, const tlc_join__comm *c, const tlc_link_preset *link)
{
	tlc_jsonw__key(g, "link");
	if (link) {
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "id", link->id);
		tlc_jsonw__kdouble(g, "bytes_per_s", link->bytes_per_s);
		tlc_jsonw__kstr(g, "source", link->source);
		yajl_gen_map_close(g);
	} else {
		yajl_gen_null(g);
	}
	tlc_jsonw__key(g, "kinds");
	yajl_gen_map_open(g);
	tlc_join__comm_kinds_json(g, c, link);
	yajl_gen_map_close(g);
	tlc_jsonw__key(g, "overlap");
	yajl_gen_map_open(g);
	for (int p = 0; p <= TLC_PHASE_COUNT; p++) {
		int all = p == TLC_PHASE_COUNT;
		int64_t cn = all ? c->comm_ns : c->ph_comm[p], on = all ? c->overlap_ns : c->ph_overlap[p];
		if (!all && !cn)
			continue;
		tlc_jsonw__key(g, all ? "all" : tlc_phase_name((tlc_phase)p));
		yajl_gen_map_open(g);
		tlc_jsonw__kint(g, "comm_ns", cn);
		tlc_jsonw__kint(g, "overlap_ns", on);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
}

void tlc_join__comm_add_bytes(mpz_t msg, mpq_t bus, const char *m, const char *b)
{
	mpz_t z;
	mpq_t q;
	mpz_init_set_str(z, m, 10);
	mpq_init(q);
	mpq_set_str(q, b, 10);
	mpz_add(msg, msg, z);
	mpq_add(bus, bus, q);
	mpz_clear(z);
	mpq_clear(q);
}

void tlc_join__dist_json(yajl_gen g, const tlc_eval *ev)
{
	tlc_join__dist_info_json(g, tlc_eval_dist(ev));
}

void tlc_join__dist_info_json(yajl_gen g, const tlc_dist_info *d)
{
	if (!d)
		return;
	tlc_jsonw__key(g, "distributed");
	yajl_gen_map_open(g);
	if (d->rank >= 0)
		tlc_jsonw__kint(g, "rank", d->rank);
	else
		tlc_jsonw__knull(g, "rank");
	if (d->world_size >= 1)
		tlc_jsonw__kint(g, "world_size", d->world_size);
	else
		tlc_jsonw__knull(g, "world_size");
	tlc_jsonw__kstr(g, "backend", d->backend);
	yajl_gen_map_close(g);
}
