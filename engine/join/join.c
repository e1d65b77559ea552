/* The device-time join (contract section 8): launches -> runtime calls ->
 * ops, by correlation ids first, by host-thread containment when the
 * external ids are unusable; then per-op, per-device and per-phase times,
 * the named remainder and the 95% gate. Never by name matching. */
#include <stdlib.h>
#include <string.h>
#include "eval.h"
#include "join.h"
#include "hindex.h"
#include "rows.h"

typedef struct jctx {
	tlc_join *j;
	tlc_eval *ev;
	const tlc_rows *rows;   /* the eval's kept rows */
	const tlc_devs *devs;   /* and device records */
	const tlc_allocator *a;
	size_t ndev, nrows;
	uint32_t *host_by_corr; /* host record indices with a correlation, sorted */
	size_t nhost;
	uint32_t *row_by_corr;  /* row indices with correlation >= 0, sorted */
	size_t nrowc;
	uint8_t *owns_launch;   /* per device record: a host call some launch names */
	size_t *cand_off, *cand_n; /* per device record: containment candidates */
	size_t *cand_pool;
	size_t ncand, candcap;
	size_t *buf;            /* candidates of one launch */
	size_t nbuf, bufcap;
	tlc_hindex group_index;  /* hash of a group's row set -> group index */
	struct keyed *annots;   /* phase annotations: (thread, start, end), i = phase */
	int64_t *annot_reach;   /* per annotation: latest end of the thread's up to it */
	size_t nannots;
	size_t *goff;
	size_t grows_cap, ngrows, groupcap;
} jctx;

static int is_launch(tlc_device_kind k)
{
	return k == TLC_DEVICE_KERNEL || k == TLC_DEVICE_MEMCPY || k == TLC_DEVICE_MEMSET;
}

static int is_host(tlc_device_kind k)
{
	return k == TLC_DEVICE_RUNTIME || k == TLC_DEVICE_DRIVER;
}

/* Duration of record i, 0 for a reversed interval, saturated for absurd ones. */
static int64_t dur_of(const tlc_devs *d, size_t i)
{
	int64_t s = tlc_devs__start(d, i), e = tlc_devs__end(d, i);
	if (e <= s)
		return 0;
	uint64_t u = (uint64_t)e - (uint64_t)s;
	return u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
}

/* The causes of unattributed launches, by tlc_jlaunch.why (0: none). */
static const char *const why_text[] = { NULL, TLC_JOIN_WHY_NO_CORRELATION, TLC_JOIN_WHY_NO_RUNTIME,
                                        TLC_JOIN_WHY_NO_PATH, TLC_JOIN_WHY_GRAPH, TLC_JOIN_WHY_NO_OP,
                                        TLC_JOIN_WHY_PAIR_NO_MATCH, TLC_JOIN_WHY_PAIR_AMBIGUOUS,
                                        TLC_JOIN_WHY_PAIR_NO_OP };
enum { WHY_NONE, WHY_NO_CORRELATION, WHY_NO_RUNTIME, WHY_NO_PATH, WHY_GRAPH, WHY_NO_OP,
       WHY_PAIR_NO_MATCH, WHY_PAIR_AMBIGUOUS, WHY_PAIR_NO_OP };

static int is_kernel(const tlc_devs *d, size_t i)
{
	return tlc_devs__kind(d, i)->kind == TLC_DEVICE_KERNEL;
}

/* e - s for s <= e, saturated (the difference may not fit int64). */
static int64_t span(int64_t s, int64_t e)
{
	uint64_t d = (uint64_t)e - (uint64_t)s;
	return e <= s ? 0 : d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
}

/* Sums of non-negative times saturate instead of wrapping (hostile input). */
#define SAT_ADD(acc, v) ((acc) = ((v) > INT64_MAX - (acc) ? INT64_MAX : (acc) + (v)))

const char *tlc_join_path_name(tlc_join_path p)
{
	switch (p) {
	case TLC_JOIN_PATH_CORRELATION: return "correlation";
	case TLC_JOIN_PATH_CONTAINMENT: return "containment";
	default: return "none";
	}
}

const char *tlc_join_state_name(tlc_join_state s)
{
	switch (s) {
	case TLC_JOIN_EMPTY: return "empty";
	case TLC_JOIN_PARTIAL: return "partial";
	case TLC_JOIN_JOINED: return "joined";
	default: return "unavailable";
	}
}

/* ---------------------------------------------------------------- */
/* indices                                                           */
/* ---------------------------------------------------------------- */

static int cmp_i64(int64_t a, int64_t b) { return (a > b) - (a < b); }

/* qsort has no context: sort (key, index) pairs instead. */
typedef struct keyed {
	int64_t k1, k2, k3;
	size_t i;
} keyed;

static int cmp_keyed(const void *pa, const void *pb)
{
	const keyed *a = pa, *b = pb;
	int c = cmp_i64(a->k1, b->k1);
	if (!c) c = cmp_i64(a->k2, b->k2);
	if (!c) c = cmp_i64(a->k3, b->k3);
	if (!c) c = (a->i > b->i) - (a->i < b->i);
	return c;
}

/* One-key sort entries: (key, 32-bit index), in index order at equal keys
 * (the comparison breaks ties by index). */
typedef struct key1 {
	int64_t k;
	uint32_t i;
} key1;

static int cmp_key1(const void *pa, const void *pb)
{
	const key1 *a = pa, *b = pb;
	int c = cmp_i64(a->k, b->k);
	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* Sorts v by key and keeps only the indices, in place of the pairs. Keys
 * that come already in order (correlation ids mostly do) need no sort. */
static int sort_key1(uint32_t **out, size_t *nout, const tlc_allocator *a, key1 *v, size_t n)
{
	int sorted = 1;
	for (size_t i = 1; i < n && sorted; i++)
		sorted = v[i - 1].k < v[i].k || (v[i - 1].k == v[i].k && v[i - 1].i < v[i].i);
	if (!sorted)
		qsort(v, n, sizeof *v, cmp_key1);
	*nout = n;
	uint32_t *ix = (uint32_t *)(void *)v; /* each index lands at or before its pair */
	for (size_t i = 0; i < n; i++) {
		uint32_t x = v[i].i;
		ix[i] = x;
	}
	uint32_t *shrunk = tlc_alloc__realloc(a, v, (n ? n : 1) * sizeof *ix);
	*out = shrunk ? shrunk : ix;
	return 0;
}

static int is_indexed_host(const tlc_devkind *k)
{
	return is_host(k->kind) && (k->flags & TLC_DEV_HAS_CORRELATION);
}

static int build_host_index(jctx *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->ndev; i++) /* sized to the calls, not to every record */
		n += (size_t)is_indexed_host(tlc_devs__kind(c->devs, i));
	key1 *v = tlc_alloc__malloc(c->a, (n ? n : 1) * sizeof *v);
	if (!v)
		return tlc_error__oom();
	n = 0;
	for (size_t i = 0; i < c->ndev; i++)
		if (is_indexed_host(tlc_devs__kind(c->devs, i)))
			v[n++] = (key1){ tlc_devs__correlation(c->devs, i), (uint32_t)i };
	return sort_key1(&c->host_by_corr, &c->nhost, c->a, v, n);
}

static int build_row_index(jctx *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nrows; i++)
		n += tlc_rows__correlation(c->rows, i) >= 0;
	key1 *v = tlc_alloc__malloc(c->a, (n ? n : 1) * sizeof *v);
	if (!v)
		return tlc_error__oom();
	n = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		int64_t k = tlc_rows__correlation(c->rows, i);
		if (k >= 0)
			v[n++] = (key1){ k, (uint32_t)i };
	}
	return sort_key1(&c->row_by_corr, &c->nrowc, c->a, v, n);
}

/* [*lo, *hi) of the host calls with correlation k. */
static void host_range(const jctx *c, int64_t k, size_t *lo, size_t *hi)
{
	size_t l = 0, h = c->nhost;
	while (l < h) {
		size_t m = l + (h - l) / 2;
		if (tlc_devs__correlation(c->devs, c->host_by_corr[m]) < k)
			l = m + 1;
		else
			h = m;
	}
	*lo = l;
	while (l < c->nhost && tlc_devs__correlation(c->devs, c->host_by_corr[l]) == k)
		l++;
	*hi = l;
}

static void row_range(const jctx *c, int64_t k, size_t *lo, size_t *hi)
{
	size_t l = 0, h = c->nrowc;
	while (l < h) {
		size_t m = l + (h - l) / 2;
		if (tlc_rows__correlation(c->rows, c->row_by_corr[m]) < k)
			l = m + 1;
		else
			h = m;
	}
	*lo = l;
	while (l < c->nrowc && tlc_rows__correlation(c->rows, c->row_by_corr[l]) == k)
		l++;
	*hi = l;
}

/* ---------------------------------------------------------------- */
/* path choice                                                       */
/* ---------------------------------------------------------------- */

static void mark_launch_calls(jctx *c)
{
	for (size_t i = 0; i < c->ndev; i++) {
		const tlc_devkind *r = tlc_devs__kind(c->devs, i);
		if (!is_launch(r->kind) || !(r->flags & TLC_DEV_HAS_CORRELATION))
			continue;
		size_t lo, hi;
		host_range(c, tlc_devs__correlation(c->devs, i), &lo, &hi);
		for (size_t k = lo; k < hi; k++)
			c->owns_launch[c->host_by_corr[k]] = 1;
	}
}

static void count_external_ids(jctx *c)
{
	tlc_join_summary *s = &c->j->sum;
	for (size_t i = 0; i < c->ndev; i++) {
		if (!c->owns_launch[i])
			continue;
		s->launch_calls++;
		if (!(tlc_devs__kind(c->devs, i)->flags & TLC_DEV_HAS_EXTERNAL_ID))
			continue;
		int64_t ext = tlc_devs__external_id(c->devs, i);
		s->launch_calls_with_external++;
		if (ext == tlc_devs__correlation(c->devs, i))
			s->launch_calls_external_self++;
		size_t lo, hi;
		row_range(c, ext, &lo, &hi);
		if (hi > lo && ext >= 0)
			s->launch_calls_external_matched++;
	}
}

static int rows_have_intervals(const jctx *c)
{
	const unsigned need = TLC_OP_HAS_START_NS | TLC_OP_HAS_THREAD;
	for (size_t i = 0; i < c->nrows; i++) {
		unsigned f = tlc_rows__kind(c->rows, i)->op_flags;
		if ((f & need) == need && (f & (TLC_OP_HAS_END_NS | TLC_OP_HAS_HOST_NS)))
			return 1;
	}
	return 0;
}

static void choose_path(jctx *c, unsigned flags)
{
	tlc_join_summary *s = &c->j->sum;
	char *why = c->j->reason;
	size_t cap = sizeof c->j->reason;
	unsigned long long with = s->launch_calls_with_external,
	                   matched = s->launch_calls_external_matched,
	                   self = s->launch_calls_external_self;
	int usable = with > 0 && matched * 2 >= with;
	int contain = rows_have_intervals(c);
	if (flags & TLC_JOIN_FORCE_CONTAINMENT)
		usable = 0;
	if (usable || (flags & TLC_JOIN_FORCE_CORRELATION)) {
		s->path = TLC_JOIN_PATH_CORRELATION;
		snprintf(why, cap, "%s: %llu of %llu launching runtime calls carry an external id "
		         "that names an op", (flags & TLC_JOIN_FORCE_CORRELATION) ? "forced" :
		         "external ids usable", matched, with);
	} else if (contain) {
		s->path = TLC_JOIN_PATH_CONTAINMENT;
		if (flags & TLC_JOIN_FORCE_CONTAINMENT)
			snprintf(why, cap, "forced: containment requested");
		else if (with == 0)
			snprintf(why, cap, "external ids unusable: no launching runtime call carries one; "
			         "fell back to containment on the host thread");
		else
			snprintf(why, cap, "external ids unusable: only %llu of %llu launching runtime "
			         "calls name an op (%llu carry their own correlation id instead); fell "
			         "back to containment on the host thread", matched, with, self);
	} else {
		s->path = TLC_JOIN_PATH_NONE;
		snprintf(why, cap, "no usable external ids (%llu of %llu name an op) and the ops carry "
		         "no host intervals (start_ns, end_ns, thread) for containment", matched, with);
	}
	s->path_reason = why;
}

/* ---------------------------------------------------------------- */
/* containment                                                       */
/* ---------------------------------------------------------------- */

static int row_interval(const tlc_rows *rows, size_t i, int64_t *s, int64_t *e)
{
	const unsigned need = TLC_OP_HAS_START_NS | TLC_OP_HAS_THREAD;
	unsigned f = tlc_rows__kind(rows, i)->op_flags;
	if ((f & need) != need)
		return 0;
	*s = tlc_col__get(&rows->start_ns, i);
	int64_t host;
	if (f & TLC_OP_HAS_END_NS)
		*e = tlc_col__get(&rows->end_ns, i);
	else if ((f & TLC_OP_HAS_HOST_NS) && (host = tlc_col__get(&rows->host_ns, i)) >= 0 &&
	         *s <= INT64_MAX - host)
		*e = *s + host;
	else
		return 0;
	return *e >= *s;
}

typedef struct active {
	size_t *v;
	size_t n, cap;
} active;

/* The innermost op(s) holding t among the active rows: the one that starts
 * last (shortest at equal starts, latest in order at equal intervals), plus
 * any active op that ends before it does (partial overlap: ambiguous). */
static int innermost(jctx *c, const active *act, const keyed *rows, int64_t t, size_t at)
{
	(void)t;
	if (act->n == 0)
		return 0;
	size_t best = act->v[0];
	for (size_t k = 1; k < act->n; k++) {
		const keyed *x = &rows[act->v[k]], *b = &rows[best];
		if (x->k2 > b->k2 || (x->k2 == b->k2 && x->k3 <= b->k3))
			best = act->v[k];
	}
	c->cand_off[at] = c->ncand;
	size_t need = c->ncand + act->n;
	if (tlc_alloc__grow(c->a, (void **)&c->cand_pool, &c->candcap, need, sizeof *c->cand_pool) < 0)
		return TLC_ENOMEM;
	c->cand_pool[c->ncand++] = rows[best].i;
	for (size_t k = 0; k < act->n; k++)
		if (rows[act->v[k]].k3 < rows[best].k3)
			c->cand_pool[c->ncand++] = rows[act->v[k]].i;
	c->cand_n[at] = c->ncand - c->cand_off[at];
	return 0;
}

static int sweep_host(jctx *c, active *act, const keyed *rows, size_t nr, size_t *ri,
                      const keyed *h)
{
	int64_t t = h->k2;
	while (*ri < nr && rows[*ri].k1 == h->k1 && rows[*ri].k2 <= t) {
		if (tlc_alloc__grow(c->a, (void **)&act->v, &act->cap, act->n + 1, sizeof *act->v) < 0)
			return TLC_ENOMEM;
		act->v[act->n++] = (*ri)++;
	}
	size_t w = 0;
	for (size_t k = 0; k < act->n; k++)
		if (rows[act->v[k]].k3 >= t)
			act->v[w++] = act->v[k];
	act->n = w;
	return innermost(c, act, rows, t, h->i);
}

/* rows keyed (thread, start, end) and launching calls keyed (thread, start). */
static int containment_sweep(jctx *c, const keyed *rows, size_t nr, const keyed *hosts,
                             size_t nh)
{
	active act = { NULL, 0, 0 };
	size_t ri = 0;
	int rc = 0;
	for (size_t h = 0; h < nh && rc == 0; h++) {
		if (h == 0 || hosts[h].k1 != hosts[h - 1].k1) {
			act.n = 0;
			while (ri < nr && rows[ri].k1 < hosts[h].k1)
				ri++;
		}
		rc = sweep_host(c, &act, rows, nr, &ri, &hosts[h]);
	}
	tlc_alloc__free(c->a, act.v);
	return rc;
}

/* Sort key of rows: (thread, start asc, end desc) so parents come first. */
static int containment(jctx *c)
{
	size_t nd = c->ndev ? c->ndev : 1; /* candidates: the containment path's only */
	c->cand_off = tlc_alloc__calloc(c->a, nd, sizeof *c->cand_off);
	c->cand_n = tlc_alloc__calloc(c->a, nd, sizeof *c->cand_n);
	keyed *rows = tlc_alloc__malloc(c->a, (c->nrows ? c->nrows : 1) * sizeof *rows);
	keyed *hosts = tlc_alloc__malloc(c->a, (c->ndev ? c->ndev : 1) * sizeof *hosts);
	int rc = rows && hosts && c->cand_off && c->cand_n ? 0 : tlc_error__oom();
	size_t nr = 0, nh = 0;
	for (size_t i = 0; rc == 0 && i < c->nrows; i++) {
		int64_t s, e;
		if (row_interval(c->rows, i, &s, &e)) /* ~e: end descending, no overflow */
			rows[nr++] = (keyed){ tlc_rows__kind(c->rows, i)->thread, s, ~e, i };
	}
	for (size_t i = 0; rc == 0 && i < c->ndev; i++) {
		const tlc_devkind *r = tlc_devs__kind(c->devs, i);
		if (c->owns_launch[i] && (r->flags & TLC_DEV_HAS_THREAD))
			hosts[nh++] = (keyed){ r->thread, tlc_devs__start(c->devs, i), 0, i };
	}
	if (rc == 0) {
		qsort(rows, nr, sizeof *rows, cmp_keyed);
		for (size_t i = 0; i < nr; i++)
			rows[i].k3 = ~rows[i].k3; /* back to the end time */
		qsort(hosts, nh, sizeof *hosts, cmp_keyed);
		rc = containment_sweep(c, rows, nr, hosts, nh);
		if (rc == TLC_ENOMEM)
			rc = tlc_error__oom();
	}
	tlc_alloc__free(c->a, rows);
	tlc_alloc__free(c->a, hosts);
	return rc;
}

/* ---------------------------------------------------------------- */
/* per-launch resolution                                             */
/* ---------------------------------------------------------------- */

static int add_cand(jctx *c, size_t row)
{
	if (tlc_alloc__grow(c->a, (void **)&c->buf, &c->bufcap, c->nbuf + 1, sizeof *c->buf) < 0)
		return tlc_error__oom();
	c->buf[c->nbuf++] = row;
	return 0;
}

static int cmp_size(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	return (a > b) - (a < b);
}

static int gather(jctx *c, size_t lo, size_t hi)
{
	c->nbuf = 0;
	for (size_t k = lo; k < hi; k++) {
		size_t hi_ = c->host_by_corr[k];
		if (c->j->sum.path == TLC_JOIN_PATH_CORRELATION) {
			int64_t ext = tlc_devs__external_id(c->devs, hi_);
			if (!(tlc_devs__kind(c->devs, hi_)->flags & TLC_DEV_HAS_EXTERNAL_ID) || ext < 0)
				continue;
			size_t rl, rh;
			row_range(c, ext, &rl, &rh);
			for (size_t q = rl; q < rh; q++)
				if (add_cand(c, c->row_by_corr[q]) < 0)
					return TLC_ENOMEM;
		} else {
			for (size_t q = 0; q < c->cand_n[hi_]; q++)
				if (add_cand(c, c->cand_pool[c->cand_off[hi_] + q]) < 0)
					return TLC_ENOMEM;
		}
	}
	if (c->nbuf > 1)
		qsort(c->buf, c->nbuf, sizeof *c->buf, cmp_size);
	size_t w = 0;
	for (size_t k = 0; k < c->nbuf; k++)
		if (w == 0 || c->buf[w - 1] != c->buf[k])
			c->buf[w++] = c->buf[k];
	c->nbuf = w;
	return 0;
}

/* The group of exactly this set of rows (created on first use). Rows live
 * in j->group_rows; c->goff[g] is where group g's start (pointers are set
 * once the pool stops moving). */
static int group_eq(size_t g, const void *key, const void *payload)
{
	const jctx *c = payload;
	(void)key;
	return c->j->groups[g].nrows == c->nbuf &&
	       memcmp(c->j->group_rows + c->goff[g], c->buf, c->nbuf * sizeof *c->buf) == 0;
}

static int group_of(jctx *c, int64_t *out)
{
	tlc_join *j = c->j;
	size_t bytes = c->nbuf * sizeof *c->buf;
	uint64_t h = tlc_hash__bytes(c->buf, bytes);
	if (tlc_hindex__reserve(&c->group_index, j->ngroups + 1) < 0)
		return TLC_ENOMEM;
	tlc_hslot *s = tlc_hindex__probe(&c->group_index, h, group_eq, NULL, c);
	if (s->idx1) {
		*out = (int64_t)(s->idx1 - 1);
		return 0;
	}
	size_t g = j->ngroups, ocap = c->groupcap;
	if (tlc_alloc__grow(c->a, (void **)&j->groups, &c->groupcap, g + 1, sizeof *j->groups) < 0 ||
	    tlc_alloc__grow(c->a, (void **)&c->goff, &ocap, c->groupcap, sizeof *c->goff) < 0 ||
	    tlc_alloc__grow(c->a, (void **)&j->group_rows, &c->grows_cap, c->ngrows + c->nbuf,
	                    sizeof *j->group_rows) < 0)
		return tlc_error__oom();
	memcpy(j->group_rows + c->ngrows, c->buf, bytes);
	c->goff[g] = c->ngrows;
	c->ngrows += c->nbuf;
	tlc_hindex__fill(&c->group_index, s, h, g);
	memset(&j->groups[g], 0, sizeof j->groups[g]);
	j->groups[g].id = (int64_t)g;
	j->groups[g].nrows = c->nbuf;
	j->ngroups++;
	*out = (int64_t)g;
	return 0;
}

static void set_unattributed(tlc_jlaunch *l, int why)
{
	l->status = TLC_ATTR_UNATTRIBUTED;
	l->target = TLC_JOIN__NONE;
	l->why = (uint8_t)why;
}

/* On the correlation path, the op an External id names should hold the
 * launching call on its thread; when it does not, the ids coincide by
 * accident (some Kineto builds write each call's own correlation there) and
 * a forced correlation join attributes launches to unrelated ops. Counted
 * only where both sides carry host intervals. */
static void check_host_interval(jctx *c, const tlc_jlaunch *l)
{
	size_t row = l->target;
	int64_t s, e;
	if (row >= c->nrows || l->runtime == TLC_JOIN__NONE)
		return;
	const tlc_devkind *h = tlc_devs__kind(c->devs, l->runtime);
	if (!(h->flags & TLC_DEV_HAS_THREAD) || !row_interval(c->rows, row, &s, &e))
		return;
	int64_t hs = tlc_devs__start(c->devs, l->runtime);
	c->j->corr_checked++;
	if (tlc_rows__kind(c->rows, row)->thread != h->thread || hs < s || hs > e)
		c->j->corr_outside++;
}

uint64_t tlc_join_correlation_outside(const tlc_join *j, uint64_t *checked)
{
	if (checked)
		*checked = j ? j->corr_checked : 0;
	return j ? j->corr_outside : 0;
}

/* Capture pairing (engine/input/capture_pair.c): a launch replayed from a
 * graph whose launch sequence matched one captured graph goes to the op
 * that launched it during capture; one of n launches equal to n captured
 * graphs goes to the ambiguous group of their ops at its position; one that
 * did not match stays unattributed with the pairing's cause. *decided is 1
 * when pairing decided. 0 or TLC_ENOMEM. */
static int capture_paired(jctx *c, tlc_jlaunch *l, int *decided)
{
	const char *name = tlc_devs__kind(c->devs, l->runtime)->name;
	const tlc_eval__paired *p = name && strstr(name, "GraphLaunch") ? tlc_eval__pairing_of(c->ev, l->rec) : NULL;
	*decided = p != NULL;
	if (!p)
		return 0;
	if (p->why == TLC_EVAL__PAIR_GROUP) {
		size_t nids;
		const int64_t *ids = tlc_eval__pairing_ids(c->ev, &nids);
		c->nbuf = 0;
		size_t at = (size_t)p->op_id, m = at < nids ? (size_t)ids[at] : 0;
		for (size_t i = 0; i < m && at + 1 + i < nids; i++) {
			int64_t row = tlc_eval__row_of_id(c->ev, ids[at + 1 + i]);
			if (row >= 0 && add_cand(c, (size_t)row) < 0)
				return TLC_ENOMEM;
		}
		if (c->nbuf > 1)
			qsort(c->buf, c->nbuf, sizeof *c->buf, cmp_size);
		if (c->nbuf) {
			int64_t g = 0;
			int rc = group_of(c, &g);
			l->status = TLC_ATTR_AMBIGUOUS;
			l->why = WHY_NONE;
			l->target = (uint32_t)g;
			l->via_capture = 1;
			return rc;
		}
	}
	int64_t row = p->why ? -1 : tlc_eval__row_of_id(c->ev, p->op_id);
	if (row < 0) {
		l->why = p->why == TLC_EVAL__PAIR_AMBIGUOUS ? WHY_PAIR_AMBIGUOUS :
		         p->why == TLC_EVAL__PAIR_NO_MATCH ? WHY_PAIR_NO_MATCH : WHY_PAIR_NO_OP;
		return 0;
	}
	l->status = TLC_ATTR_ATTRIBUTED;
	l->why = WHY_NONE;
	l->target = (uint32_t)row;
	l->via_capture = 1;
	return 0;
}

static int resolve_launch(jctx *c, tlc_jlaunch *l)
{
	size_t r = l->rec;
	l->runtime = TLC_JOIN__NONE;
	set_unattributed(l, WHY_NO_CORRELATION);
	if (!(tlc_devs__kind(c->devs, r)->flags & TLC_DEV_HAS_CORRELATION))
		return 0;
	size_t lo, hi;
	host_range(c, tlc_devs__correlation(c->devs, r), &lo, &hi);
	if (lo == hi) {
		l->why = WHY_NO_RUNTIME;
		return 0;
	}
	l->runtime = c->host_by_corr[lo];
	int decided = 0, prc = capture_paired(c, l, &decided);
	if (prc < 0 || decided)
		return prc;
	if (c->j->sum.path == TLC_JOIN_PATH_NONE) {
		l->why = WHY_NO_PATH;
		return 0;
	}
	if (gather(c, lo, hi) < 0)
		return TLC_ENOMEM;
	if (c->nbuf == 0) {
		const char *name = tlc_devs__kind(c->devs, l->runtime)->name;
		l->why = name && strstr(name, "GraphLaunch") ? WHY_GRAPH : WHY_NO_OP;
		return 0;
	}
	l->why = WHY_NONE;
	if (c->nbuf == 1) {
		l->status = TLC_ATTR_ATTRIBUTED;
		l->target = (uint32_t)c->buf[0];
		if (c->j->sum.path == TLC_JOIN_PATH_CORRELATION)
			check_host_interval(c, l);
		return 0;
	}
	l->status = TLC_ATTR_AMBIGUOUS;
	int64_t g = 0;
	int rc = group_of(c, &g);
	l->target = (uint32_t)g;
	return rc;
}

static int resolve_all(jctx *c)
{
	tlc_join *j = c->j;
	size_t n = 0;
	for (size_t i = 0; i < c->ndev; i++)
		if (is_launch(tlc_devs__kind(c->devs, i)->kind))
			n++;
	j->launches = tlc_alloc__calloc(c->a, n ? n : 1, sizeof *j->launches);
	if (!j->launches)
		return tlc_error__oom();
	for (size_t i = 0; i < c->ndev; i++) {
		if (!is_launch(tlc_devs__kind(c->devs, i)->kind))
			continue;
		tlc_jlaunch *l = &j->launches[j->nlaunches++];
		l->rec = (uint32_t)i;
		int rc = resolve_launch(c, l);
		if (rc < 0)
			return rc;
	}
	for (size_t g = 0; g < j->ngroups; g++)
		j->groups[g].rows = j->group_rows + c->goff[g];
	return 0;
}

/* ---------------------------------------------------------------- */
/* not an op: launches that land only on wrapper rows                */
/* ---------------------------------------------------------------- */

/* path[i]: 0 not resolved, 1 some row on i's path (i or an ancestor) is an
 * op, 2 every row on it is not an op (contract "Not an op"). Resolved by
 * walking up to a row already known, then filling the walked rows. */
static uint8_t path_kind(jctx *c, uint8_t *path, size_t i)
{
	size_t cur = i, steps = 0;
	uint8_t res = 2;
	for (;;) {
		if (path[cur]) {
			res = path[cur];
			break;
		}
		if (!tlc_eval__row_not_op(c->ev, cur) || steps++ > c->nrows) {
			res = 1;
			break;
		}
		int64_t par = tlc_rows__parent(c->rows, cur);
		int64_t p = par >= 0 ? tlc_eval__row_of_id(c->ev, par) : -1;
		if (p < 0)
			break;
		cur = (size_t)p;
	}
	/* the walked rows i .. cur share cur's answer (their paths hold cur's);
	 * the rows above cur are not resolved by it */
	for (size_t k = i, n = 0; !path[k] && n <= c->nrows; n++) {
		path[k] = res;
		if (k == cur)
			break;
		int64_t par = tlc_rows__parent(c->rows, k);
		int64_t p = par >= 0 ? tlc_eval__row_of_id(c->ev, par) : -1;
		if (p < 0)
			break;
		k = (size_t)p;
	}
	return res;
}

static int mark_not_op(jctx *c)
{
	tlc_join *j = c->j;
	uint8_t *path = tlc_alloc__calloc(c->a, c->nrows ? c->nrows : 1, 1);
	if (!path)
		return tlc_error__oom();
	for (size_t i = 0; i < j->nlaunches; i++) {
		tlc_jlaunch *l = &j->launches[i];
		l->not_op = l->status == TLC_ATTR_ATTRIBUTED && path_kind(c, path, l->target) == 2;
	}
	tlc_alloc__free(c->a, path);
	return 0;
}

/* ---------------------------------------------------------------- */
/* aggregates                                                        */
/* ---------------------------------------------------------------- */

/* Phase of a launch: its op's, an ambiguous group's when all its ops
 * agree, else -1 (unknown). */
static int launch_phase(const tlc_join *j, const tlc_rows *rows, const tlc_jlaunch *l)
{
	if (l->status == TLC_ATTR_ATTRIBUTED)
		return (int)tlc_rows__kind(rows, l->target)->phase;
	if (l->status != TLC_ATTR_AMBIGUOUS)
		return -1;
	const tlc_join_group *g = &j->groups[l->target];
	int p = (int)tlc_rows__kind(rows, g->rows[0])->phase;
	for (size_t k = 1; k < g->nrows; k++)
		if ((int)tlc_rows__kind(rows, g->rows[k])->phase != p)
			return -1;
	return p;
}

static void add_summary(tlc_join_summary *s, const tlc_devs *dv, const tlc_jlaunch *l)
{
	int64_t d = dur_of(dv, l->rec);
	int kern = is_kernel(dv, l->rec);
	s->launches++;
	SAT_ADD(s->device_ns, d);
	s->kernels += (uint64_t)kern;
	if (kern)
		SAT_ADD(s->kernel_ns, d);
	switch (l->status) {
	case TLC_ATTR_ATTRIBUTED:
		s->launches_attributed++;
		s->kernels_attributed += (uint64_t)kern;
		SAT_ADD(s->kernel_attributed_ns, kern ? d : 0);
		break;
	case TLC_ATTR_AMBIGUOUS:
		s->launches_ambiguous++;
		s->kernels_ambiguous += (uint64_t)kern;
		SAT_ADD(s->kernel_ambiguous_ns, kern ? d : 0);
		break;
	default:
		s->launches_unattributed++;
		s->kernels_unattributed += (uint64_t)kern;
		SAT_ADD(s->kernel_unattributed_ns, kern ? d : 0);
		break;
	}
}

/* ---- phase annotations (contract "Not an op": every phase states all
 * the kernel time that ran in it) ---- */

static int build_annotations(jctx *c)
{
	size_t n = tlc_eval__annotation_count(c->ev);
	if (n == 0)
		return 0;
	c->annots = tlc_alloc__malloc(c->a, n * sizeof *c->annots);
	c->annot_reach = tlc_alloc__malloc(c->a, n * sizeof *c->annot_reach);
	if (!c->annots || !c->annot_reach)
		return tlc_error__oom();
	for (size_t i = 0; i < n; i++) {
		const tlc_eval__annotation *a = tlc_eval__annotation_at(c->ev, i);
		c->annots[i] = (keyed){ a->thread, a->start_ns, a->end_ns, (size_t)a->phase };
	}
	qsort(c->annots, n, sizeof *c->annots, cmp_keyed);
	for (size_t i = 0; i < n; i++) {
		int64_t e = c->annots[i].k3;
		if (i > 0 && c->annots[i - 1].k1 == c->annots[i].k1 && c->annot_reach[i - 1] > e)
			e = c->annot_reach[i - 1];
		c->annot_reach[i] = e;
	}
	c->nannots = n;
	return 0;
}

/* The phase of the annotation that holds an unattributed launch's runtime
 * call on its thread (the latest-starting one), or -1. */
static int annotated_phase(const jctx *c, const tlc_jlaunch *l)
{
	if (!c->nannots || l->status != TLC_ATTR_UNATTRIBUTED || l->runtime == TLC_JOIN__NONE)
		return -1;
	const tlc_devkind *h = tlc_devs__kind(c->devs, l->runtime);
	if (!(h->flags & TLC_DEV_HAS_THREAD))
		return -1;
	int64_t t = tlc_devs__start(c->devs, l->runtime);
	size_t lo = 0, hi = c->nannots; /* first annotation after (thread, t) */
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		const keyed *a = &c->annots[m];
		if (a->k1 < h->thread || (a->k1 == h->thread && a->k2 <= t))
			lo = m + 1;
		else
			hi = m;
	}
	for (size_t i = lo; i-- > 0;) {
		const keyed *a = &c->annots[i];
		if (a->k1 != h->thread || c->annot_reach[i] < t)
			break;
		if (a->k3 >= t)
			return (int)a->i;
	}
	return -1;
}

static void add_annotated(tlc_join *j, int p, const tlc_jlaunch *l)
{
	if (!is_kernel(j->devs, l->rec))
		return;
	SAT_ADD(j->detail.phase_annotated_ns[p], dur_of(j->devs, l->rec));
	j->phases[p].present = 1;
}

static void add_phase(tlc_join *j, int p, const tlc_jlaunch *l)
{
	if (!is_kernel(j->devs, l->rec))
		return;
	int64_t d = dur_of(j->devs, l->rec);
	if (p < 0) {
		for (int q = 0; q < TLC_PHASE_COUNT; q++)
			SAT_ADD(j->phases[q].unphased_ns, d);
		return;
	}
	if (l->status == TLC_ATTR_ATTRIBUTED && l->not_op) {
		SAT_ADD(j->detail.phase_on_wrapper_ns[p], d);
		j->detail.kernels_on_wrapper++;
		SAT_ADD(j->detail.kernel_on_wrapper_ns, d);
	} else if (l->status == TLC_ATTR_ATTRIBUTED) {
		SAT_ADD(j->phases[p].attributed_ns, d);
	} else {
		SAT_ADD(j->phases[p].ambiguous_ns, d);
	}
	j->phases[p].present = 1;
}

/* Device time of the rows, in the join's own overlay (overlay.h). */
static int add_rows(tlc_join *j, const tlc_jlaunch *l)
{
	int64_t d = dur_of(j->devs, l->rec);
	int kern = is_kernel(j->devs, l->rec);
	if (l->status == TLC_ATTR_ATTRIBUTED)
		return tlc_overlay__add(&j->ov, l->target, d, kern ? d : 0);
	if (l->status == TLC_ATTR_AMBIGUOUS) {
		tlc_join_group *g = &j->groups[l->target];
		g->launches++;
		SAT_ADD(g->time_ns, d);
		if (kern)
			SAT_ADD(j->group_kernel[l->target], d);
		for (size_t k = 0; k < g->nrows; k++)
			tlc_overlay__ambiguous(&j->ov, g->rows[k]);
	}
	return 0;
}

/* Nonzero when a*1000 >= g*t, exactly. */
static int share_at_least(int64_t a, int64_t t, uint32_t g)
{
	__extension__ typedef unsigned __int128 u128;
	return (u128)(uint64_t)a * 1000u >= (u128)(uint64_t)t * g;
}

static void finish_phases(tlc_join *j)
{
	tlc_join_summary *s = &j->sum;
	int any = 0, ok = 1;
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		tlc_join_phase *ph = &j->phases[p];
		ph->phase = (tlc_phase)p;
		ph->total_ns = ph->attributed_ns;
		SAT_ADD(ph->total_ns, ph->ambiguous_ns);
		SAT_ADD(ph->total_ns, ph->unphased_ns);
		SAT_ADD(ph->total_ns, j->detail.phase_on_wrapper_ns[p]);
		SAT_ADD(ph->total_ns, j->detail.phase_annotated_ns[p]);
		ph->gated = p == TLC_PHASE_FORWARD || p == TLC_PHASE_BACKWARD;
		if (ph->total_ns > 0) {
			__extension__ typedef unsigned __int128 u128;
			ph->share_permille = (uint32_t)((u128)(uint64_t)ph->attributed_ns * 1000u /
			                                (uint64_t)ph->total_ns);
		}
		ph->passed = !ph->present || share_at_least(ph->attributed_ns, ph->total_ns,
		                                            s->gate_permille);
		if (ph->gated) {
			any |= ph->present;
			ok &= ph->passed;
		}
	}
	s->gate_passed = any && ok && s->state == TLC_JOIN_JOINED;
}

/* ---- per device: busy time is the union of launch intervals ---- */

static void add_device_launch(tlc_join_device *dv, int64_t *cur_end, const tlc_devs *devs,
                              const tlc_jlaunch *l)
{
	int64_t s = tlc_devs__start(devs, l->rec), d = dur_of(devs, l->rec);
	int64_t e = (s > 0 && d > INT64_MAX - s) ? INT64_MAX : s + d;
	dv->launches++;
	SAT_ADD(dv->device_ns, d);
	SAT_ADD(dv->kernel_ns, is_kernel(devs, l->rec) ? d : 0);
	if (l->status == TLC_ATTR_ATTRIBUTED) SAT_ADD(dv->attributed_ns, d);
	else if (l->status == TLC_ATTR_AMBIGUOUS) SAT_ADD(dv->ambiguous_ns, d);
	else SAT_ADD(dv->unattributed_ns, d);
	if (e > *cur_end) {
		SAT_ADD(dv->busy_ns, span(s > *cur_end ? s : *cur_end, e));
		*cur_end = e;
	}
}

#define FEW_DEVICES 64

/* Slot of device id among ids[0..n), or n. */
static size_t device_slot(const int64_t *ids, size_t n, int64_t id, size_t hint)
{
	if (hint < n && ids[hint] == id)
		return hint;
	size_t k = 0;
	while (k < n && ids[k] != id)
		k++;
	return k;
}

/* The common case needs neither an index nor a sort: few devices, and each
 * device's launches already in start order, so record order is the order
 * the general path sorts into (start, then record order). Returns 1 when
 * done, 0 when the general path is needed, or TLC_ENOMEM. */
static int devices_in_order(jctx *c)
{
	tlc_join *j = c->j;
	int64_t ids[FEW_DEVICES], last[FEW_DEVICES], end[FEW_DEVICES];
	size_t nd = 0, k = 0;
	for (size_t i = 0; i < j->nlaunches; i++) {
		size_t r = j->launches[i].rec;
		int64_t dev = tlc_devs__kind(c->devs, r)->device, start = tlc_devs__start(c->devs, r);
		k = device_slot(ids, nd, dev, k);
		if (k == nd) {
			if (nd == FEW_DEVICES)
				return 0;
			ids[nd++] = dev;
		} else if (start < last[k]) {
			return 0;
		}
		last[k] = start;
	}
	if (nd == 0)
		return 0;
	for (size_t a = 1; a < nd; a++) /* insertion sort: devices in id order */
		for (size_t b = a; b > 0 && ids[b - 1] > ids[b]; b--) {
			int64_t t = ids[b];
			ids[b] = ids[b - 1];
			ids[b - 1] = t;
		}
	j->devices = tlc_alloc__calloc(c->a, nd, sizeof *j->devices);
	if (!j->devices)
		return TLC_ENOMEM;
	for (k = 0; k < nd; k++) {
		j->devices[k].device = ids[k];
		end[k] = INT64_MIN;
	}
	j->ndevices = nd;
	for (size_t i = 0; i < j->nlaunches; i++) {
		k = device_slot(ids, nd, tlc_devs__kind(c->devs, j->launches[i].rec)->device, k);
		add_device_launch(&j->devices[k], &end[k], c->devs, &j->launches[i]);
	}
	return 1;
}

static int build_devices(jctx *c)
{
	tlc_join *j = c->j;
	int fast = devices_in_order(c);
	if (fast < 0)
		return tlc_error__oom();
	if (fast) {
		for (size_t i = 0; i < j->ndevices; i++)
			SAT_ADD(j->sum.busy_ns, j->devices[i].busy_ns);
		return 0;
	}
	keyed *v = tlc_alloc__malloc(c->a, (j->nlaunches ? j->nlaunches : 1) * sizeof *v);
	if (!v)
		return tlc_error__oom();
	for (size_t i = 0; i < j->nlaunches; i++)
		v[i] = (keyed){ tlc_devs__kind(c->devs, j->launches[i].rec)->device,
		                tlc_devs__start(c->devs, j->launches[i].rec), 0, i };
	qsort(v, j->nlaunches, sizeof *v, cmp_keyed);
	size_t nd = 0;
	for (size_t i = 0; i < j->nlaunches; i++)
		nd += i == 0 || v[i].k1 != v[i - 1].k1;
	j->devices = tlc_alloc__calloc(c->a, nd ? nd : 1, sizeof *j->devices);
	if (!j->devices) {
		tlc_alloc__free(c->a, v);
		return tlc_error__oom();
	}
	int64_t cur_end = 0;
	for (size_t i = 0; i < j->nlaunches; i++) {
		if (i == 0 || v[i].k1 != v[i - 1].k1) {
			j->devices[j->ndevices++].device = v[i].k1;
			cur_end = INT64_MIN;
		}
		add_device_launch(&j->devices[j->ndevices - 1], &cur_end, c->devs, &j->launches[v[i].i]);
	}
	for (size_t i = 0; i < j->ndevices; i++)
		SAT_ADD(j->sum.busy_ns, j->devices[i].busy_ns);
	tlc_alloc__free(c->a, v);
	return 0;
}

/* ---- the remainder: unattributed launches grouped by name ---- */

static const char *launch_name(const tlc_devs *devs, const tlc_jlaunch *l)
{
	const tlc_devkind *k = tlc_devs__kind(devs, l->rec);
	if (k->name)
		return k->name;
	return k->kind == TLC_DEVICE_MEMCPY ? "(memcpy)" :
	       k->kind == TLC_DEVICE_MEMSET ? "(memset)" : "(kernel)";
}

static int cmp_name_ptr(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

static int cmp_remainder(const void *pa, const void *pb)
{
	const tlc_join_remainder *a = pa, *b = pb;
	int c = cmp_i64(b->time_ns, a->time_ns);
	return c ? c : strcmp(a->name, b->name);
}

static int build_remainder(jctx *c)
{
	tlc_join *j = c->j;
	size_t n = 0, nnames = 0;
	for (size_t i = 0; i < j->nlaunches; i++) /* sized to what is unattributed */
		n += j->launches[i].status == TLC_ATTR_UNATTRIBUTED;
	const char **names = tlc_alloc__malloc(c->a, (n ? n : 1) * sizeof *names);
	if (!names)
		return tlc_error__oom();
	n = 0;
	for (size_t i = 0; i < j->nlaunches; i++)
		if (j->launches[i].status == TLC_ATTR_UNATTRIBUTED)
			names[n++] = launch_name(c->devs, &j->launches[i]);
	qsort(names, n, sizeof *names, cmp_name_ptr);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(names[i], names[i - 1]) != 0)
			names[nnames++] = names[i];
	j->remainder = tlc_alloc__calloc(c->a, nnames ? nnames : 1, sizeof *j->remainder);
	for (size_t i = 0; j->remainder && i < nnames; i++)
		j->remainder[j->nremainder++].name = names[i];
	tlc_alloc__free(c->a, names);
	if (!j->remainder)
		return tlc_error__oom();
	for (size_t i = 0; i < j->nlaunches; i++) {
		const tlc_jlaunch *l = &j->launches[i];
		if (l->status != TLC_ATTR_UNATTRIBUTED)
			continue;
		const char *nm = launch_name(c->devs, l);
		size_t lo = 0, hi = j->nremainder;
		while (lo < hi) {
			size_t m = lo + (hi - lo) / 2;
			if (strcmp(j->remainder[m].name, nm) < 0)
				lo = m + 1;
			else
				hi = m;
		}
		j->remainder[lo].count++;
		SAT_ADD(j->remainder[lo].time_ns, dur_of(c->devs, l->rec));
	}
	qsort(j->remainder, j->nremainder, sizeof *j->remainder, cmp_remainder);
	return 0;
}

/* ---- time on rows that are not ops, by wrapper row ---- */

static int cmp_wrapper(const void *pa, const void *pb)
{
	const tlc_join_wrapper *a = pa, *b = pb;
	int c = cmp_i64(b->time_ns, a->time_ns);
	if (!c)
		c = strcmp(a->name, b->name);
	return c ? c : (int)a->phase - (int)b->phase;
}

/* "name.overload" (name alone without an overload), as reports show a row. */
static char *row_label(const tlc_allocator *a, const tlc_rowkind *k)
{
	const char *nm = k->name ? k->name : "", *ov = k->overload && *k->overload ? k->overload : NULL;
	size_t n = strlen(nm) + (ov ? strlen(ov) + 2 : 1);
	char *s = tlc_alloc__malloc(a, n);
	if (s)
		snprintf(s, n, "%s%s%s", nm, ov ? "." : "", ov ? ov : "");
	return s;
}

/* Slot of the wrapper entry for row kind k in phase p (kinds[] beside the
 * entries), made on first use; the number of distinct wrapper rows is
 * small, so a scan with a last-hit hint does. */
static int wrapper_slot(jctx *c, const tlc_rowkind ***kinds, size_t *cap, size_t *hint,
                        const tlc_rowkind *k)
{
	tlc_join *j = c->j;
	const char *nm = k->name, *ov = k->overload;
	size_t w = *hint;
	if (w < j->nwrappers && (*kinds)[w]->name == nm && (*kinds)[w]->overload == ov &&
	    j->wrappers[w].phase == k->phase)
		return (int)w;
	for (w = 0; w < j->nwrappers; w++)
		if ((*kinds)[w]->name == nm && (*kinds)[w]->overload == ov && j->wrappers[w].phase == k->phase)
			break;
	if (w == j->nwrappers) {
		size_t wcap = *cap;
		if (tlc_alloc__grow(c->a, (void **)&j->wrappers, &wcap, w + 1, sizeof *j->wrappers) < 0 ||
		    tlc_alloc__grow(c->a, (void **)kinds, cap, w + 1, sizeof **kinds) < 0)
			return TLC_ENOMEM;
		memset(&j->wrappers[w], 0, sizeof j->wrappers[w]);
		(*kinds)[w] = k;
		j->wrappers[w].phase = k->phase;
		j->wrappers[w].name = row_label(c->a, k);
		j->nwrappers++;
		if (!j->wrappers[w].name)
			return TLC_ENOMEM;
	}
	*hint = w;
	return (int)w;
}

static int is_graph_launch(const tlc_devs *d, const tlc_jlaunch *l)
{
	const char *name = l->runtime != TLC_JOIN__NONE ? tlc_devs__kind(d, l->runtime)->name : NULL;
	return name && strstr(name, "GraphLaunch") != NULL;
}

static int build_wrappers(jctx *c)
{
	tlc_join *j = c->j;
	const tlc_rowkind **kinds = NULL;
	size_t cap = 0, hint = 0;
	int rc = 0;
	for (size_t i = 0; i < j->nlaunches && rc >= 0; i++) {
		const tlc_jlaunch *l = &j->launches[i];
		if (!l->not_op || !is_kernel(c->devs, l->rec))
			continue;
		rc = wrapper_slot(c, &kinds, &cap, &hint, tlc_rows__kind(c->rows, l->target));
		if (rc < 0)
			break;
		tlc_join_wrapper *w = &j->wrappers[rc];
		w->kernels++;
		w->graph_replays += (uint64_t)is_graph_launch(c->devs, l);
		SAT_ADD(w->time_ns, dur_of(c->devs, l->rec));
	}
	tlc_alloc__free(c->a, kinds);
	if (rc < 0)
		return tlc_error__oom();
	if (j->nwrappers > 1) /* (no wrapper: no array, and qsort's is never NULL) */
		qsort(j->wrappers, j->nwrappers, sizeof *j->wrappers, cmp_wrapper);
	return 0;
}

/* ---- roll-up to the counted op (nesting policy) ---- */

static int is_counted(tlc_class cls)
{
	return cls == TLC_CLASS_KNOWN || cls == TLC_CLASS_ZERO_BY_RULE;
}

/* counted[] holds 32-bit row indices (rows.h caps the rows below
 * UINT32_MAX - 1), with two markers: -2 (not resolved yet) and -1 (no
 * counted op encloses the row). */
#define CNT_UNKNOWN UINT32_MAX
#define CNT_NONE (UINT32_MAX - 1)

static int64_t counted_get(const tlc_join *j, size_t i)
{
	uint32_t v = j->counted[i];
	return v == CNT_UNKNOWN ? -2 : v == CNT_NONE ? -1 : (int64_t)v;
}

static void counted_set(tlc_join *j, size_t i, int64_t v)
{
	j->counted[i] = v == -2 ? CNT_UNKNOWN : v < 0 ? CNT_NONE : (uint32_t)v;
}

/* counted[i]: nearest ancestor-or-self that is counted, or -1. Resolved by
 * walking up to a row already known, then filling the path on the way back
 * (rows may be in any order; parents never form cycles after finish). */
static int64_t counted_of(jctx *c, size_t i)
{
	tlc_join *j = c->j;
	const int64_t unknown = -2;
	size_t cur = i, steps = 0;
	int64_t res = -1;
	while (counted_get(j, cur) == unknown && steps++ <= c->nrows) {
		if (is_counted(tlc_rows__kind(c->rows, cur)->cls)) {
			res = (int64_t)cur;
			break;
		}
		int64_t par = tlc_rows__parent(c->rows, cur);
		int64_t p = par >= 0 ? tlc_eval__row_of_id(c->ev, par) : -1;
		if (p < 0) {
			res = -1;
			break;
		}
		cur = (size_t)p;
	}
	if (counted_get(j, cur) != unknown)
		res = counted_get(j, cur);
	for (size_t k = i; counted_get(j, k) == unknown;) {
		counted_set(j, k, res);
		int64_t par = tlc_rows__parent(c->rows, k);
		int64_t p = par >= 0 ? tlc_eval__row_of_id(c->ev, par) : -1;
		if (p < 0 || (int64_t)k == res)
			break;
		k = (size_t)p;
	}
	return res;
}

static int build_rollup(jctx *c);

/* Kernel time whose costed row has a known cost: an attributed launch's
 * row rolls up to a counted row; an ambiguous group's time is one unit,
 * known when every op of the group rolls up to one (docs/cost-contract.md,
 * "Costed row"). After build_rollup. */
static void known_cost(jctx *c)
{
	tlc_join *j = c->j;
	for (size_t i = 0; i < j->nlaunches; i++) {
		const tlc_jlaunch *l = &j->launches[i];
		int known = 0;
		if (!is_kernel(c->devs, l->rec))
			continue;
		if (l->status == TLC_ATTR_ATTRIBUTED) {
			known = counted_get(j, l->target) >= 0;
		} else if (l->status == TLC_ATTR_AMBIGUOUS) {
			const tlc_join_group *g = &j->groups[l->target];
			known = g->nrows > 0;
			for (size_t k = 0; k < g->nrows && known; k++)
				known = counted_get(j, g->rows[k]) >= 0;
		}
		if (known)
			SAT_ADD(j->detail.kernel_known_cost_ns, dur_of(c->devs, l->rec));
	}
}

/* Every attributed launch's time also lands on its costed row: the counted
 * row its launching row rolls up to, else the launching row itself (an
 * unknown op with no counted ancestor, or a row that is not an op). One
 * pass over the launches, one walk per row (counted_of memoizes). */
static int build_rollup(jctx *c)
{
	tlc_join *j = c->j;
	size_t n = c->nrows ? c->nrows : 1;
	j->counted = tlc_alloc__malloc(c->a, n * sizeof *j->counted);
	if (!j->counted)
		return tlc_error__oom();
	for (size_t i = 0; i < c->nrows; i++)
		j->counted[i] = CNT_UNKNOWN;
	for (size_t i = 0; i < c->nrows; i++)
		(void)counted_of(c, i);
	for (size_t i = 0; i < j->nlaunches; i++) {
		const tlc_jlaunch *l = &j->launches[i];
		if (l->status != TLC_ATTR_ATTRIBUTED)
			continue;
		int64_t d = dur_of(c->devs, l->rec), k = is_kernel(c->devs, l->rec) ? d : 0;
		size_t to = tlc_join__costed_row(j, l->target);
		if (tlc_overlay__add_costed(&j->ov, to, d, k) < 0)
			return tlc_error__oom();
		if (tlc_eval__row_not_op(c->ev, to))
			SAT_ADD(j->costed_not_op_kernel_ns, k);
		else
			SAT_ADD(j->costed_op_kernel_ns, k);
	}
	return 0;
}

size_t tlc_join__costed_row(const tlc_join *j, size_t i)
{
	int64_t k = counted_get(j, i);
	return k >= 0 ? (size_t)k : i;
}

const tlc_overlay *tlc_join__overlay(const tlc_join *j) { return &j->ov; }

int64_t tlc_join__group_kernel_ns(const tlc_join *j, size_t g)
{
	return j->group_kernel && g < j->ngroups ? j->group_kernel[g] : 0;
}

/* ---------------------------------------------------------------- */
/* run                                                               */
/* ---------------------------------------------------------------- */

static int check_eval(tlc_eval *ev, size_t *nrows)
{
	if (!tlc_eval__finished(ev))
		return tlc_error__set(TLC_ESTATE, "eval_not_finished",
		                      "call tlc_eval_finish before tlc_join_run",
		                      "the evaluation is not finished");
	tlc_coverage cov = TLC_COVERAGE_INIT;
	int rc = tlc_eval_coverage(&cov, ev);
	if (rc < 0)
		return rc;
	*nrows = tlc_eval_op_count(ev);
	if (cov.rows > 0 && *nrows == 0)
		return tlc_error__set(TLC_ESTATE, "join_requires_op_rows",
		                      "create the evaluation with tlc_eval_options.keep_ops = 1",
		                      "the join needs the op rows, and this evaluation kept none");
	return 0;
}

/* Availability (contract section 8) from the records and the device
 * profiler's own statement: a profiler that says it was unavailable and
 * left no launches is unavailable with its message; one that ran and saw
 * nothing is empty even with no records at all; one that dropped records
 * makes every count a lower bound (as TLC_JOIN_INPUT_PARTIAL does), also
 * when nothing it kept is a launch. Launch records present always count. */
static void set_state(jctx *c, unsigned flags)
{
	tlc_join_summary *s = &c->j->sum;
	const tlc_profiler_status *ps = tlc_eval_profiler_status(c->ev);
	tlc_profiler_state prof = ps->state;
	s->profiler_state = prof;
	s->profiler_source = ps->source;
	s->profiler_message = ps->message;
	int partial = (flags & TLC_JOIN_INPUT_PARTIAL) || prof == TLC_PROFILER_PARTIAL;
	size_t nl = 0;
	for (size_t i = 0; i < c->ndev; i++)
		nl += (size_t)is_launch(tlc_devs__kind(c->devs, i)->kind);
	if (nl == 0 && prof == TLC_PROFILER_UNAVAILABLE)
		s->state = TLC_JOIN_UNAVAILABLE;
	else if (nl == 0 && partial && (c->ndev > 0 || prof == TLC_PROFILER_PARTIAL))
		s->state = TLC_JOIN_PARTIAL;
	else if (c->ndev == 0 && prof == TLC_PROFILER_EMPTY)
		s->state = TLC_JOIN_EMPTY;
	else if (c->ndev == 0)
		s->state = TLC_JOIN_UNAVAILABLE;
	else if (nl == 0)
		s->state = TLC_JOIN_EMPTY;
	else if (partial)
		s->state = TLC_JOIN_PARTIAL;
	else
		s->state = TLC_JOIN_JOINED;
}

/* The reason of a join with nothing to join, naming the profiler's word. */
static void nothing_reason(jctx *c)
{
	tlc_join *j = c->j;
	const tlc_join_summary *s = &j->sum;
	const char *src = s->profiler_source ? s->profiler_source : "device profiler";
	if (s->state == TLC_JOIN_UNAVAILABLE && s->profiler_state == TLC_PROFILER_UNAVAILABLE)
		snprintf(j->reason, sizeof j->reason, "the device profiler (%s) was unavailable: %s",
		         src, s->profiler_message ? s->profiler_message : "it gave no reason");
	else if (s->state == TLC_JOIN_UNAVAILABLE)
		snprintf(j->reason, sizeof j->reason,
		         "no device records: the input was captured without a device profiler");
	else if (s->profiler_state == TLC_PROFILER_EMPTY)
		snprintf(j->reason, sizeof j->reason,
		         "the device profiler (%s) ran and saw no device activity", src);
	else
		snprintf(j->reason, sizeof j->reason,
		         "the device profiler (%s) dropped records and kept no launch", src);
}

static int join_body(jctx *c, unsigned flags)
{
	tlc_join *j = c->j;
	int rc = build_host_index(c);
	if (rc == 0)
		rc = build_row_index(c);
	if (rc < 0)
		return rc;
	mark_launch_calls(c);
	count_external_ids(c);
	choose_path(c, flags);
	if (j->sum.state == TLC_JOIN_UNAVAILABLE || (c->ndev == 0 && j->sum.state != TLC_JOIN_JOINED)) {
		j->sum.path = TLC_JOIN_PATH_NONE;
		nothing_reason(c);
	}
	if (j->sum.path == TLC_JOIN_PATH_CONTAINMENT && (rc = containment(c)) < 0)
		return rc;
	if ((rc = resolve_all(c)) < 0 || (rc = mark_not_op(c)) < 0)
		return rc;
	if ((rc = tlc_overlay__init(&j->ov, c->a, c->nrows, j->sum.state != TLC_JOIN_UNAVAILABLE)) < 0)
		return rc;
	if ((rc = build_annotations(c)) < 0)
		return rc;
	j->group_kernel = tlc_alloc__calloc(c->a, j->ngroups ? j->ngroups : 1, sizeof *j->group_kernel);
	if (!j->group_kernel)
		return tlc_error__oom();
	for (size_t i = 0; i < j->nlaunches; i++) {
		int p = launch_phase(j, c->rows, &j->launches[i]), q;
		add_summary(&j->sum, c->devs, &j->launches[i]);
		if (p < 0 && (q = annotated_phase(c, &j->launches[i])) >= 0)
			add_annotated(j, q, &j->launches[i]);
		else
			add_phase(j, p, &j->launches[i]);
		if ((rc = add_rows(j, &j->launches[i])) < 0)
			return rc;
	}
	j->sum.ambiguous_groups = j->ngroups;
	finish_phases(j);
	if ((rc = build_devices(c)) < 0 || (rc = build_remainder(c)) < 0 ||
	    (rc = build_wrappers(c)) < 0 || (rc = build_rollup(c)) < 0)
		return rc;
	known_cost(c);
	return 0;
}

static void ctx_free(jctx *c)
{
	tlc_alloc__free(c->a, c->host_by_corr);
	tlc_alloc__free(c->a, c->row_by_corr);
	tlc_alloc__free(c->a, c->owns_launch);
	tlc_alloc__free(c->a, c->cand_off);
	tlc_alloc__free(c->a, c->cand_n);
	tlc_alloc__free(c->a, c->cand_pool);
	tlc_alloc__free(c->a, c->buf);
	tlc_hindex__free(&c->group_index);
	tlc_alloc__free(c->a, c->goff);
	tlc_alloc__free(c->a, c->annots);
	tlc_alloc__free(c->a, c->annot_reach);
}

int tlc_join_run(tlc_join **out, tlc_eval *ev, const tlc_join_options *opts)
{
	if (!out || !ev)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an out pointer and an eval",
		                      "tlc_join_run: NULL argument");
	*out = NULL;
	size_t nrows;
	int rc = check_eval(ev, &nrows);
	if (rc < 0)
		return rc;
	jctx c;
	memset(&c, 0, sizeof c);
	c.ev = ev;
	c.rows = tlc_eval__rows(ev);
	c.devs = tlc_eval__devs(ev);
	c.a = tlc_eval__allocator(ev);
	tlc_hindex__init(&c.group_index, c.a);
	c.ndev = tlc_eval__device_count(ev);
	c.nrows = nrows;
	c.j = tlc_alloc__calloc(c.a, 1, sizeof *c.j);
	size_t nd = c.ndev ? c.ndev : 1;
	c.owns_launch = tlc_alloc__calloc(c.a, nd, 1);
	unsigned flags = opts ? opts->flags : 0;
	if (!c.j || !c.owns_launch) {
		rc = tlc_error__oom();
	} else {
		c.j->a = c.a;
		c.j->devs = c.devs;
		c.j->nrows = nrows;
		c.j->sum.gate_permille = opts && opts->gate_permille ? opts->gate_permille : 950;
		c.j->detail.size = sizeof c.j->detail;
		set_state(&c, flags);
		rc = join_body(&c, flags);
	}
	ctx_free(&c);
	if (rc < 0) {
		tlc_join_free(c.j);
		return rc;
	}
	c.j->ev = ev;
	tlc_eval__attach_overlay(ev, &c.j->ov); /* tlc_eval_op_get's device time */
	*out = c.j;
	return 0;
}

void tlc_join_free(tlc_join *j)
{
	if (!j)
		return;
	const tlc_allocator *a = j->a;
	tlc_alloc__free(a, j->devices);
	tlc_alloc__free(a, j->remainder);
	for (size_t i = 0; i < j->nwrappers; i++)
		tlc_alloc__free(a, (void *)j->wrappers[i].name);
	tlc_alloc__free(a, j->wrappers);
	tlc_alloc__free(a, j->launches);
	tlc_alloc__free(a, j->groups);
	tlc_alloc__free(a, j->group_rows);
	tlc_alloc__free(a, j->counted);
	tlc_alloc__free(a, j->group_kernel);
	if (j->ev && tlc_eval__overlay(j->ev) == &j->ov)
		tlc_eval__attach_overlay(j->ev, NULL);
	tlc_overlay__free(&j->ov);
	tlc_alloc__free(a, j);
}

/* ---------------------------------------------------------------- */
/* accessors                                                         */
/* ---------------------------------------------------------------- */

const tlc_join_summary *tlc_join_get_summary(const tlc_join *j) { return j ? &j->sum : NULL; }

const tlc_join_phase *tlc_join_phase_at(const tlc_join *j, tlc_phase p)
{
	return j && (unsigned)p < TLC_PHASE_COUNT ? &j->phases[p] : NULL;
}

size_t tlc_join_device_count(const tlc_join *j) { return j ? j->ndevices : 0; }
const tlc_join_device *tlc_join_device_at(const tlc_join *j, size_t i)
{
	return j && i < j->ndevices ? &j->devices[i] : NULL;
}

size_t tlc_join_remainder_count(const tlc_join *j) { return j ? j->nremainder : 0; }
const tlc_join_remainder *tlc_join_remainder_at(const tlc_join *j, size_t i)
{
	return j && i < j->nremainder ? &j->remainder[i] : NULL;
}

size_t tlc_join_wrapper_count(const tlc_join *j) { return j ? j->nwrappers : 0; }
const tlc_join_wrapper *tlc_join_wrapper_at(const tlc_join *j, size_t i)
{
	return j && i < j->nwrappers ? &j->wrappers[i] : NULL;
}

int tlc_join_detail_get(const tlc_join *j, tlc_join_detail *out)
{
	if (!j || !out || out->size < offsetof(tlc_join_detail, phase_annotated_ns) +
	                               sizeof out->phase_annotated_ns)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a join and a tlc_join_detail with .size = "
		                      "sizeof(tlc_join_detail) (TLC_JOIN_DETAIL_INIT)",
		                      "tlc_join_detail_get: bad argument");
	uint32_t size = out->size;
	tlc_join_detail d = j->detail;
	memcpy(out, &d, size < sizeof d ? size : sizeof d);
	out->size = size;
	return 0;
}

size_t tlc_join_launch_count(const tlc_join *j) { return j ? j->nlaunches : 0; }

tlc_join_launch tlc_join__launch(const tlc_join *j, size_t i)
{
	const tlc_jlaunch *l = &j->launches[i];
	tlc_join_launch o = TLC_JOIN_LAUNCH_INIT;
	o.rec = l->rec;
	o.runtime = l->runtime == TLC_JOIN__NONE ? -1 : (int64_t)l->runtime;
	o.status = (tlc_attribution)l->status;
	if (l->status == TLC_ATTR_ATTRIBUTED)
		o.op_row = l->target;
	else if (l->status == TLC_ATTR_AMBIGUOUS)
		o.group = l->target;
	o.why = l->why < sizeof why_text / sizeof *why_text ? why_text[l->why] : NULL;
	return o;
}

int tlc_join_launch_get(const tlc_join *j, size_t i, tlc_join_launch *out)
{
	if (!j || !out || out->size < offsetof(tlc_join_launch, why) + sizeof out->why ||
	    i >= j->nlaunches)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a launch index below tlc_join_launch_count and a "
		                      "tlc_join_launch with .size = sizeof(tlc_join_launch)",
		                      "tlc_join_launch_get: bad argument");
	uint32_t size = out->size;
	tlc_join_launch o = tlc_join__launch(j, i);
	memcpy(out, &o, size < sizeof o ? size : sizeof o);
	out->size = size;
	return 0;
}

size_t tlc_join_group_count(const tlc_join *j) { return j ? j->ngroups : 0; }
const tlc_join_group *tlc_join_group_at(const tlc_join *j, size_t i)
{
	return j && i < j->ngroups ? &j->groups[i] : NULL;
}

int tlc_join_rollup(int64_t *counted, const tlc_join *j, size_t row)
{
	if (!counted || !j || row >= j->nrows)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a row index below the row count",
		                      "tlc_join_rollup: bad argument");
	*counted = counted_get(j, row);
	return 0;
}

int64_t tlc_join_counted_kernel_ns(const tlc_join *j, size_t row)
{
	if (!j || row >= j->nrows || !j->counted || counted_get(j, row) != (int64_t)row)
		return 0;
	return tlc_overlay__costed_kernel_ns(&j->ov, row);
}

int tlc_join_require_device_time(const tlc_join *j)
{
	if (!j)
		return tlc_error__set(TLC_EREFUSED, "device_time_unavailable",
		                      "run `tlcost join` on a trace or op log that carries kernel and "
		                      "runtime records (torch.profiler with CUDA activities)",
		                      "device time was requested but no device-time join ran");
	if (j->sum.state == TLC_JOIN_UNAVAILABLE)
		return tlc_error__set(TLC_EREFUSED, "device_time_unavailable",
		                      "capture with a device profiler (torch.profiler activities "
		                      "including CUDA) so kernels and runtime calls are recorded",
		                      "device time was requested but the input has no device records");
	return 0;
}

int tlc_join_kernel_utilization(double *out, const tlc_join *j, const tlc_eval *ev,
                                double peak_flops)
{
	if (!out || !ev || !(peak_flops > 0))
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a positive peak FLOP/s",
		                      "tlc_join_kernel_utilization: bad argument");
	if (!j || !j->sum.gate_passed)
		return tlc_error__set(TLC_EREFUSED, "kernel_utilization_requires_device_join",
		                      "join device time first (`tlcost join`) on a capture whose join "
		                      "attributes at least the gate share of kernel time in forward and backward",
		                      j ? "the device-time join did not pass the attribution gate"
		                        : "no device-time join ran");
	double flops = 0, secs = 0;
	const tlc_rows *rows = tlc_eval__rows(ev);
	for (size_t i = 0; i < j->nrows; i++) {
		const tlc_cost *cost = tlc_rows__kind(rows, i)->cost;
		int64_t kn = tlc_join_counted_kernel_ns(j, i);
		if (counted_get(j, i) != (int64_t)i || kn <= 0 || !cost)
			continue;
		flops += tlc_cost_flops_double(cost);
		secs += (double)kn * 1e-9;
	}
	if (!(secs > 0))
		return tlc_error__set(TLC_EREFUSED, "kernel_utilization_requires_device_join",
		                      "no counted op owns kernel time: check the join's remainder",
		                      "no attributed kernel time belongs to a counted op");
	*out = flops / (secs * peak_flops);
	return 0;
}

uint64_t tlc_join_capture_paired(const tlc_join *j, int64_t *kernel_ns)
{
	uint64_t n = 0;
	int64_t t = 0;
	for (size_t i = 0; j && i < j->nlaunches; i++) {
		const tlc_jlaunch *l = &j->launches[i];
		if (l->via_capture && l->status == TLC_ATTR_ATTRIBUTED && is_kernel(j->devs, l->rec)) {
			n++;
			int64_t d = dur_of(j->devs, l->rec);
			SAT_ADD(t, d);
		}
	}
	if (kernel_ns)
		*kernel_ns = t;
	return n;
}
