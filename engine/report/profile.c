/* Profile tables: per op, per op type, per module; sorted by FLOPs, bytes,
 * intensity, instrumented time or count. Sums are exact (tlc_count). */
#include <stdlib.h>
#include <string.h>
#include "reports.h"
#include "eval.h"
#include "hindex.h"
#include "join.h"
#include "overlay.h"

typedef struct pgroup {
	tlc_profile_row pub;
	tlc_count flops, bytes;
	int bytes_unknown, time_missing, dev_missing;
	unsigned phases;         /* bit per tlc_phase of the row's ops */
	int pdtype;              /* the ops' peak dtype; -1 none, -2 mixed */
	tlc_profile_sort sort;   /* copied so qsort needs no context */
	size_t order;            /* first appearance, for stable ties */
} pgroup;

struct tlc_profile {
	const tlc_allocator *a;
	const tlc_eval *ev;
	tlc_profile_options opts;
	tlc_arena ar;
	pgroup *g;
	size_t n, cap, shown;
	tlc_hindex index;        /* hash of the key -> g index (by type, by module) */
	int any_time, any_dev;
	const tlc_join *join;    /* given beside the eval, or NULL */
	const tlc_overlay *ov;   /* the join's per-row times (its own, or the eval's attached) */
	tlc_profile_rollup roll;
	int util;                /* tlc_profile_build_util */
	tlc_rep_ceil ceil;       /* its ceilings */
	/* By op, by FLOPs, top K, no ambiguous group rows: only the K best
	 * groups so far are held (a heap, worst at the root); a row that does
	 * not enter, or is pushed out, is counted as a hidden row (topk) */
	int topk;
	size_t *heap, seen, dropped;
	int64_t dropped_ns;
};

static const char *row_key(tlc_profile *p, const tlc_op_row *r, char *buf, size_t cap)
{
	if (p->opts.by == TLC_PROFILE_BY_MODULE)
		return r->module && *r->module ? r->module : "(root)";
	if (p->opts.by == TLC_PROFILE_BY_ARGS) {
		snprintf(buf, cap, "%s%s%s %s", r->name, r->overload && *r->overload ? "." : "",
		         r->overload ? r->overload : "", r->shapes && *r->shapes ? r->shapes : "()");
		return buf;
	}
	if (r->overload && *r->overload) {
		snprintf(buf, cap, "%s.%s", r->name, r->overload);
		return buf;
	}
	return r->name;
}

static int init_group(tlc_profile *p, pgroup *g, const char *key, size_t order)
{
	memset(g, 0, sizeof *g);
	tlc_count__init(&g->flops);
	tlc_count__init(&g->bytes);
	g->pub.key = tlc_arena__strdup(&p->ar, key);
	g->pub.intensity = -1;
	g->pub.group = -1;
	g->pub.recoverable_ns = -1;
	g->pdtype = -3; /* no op yet */
	g->sort = p->opts.sort;
	g->order = order;
	return g->pub.key ? 0 : tlc_error__oom();
}

static int new_group(tlc_profile *p, const char *key, size_t *out)
{
	if (tlc_alloc__grow(p->a, (void **)&p->g, &p->cap, p->n + 1, sizeof *p->g))
		return TLC_ENOMEM;
	*out = p->n++;
	return init_group(p, &p->g[*out], key, *out);
}

static int group_eq(size_t idx, const void *key, const void *payload)
{
	return strcmp(((const tlc_profile *)payload)->g[idx].pub.key, key) == 0;
}

/* Group of key (created when absent). By op, every row is its own group. */
static int group_of(tlc_profile *p, const char *key, size_t *out)
{
	if (p->opts.by == TLC_PROFILE_BY_OP)
		return new_group(p, key, out);
	uint64_t h = tlc_hash__bytes(key, strlen(key));
	if (tlc_hindex__reserve(&p->index, p->n + 1) < 0)
		return TLC_ENOMEM;
	tlc_hslot *s = tlc_hindex__probe(&p->index, h, group_eq, key, p);
	if (s->idx1) {
		*out = s->idx1 - 1;
		return 0;
	}
	int rc = new_group(p, key, out);
	if (rc == 0)
		tlc_hindex__fill(&p->index, s, h, *out);
	return rc;
}

static int add_row(tlc_profile *p, pgroup *g, const tlc_op_row *r, size_t i)
{
	tlc_peak_dtype pd;
	int d = tlc_peak_dtype_of(&pd, r->dtype) == 0 ? (int)pd : -1;
	g->pdtype = g->pdtype == -3 || g->pdtype == d ? d : -2;
	g->phases |= 1u << r->phase;
	if (p->roll.present) {
		g->pub.has_costed_time = 1;
		g->pub.costed_device_ns += tlc_overlay__costed_device_ns(p->ov, i);
		g->pub.costed_kernel_ns += tlc_overlay__costed_kernel_ns(p->ov, i);
	}
	g->pub.count++;
	if (r->cls == TLC_CLASS_UNKNOWN)
		g->pub.unknown++;
	tlc_rep__add_flops(&g->flops, r);
	if (tlc_rep__add_bytes(&g->bytes, r))
		g->bytes_unknown = 1;
	if (r->op_flags & TLC_OP_HAS_HOST_NS) {
		g->pub.time_ns += r->host_ns;
		p->any_time = 1;
	} else {
		g->time_missing = 1;
	}
	if (r->row_flags & TLC_ROW_HAS_DEVICE_TIME) {
		g->pub.device_time_ns += r->device_time_ns;
		g->pub.kernel_time_ns += r->kernel_time_ns;
		p->any_dev = 1;
	} else {
		g->dev_missing = 1;
	}
	if (p->opts.by == TLC_PROFILE_BY_OP) { /* the profile's own copy: rows are not stored as structs */
		tlc_op_row *cp = tlc_arena__alloc(&p->ar, sizeof *cp);
		if (!cp)
			return tlc_error__oom();
		*cp = *r;
		g->pub.op = cp;
	}
	return 0;
}

/* Ambiguous groups, one row each: the group's time as one unit (never
 * split by a guess), its cost the sum of its ops' costed rows' (each
 * distinct costed row once). Kernel ns per group from the launches: one
 * pass. A phase filter keeps the groups whose ops all lie in that phase. */
static int collect_groups(tlc_profile *p)
{
	const tlc_join *j = p->join;
	size_t ng = tlc_join_group_count(j);
	if (ng == 0)
		return 0;
	int rc = 0;
	for (size_t gi = 0; gi < ng && rc == 0; gi++) {
		const tlc_join_group *jg = tlc_join_group_at(j, gi);
		if (jg->nrows == 0 || jg->launches == 0)
			continue;
		int same = 1;
		tlc_phase ph = tlc_eval__row(p->ev, jg->rows[0]).phase;
		for (size_t k = 1; k < jg->nrows; k++)
			same &= tlc_eval__row(p->ev, jg->rows[k]).phase == ph;
		if (p->opts.phase >= 0 && (!same || (int)ph != p->opts.phase))
			continue;
		char key[512];
		size_t used = (size_t)snprintf(key, sizeof key, "(ambiguous group %lld:",
		                               (long long)jg->id);
		for (size_t k = 0; k < jg->nrows && used < sizeof key; k++) {
			tlc_op_row r = tlc_eval__row(p->ev, jg->rows[k]);
			const char *nm = p->opts.by == TLC_PROFILE_BY_MODULE
			                 ? (r.module && *r.module ? r.module : "(root)") : r.name;
			used += (size_t)snprintf(key + used, sizeof key - used, "%s%s", k ? " | " : " ", nm);
		}
		if (used < sizeof key)
			snprintf(key + used, sizeof key - used, ")");
		size_t at;
		if ((rc = new_group(p, key, &at)) < 0)
			break;
		pgroup *g = &p->g[at];
		g->pub.group = jg->id;
		g->pub.has_costed_time = 1;
		g->pub.costed_device_ns = jg->time_ns;
		g->pub.costed_kernel_ns = tlc_join__group_kernel_ns(j, gi);
		g->pub.device_time_ns = jg->time_ns;
		g->pub.kernel_time_ns = tlc_join__group_kernel_ns(j, gi);
		g->time_missing = 1;
		for (size_t k = 0; k < jg->nrows; k++) { /* each distinct costed row once */
			size_t c = tlc_join__costed_row(j, jg->rows[k]), d = 0;
			while (d < k && tlc_join__costed_row(j, jg->rows[d]) != c)
				d++;
			if (d < k)
				continue;
			tlc_op_row r = tlc_eval__row(p->ev, c);
			tlc_peak_dtype pd;
			int dt = tlc_peak_dtype_of(&pd, r.dtype) == 0 ? (int)pd : -1;
			g->pdtype = g->pdtype == -3 || g->pdtype == dt ? dt : -2;
			g->phases |= 1u << r.phase;
			g->pub.count++;
			if (r.cls == TLC_CLASS_UNKNOWN || r.cls == TLC_CLASS_NOT_APPLICABLE)
				g->pub.unknown++;
			tlc_rep__add_flops(&g->flops, &r);
			if (tlc_rep__add_bytes(&g->bytes, &r))
				g->bytes_unknown = 1;
		}
		p->roll.ambiguous_ns += tlc_join__group_kernel_ns(j, gi);
	}
	return rc;
}

static int cmp_group(const void *x, const void *y);

static int worse(const tlc_profile *p, size_t a, size_t b)
{
	return cmp_group(&p->g[a], &p->g[b]) > 0;
}

static void sift_down(tlc_profile *p, size_t i)
{
	size_t n = p->n, *h = p->heap;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, w = i;
		if (l < n && worse(p, h[l], h[w]))
			w = l;
		if (r < n && worse(p, h[r], h[w]))
			w = r;
		if (w == i)
			return;
		size_t t = h[i];
		h[i] = h[w];
		h[w] = t;
		i = w;
	}
}

static void sift_up(tlc_profile *p, size_t i)
{
	size_t *h = p->heap;
	while (i > 0 && worse(p, h[i], h[(i - 1) / 2])) {
		size_t up = (i - 1) / 2, t = h[i];
		h[i] = h[up];
		h[up] = t;
		i = up;
	}
}

/* A row left out of the held top K: what it would have added beside its
 * own hidden row (the time columns shown, the costed roll-up). */
static void drop_row(tlc_profile *p, const tlc_op_row *r, size_t i)
{
	p->dropped++;
	if (p->roll.present)
		p->dropped_ns += tlc_overlay__costed_kernel_ns(p->ov, i);
	if (r->op_flags & TLC_OP_HAS_HOST_NS)
		p->any_time = 1;
	if (r->row_flags & TLC_ROW_HAS_DEVICE_TIME)
		p->any_dev = 1;
}

/* By op, top K by FLOPs: the rows sort by FLOPs, then by first
 * appearance, so a row enters once K are held only with more FLOPs than
 * the worst held, which it pushes out. The K held sort as the full table's
 * first K; the others are counted, never stored. */
static int topk_row(tlc_profile *p, const tlc_op_row *r, size_t i, const char *key)
{
	size_t order = p->seen++, at;
	if (p->n < p->opts.top) {
		if (tlc_alloc__grow(p->a, (void **)&p->g, &p->cap, p->n + 1, sizeof *p->g))
			return TLC_ENOMEM;
		at = p->n;
		int rc = init_group(p, &p->g[at], key, order);
		if (rc == 0)
			rc = add_row(p, &p->g[at], r, i);
		p->heap[p->n++] = at;
		sift_up(p, p->n - 1);
		return rc;
	}
	tlc_count f;
	tlc_count__init(&f);
	tlc_rep__add_flops(&f, r);
	at = p->heap[0];
	int in = tlc_count__cmp(&f, &p->g[at].flops) > 0;
	tlc_count__clear(&f);
	if (!in) {
		drop_row(p, r, i);
		return 0;
	}
	pgroup *g = &p->g[at];
	p->dropped++;
	p->dropped_ns += g->pub.costed_kernel_ns;
	tlc_count__clear(&g->flops);
	tlc_count__clear(&g->bytes);
	int rc = init_group(p, g, key, order);
	if (rc == 0)
		rc = add_row(p, g, r, i);
	sift_down(p, 0);
	return rc;
}

/* Adds row i (r, decoded once) to p's table. */
static int collect_row(tlc_profile *p, const tlc_op_row *r, size_t i)
{
	char buf[512];
	size_t gi;
	if (p->opts.phase >= 0 && (int)r->phase != p->opts.phase)
		return 0;
	if (r->cls == TLC_CLASS_NOT_APPLICABLE) { /* a wrapper, or a counted op's child */
		p->roll.not_op_ns += tlc_overlay__costed_kernel_ns(p->ov, i);
		return 0;
	}
	if (p->topk)
		return topk_row(p, r, i, row_key(p, r, buf, sizeof buf));
	int rc = group_of(p, row_key(p, r, buf, sizeof buf), &gi);
	if (rc)
		return rc;
	return add_row(p, &p->g[gi], r, i);
}

/* The tables of ps[0..n), all over the same eval and join: one pass over
 * the rows, each row decoded once and added to every table (tlcost html's
 * four profile-shaped tables share it). */
static int collect(tlc_profile *const *ps, size_t n)
{
	const tlc_profile *p0 = ps[0];
	size_t nops = tlc_eval_op_count(p0->ev);
	for (size_t i = 0; i < nops; i++) {
		tlc_op_row r = tlc_eval__row_with(p0->ev, p0->ov, i);
		for (size_t k = 0; k < n; k++) {
			int rc = collect_row(ps[k], &r, i);
			if (rc)
				return rc;
		}
	}
	int rc = 0;
	for (size_t k = 0; k < n && rc == 0; k++)
		rc = ps[k]->join ? collect_groups(ps[k]) : 0;
	return rc;
}

static int cmp_u(double a, double b) { return (a < b) - (a > b); } /* descending */

static int cmp_group(const void *x, const void *y)
{
	const pgroup *a = x, *b = y;
	int c = 0;
	switch (a->sort) {
	case TLC_SORT_BYTES:
		c = (a->bytes_unknown - b->bytes_unknown);
		if (!c)
			c = -tlc_count__cmp(&a->bytes, &b->bytes);
		break;
	case TLC_SORT_INTENSITY: c = cmp_u(a->pub.intensity, b->pub.intensity); break;
	case TLC_SORT_TIME: c = cmp_u((double)a->pub.time_ns, (double)b->pub.time_ns); break;
	case TLC_SORT_COUNT: c = cmp_u((double)a->pub.count, (double)b->pub.count); break;
	case TLC_SORT_HEADROOM: c = cmp_u(a->pub.recoverable_ns, b->pub.recoverable_ns); break;
	default: c = -tlc_count__cmp(&a->flops, &b->flops); break;
	}
	return c ? c : (a->order > b->order) - (a->order < b->order);
}

static int cmp_group_ptr(const void *x, const void *y)
{
	return cmp_group(*(const pgroup *const *)x, *(const pgroup *const *)y);
}

/* The row's figures that order it (intensity) and its flags; its exact
 * decimals are written by name_shown, for the rows shown only (a by-op
 * table holds a group per op and shows the top K). */
static void finish_group(pgroup *g)
{
	g->pub.has_time = !g->time_missing;
	g->pub.has_device_time = !g->dev_missing;
	if (g->bytes_unknown)
		return;
	double b = tlc_count__to_double(&g->bytes);
	if (b > 0)
		g->pub.intensity = tlc_count__to_double(&g->flops) / b;
}

static int flops_known(const pgroup *g) { return g->pub.unknown < g->pub.count; }

/* The exact FLOPs and bytes (decimal) of the rows shown, once each: all
 * unknown leaves FLOPs unknown (NULL), never 0. */
static int name_shown(tlc_profile *p)
{
	for (size_t i = 0; i < p->shown; i++) {
		pgroup *g = &p->g[i];
		if (!g->pub.flops && flops_known(g) &&
		    !(g->pub.flops = tlc_rep__count_dup(&p->ar, &g->flops)))
			return tlc_error__oom();
		if (!g->pub.bytes && !g->bytes_unknown &&
		    !(g->pub.bytes = tlc_rep__count_dup(&p->ar, &g->bytes)))
			return tlc_error__oom();
	}
	return 0;
}

/* Sorts the groups by the table's order: through an array of pointers (a
 * group is a few hundred bytes; a by-op table has one per op), then moved
 * into that order in place, cycle by cycle (no second array of groups). */
static int sort_groups(tlc_profile *p)
{
	if (p->n < 2)
		return 0;
	pgroup **ix = tlc_alloc__calloc(p->a, p->n, sizeof *ix);
	if (!ix)
		return tlc_error__oom();
	for (size_t i = 0; i < p->n; i++)
		ix[i] = &p->g[i];
	qsort(ix, p->n, sizeof *ix, cmp_group_ptr);
	size_t *from = tlc_alloc__calloc(p->a, p->n, sizeof *from); /* position i takes from[i] */
	if (!from) {
		tlc_alloc__free(p->a, ix);
		return tlc_error__oom();
	}
	for (size_t i = 0; i < p->n; i++)
		from[i] = (size_t)(ix[i] - p->g);
	tlc_alloc__free(p->a, ix);
	for (size_t i = 0; i < p->n; i++) {
		if (from[i] == i)
			continue;
		pgroup tmp = p->g[i];
		size_t k = i;
		while (from[k] != i) {
			size_t next = from[k];
			p->g[k] = p->g[next];
			from[k] = k;
			k = next;
		}
		p->g[k] = tmp;
		from[k] = k;
	}
	tlc_alloc__free(p->a, from);
	return 0;
}

/* Attributed kernel utilization of one row (docs/cost-contract.md,
 * "Attributed kernel utilization per row"). */
static void row_util(const tlc_profile *p, pgroup *g, const tlc_rep_ceil *ceil)
{
	tlc_profile_row *r = &g->pub;
	for (int ph = 0; ph < TLC_PHASE_COUNT; ph++)
		if ((g->phases & (1u << ph)) && !tlc_join_phase_at(p->join, (tlc_phase)ph)->passed) {
			r->util_note = ph == TLC_PHASE_FORWARD ? "refused: the forward phase did not pass the gate"
			             : ph == TLC_PHASE_BACKWARD ? "refused: the backward phase did not pass the gate"
			             : "refused: a phase of its ops did not pass the gate";
			return;
		}
	if (!flops_known(g) || r->unknown) {
		r->util_note = flops_known(g) ? "lower bound FLOPs: some ops have no cost" : "FLOPs unknown";
		return;
	}
	if (r->costed_kernel_ns <= 0) {
		r->util_note = "no attributed kernel time";
		return;
	}
	double secs = (double)r->costed_kernel_ns * 1e-9;
	r->has_util = 1;
	r->recoverable_ns = -1;
	r->flops_per_s = tlc_count__to_double(&g->flops) / secs;
	r->bytes_per_s = !g->bytes_unknown ? tlc_count__to_double(&g->bytes) / secs : -1;
	int d = ceil->dtype_forced >= 0 ? ceil->dtype_forced : g->pdtype;
	double peak = d >= 0 ? ceil->dev.peak_flops[d] : 0;
	r->peak_dtype = d >= 0 ? tlc_peak_dtype_name((tlc_peak_dtype)d) : NULL;
	r->peak_share = peak > 0 ? r->flops_per_s / peak : -1;
	r->bw_share = r->bytes_per_s >= 0 && ceil->dev.mem_bw > 0 ? r->bytes_per_s / ceil->dev.mem_bw : -1;
	if (peak > 0) {
		double roof = tlc_count__to_double(&g->flops) / peak;
		if (!g->bytes_unknown && ceil->dev.mem_bw > 0 && tlc_count__to_double(&g->bytes) / ceil->dev.mem_bw > roof)
			roof = tlc_count__to_double(&g->bytes) / ceil->dev.mem_bw;
		double rec = (double)r->costed_kernel_ns - roof * 1e9;
		r->recoverable_ns = rec > 0 ? rec : 0;
	}
	if (r->peak_share > 1 || r->bw_share > 1)
		r->util_note = "above 100%: less kernel time than the work needs at peak: a kernel that "
		               "serves several ops (attributed to one), a fused launch, traffic below the "
		               "ideal (cache reuse) for bytes, or a peak below the device's";
	else if (peak <= 0)
		r->util_note = g->pdtype == -2 ? "mixed dtypes: no single peak" : "no peak for this dtype";
}

/* The refusals of tlc_profile_build_util that come before any row is
 * read: no join or a failed gate, and the ceilings' own errors. */
int tlc_profile__util_check(tlc_rep_ceil *out, const tlc_eval *ev, const tlc_join *j,
                            const tlc_ceilings *c)
{
	if (!ev || !c)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an eval and ceilings",
		                      "tlc_profile_build_util: NULL argument");
	if (!j || !tlc_join_get_summary(j)->gate_passed)
		return tlc_error__set(TLC_EREFUSED, "kernel_utilization_requires_device_join",
		                      "join device time first (`tlcost join`) on a capture whose join "
		                      "attributes at least the gate share of kernel time in forward and backward",
		                      j ? "the device-time join did not pass the attribution gate"
		                        : "no device-time join ran");
	return tlc_rep__resolve(out, ev, c);
}

/* Hides the rows past top and sums the roll-up over the rows. */
static void cut_rows(tlc_profile *p)
{
	p->shown = p->opts.top && p->opts.top < p->n ? p->opts.top : p->n;
	p->roll.rows_ns = p->roll.hidden_ns = 0;
	for (size_t i = 0; i < p->n; i++) {
		p->roll.rows_ns += p->g[i].pub.costed_kernel_ns;
		if (i >= p->shown)
			p->roll.hidden_ns += p->g[i].pub.costed_kernel_ns;
	}
	p->roll.rows_ns += p->dropped_ns;
	p->roll.hidden_ns += p->dropped_ns;
}

/* Attributed kernel utilization on every row of the built table p,
 * against the ceilings tlc_profile__util_check resolved. */
int tlc_profile__util_apply(tlc_profile *p, const tlc_rep_ceil *ceil)
{
	for (size_t i = 0; i < p->n; i++)
		row_util(p, &p->g[i], ceil);
	int rc = 0;
	if (p->opts.sort == TLC_SORT_HEADROOM && p->n > 1) { /* known only now */
		rc = sort_groups(p);
		cut_rows(p);
	}
	if (rc == 0)
		rc = name_shown(p);
	p->util = 1;
	p->ceil = *ceil;
	return rc;
}

int tlc_profile_build_util(tlc_profile **out, const tlc_eval *ev, const tlc_join *j,
                           const tlc_profile_options *opts, const tlc_ceilings *c)
{
	if (!out)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an eval and ceilings",
		                      "tlc_profile_build_util: NULL argument");
	tlc_rep_ceil ceil;
	int rc = tlc_profile__util_check(&ceil, ev, j, c);
	if (rc < 0)
		return rc;
	tlc_profile *p;
	if ((rc = tlc_profile_build_joined(&p, ev, j, opts)) < 0)
		return rc;
	if ((rc = tlc_profile__util_apply(p, &ceil)) < 0) {
		tlc_profile_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

int tlc_profile__util(const tlc_profile *prof) { return prof->util; }
const tlc_rep_ceil *tlc_profile__ceil(const tlc_profile *prof) { return &prof->ceil; }

int tlc_profile_build(tlc_profile **out, const tlc_eval *ev, const tlc_profile_options *opts)
{
	return tlc_profile_build_joined(out, ev, NULL, opts);
}

static int profile_new(tlc_profile **out, const tlc_eval *ev, const tlc_join *j,
                       const tlc_profile_options *opts)
{
	const tlc_allocator *a = tlc_eval__allocator(ev);
	tlc_profile *p = tlc_alloc__calloc(a, 1, sizeof *p);
	if (!p)
		return tlc_error__oom();
	p->a = a;
	tlc_hindex__init(&p->index, a);
	p->ev = ev;
	p->join = j;
	p->opts.phase = -1;
	if (opts)
		memcpy(&p->opts, opts, opts->size && opts->size < sizeof p->opts ? opts->size
		                                                                 : sizeof p->opts);
	tlc_arena__init(&p->ar, a, 8192);
	p->roll = (tlc_profile_rollup)TLC_PROFILE_ROLLUP_INIT;
	p->ov = p->join ? tlc_join__overlay(p->join) : tlc_eval__overlay(ev);
	p->roll.present = p->ov && p->ov->ready && p->ov->available;
	if (p->ov && !p->ov->ready)
		p->ov = NULL;
	p->topk = p->opts.by == TLC_PROFILE_BY_OP && p->opts.top > 0 &&
	          p->opts.top < tlc_eval_op_count(ev) && p->opts.sort == TLC_SORT_FLOPS &&
	          !(j && tlc_join_group_count(j) > 0);
	if (p->topk && !(p->heap = tlc_alloc__calloc(a, p->opts.top, sizeof *p->heap))) {
		tlc_profile_free(p);
		return tlc_error__oom();
	}
	*out = p;
	return 0;
}

/* Orders and cuts a collected table. */
static int profile_finish(tlc_profile *p)
{
	tlc_hindex__free(&p->index); /* the groups are sorted next: their indices change */
	for (size_t i = 0; i < p->n; i++)
		finish_group(&p->g[i]);
	int rc = sort_groups(p);
	if (rc < 0)
		return rc;
	cut_rows(p);
	if (p->join && p->opts.phase < 0) {
		const tlc_join_summary *s = tlc_join_get_summary(p->join);
		p->roll.joined_ns = s->kernel_attributed_ns + s->kernel_ambiguous_ns;
	}
	return name_shown(p);
}

int tlc_profile__build_set(tlc_profile **out, size_t n, const tlc_eval *ev, const tlc_join *j,
                           const tlc_profile_options *const *opts)
{
	int rc = tlc_rep__check_eval(ev);
	if (rc)
		return rc;
	if (!out || n == 0)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass at least one table",
		                      "tlc_profile__build_set: no table");
	for (size_t k = 0; k < n; k++)
		out[k] = NULL;
	for (size_t k = 0; k < n && rc == 0; k++)
		rc = profile_new(&out[k], ev, j, opts[k]);
	if (rc == 0)
		rc = collect(out, n);
	for (size_t k = 0; k < n && rc == 0; k++)
		rc = profile_finish(out[k]);
	if (rc < 0)
		for (size_t k = 0; k < n; k++) {
			tlc_profile_free(out[k]);
			out[k] = NULL;
		}
	return rc;
}

int tlc_profile_build_joined(tlc_profile **out, const tlc_eval *ev, const tlc_join *j,
                             const tlc_profile_options *opts)
{
	return tlc_profile__build_set(out, 1, ev, j, &opts);
}

void tlc_profile_free(tlc_profile *prof)
{
	if (!prof)
		return;
	for (size_t i = 0; i < prof->n; i++) {
		tlc_count__clear(&prof->g[i].flops);
		tlc_count__clear(&prof->g[i].bytes);
	}
	tlc_alloc__free(prof->a, prof->g);
	tlc_alloc__free(prof->a, prof->heap);
	tlc_hindex__free(&prof->index);
	tlc_arena__free(&prof->ar);
	tlc_alloc__free(prof->a, prof);
}

size_t tlc_profile_row_count(const tlc_profile *prof) { return prof ? prof->shown : 0; }

const tlc_profile_row *tlc_profile_row_at(const tlc_profile *prof, size_t i)
{
	return prof && i < prof->shown ? &prof->g[i].pub : NULL;
}

size_t tlc_profile_hidden_rows(const tlc_profile *prof)
{
	return prof ? prof->n - prof->shown + prof->dropped : 0;
}

const tlc_profile_options *tlc_profile__options(const tlc_profile *prof)
{
	return &prof->opts;
}

const tlc_eval *tlc_profile__eval(const tlc_profile *prof) { return prof->ev; }
int tlc_profile__any_time(const tlc_profile *prof) { return prof->any_time; }
int tlc_profile__any_device_time(const tlc_profile *prof) { return prof->any_dev; }

int tlc_profile_rollup_get(const tlc_profile *prof, tlc_profile_rollup *out)
{
	if (!prof || !out || out->size < sizeof(uint32_t) + sizeof(int))
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass a profile and a tlc_profile_rollup with .size set "
		                      "(TLC_PROFILE_ROLLUP_INIT)", "tlc_profile_rollup_get: bad argument");
	uint32_t size = out->size;
	memcpy(out, &prof->roll, size < sizeof prof->roll ? size : sizeof prof->roll);
	out->size = size;
	return 0;
}
