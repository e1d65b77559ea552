/* One report over many ranks (`tlcost ranks`, docs/collectives.md "Many
 * ranks"). The caller evaluates one rank at a time and hands the finished
 * evaluation (and its device-time join) to tlc_ranks_add, which keeps one
 * row per rank: exact FLOPs and communication bytes per phase, device times
 * and the start/end of each communication kernel (for the collective start
 * skew). Memory: the rows, not the traces.
 *
 * Device times: kernel time is the union of kernel intervals; idle time is
 * the device span (first kernel start to last kernel end) minus it;
 * communication kernels are the NCCL/RCCL kernels (name contains "nccl" or
 * "rccl"); overlap is the share of communication kernel time during which a
 * compute kernel runs (on another stream: one stream runs one kernel at a
 * time), as HTA's communication/computation overlap. Per phase through the
 * join (a kernel's phase is its op's). */
#include <ctype.h>
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include "tlcost/tlcost.h"
#include "error.h"
#include "jsonw.h"

typedef struct span {
	int64_t start, end;
	int phase;          /* tlc_phase, -1 unknown */
	int kind;           /* tlc_comm_kind of a comm kernel's op, -1 unknown */
	int comm;
} span;

typedef struct rank_row {
	char *name;
	int64_t rank, world_size;
	char *flops[TLC_PHASE_COUNT];     /* NULL: phase absent */
	mpz_t msg[TLC_PHASE_COUNT];
	mpq_t bus[TLC_PHASE_COUNT];
	int lower_bound;
	int joined;                       /* a join ran and attributed launches */
	int64_t first, last;              /* device span */
	int64_t kernel_ns, comm_ns, compute_ns, overlap_ns;
	int64_t ph_kernel[TLC_PHASE_COUNT], ph_comm[TLC_PHASE_COUNT], ph_overlap[TLC_PHASE_COUNT];
	span *colls;                      /* communication kernels, start order */
	size_t ncolls;
	/* achieved bandwidth: only when the join passed its gate */
	int gate_passed;
	uint64_t bw_calls[TLC_COMM_COUNT], bw_timed[TLC_COMM_COUNT];
	int64_t bw_ns[TLC_COMM_COUNT];
	mpz_t bw_msg[TLC_COMM_COUNT];      /* of the timed calls */
	mpq_t bw_bus[TLC_COMM_COUNT];
	const tlc_link_preset *link;      /* the rank's device's link, or NULL */
	struct coll_bw *bw_list;          /* each collective op, in row order */
	size_t nbw, bwcap;
} rank_row;

typedef struct coll_bw {
	int kind, phase;
	int64_t ns;                       /* rolled-up kernel time, 0 none */
	char *msg, *bus;                  /* exact, malloc'd */
} coll_bw;

struct tlc_ranks {
	tlc_ranks_options opts;
	tlc_devices *devs;
	const tlc_link_preset *link;      /* --link, or NULL */
	rank_row *rows;
	size_t nrows, cap;
};

int tlc_ranks_new(tlc_ranks **out, const tlc_ranks_options *opts)
{
	if (!out || (opts && opts->size < sizeof *opts))
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an out pointer and "
		                      "options with size = sizeof(tlc_ranks_options)",
		                      "tlc_ranks_new: bad argument");
	tlc_ranks *r = calloc(1, sizeof *r);
	if (!r)
		return tlc_error__oom();
	r->opts.size = sizeof r->opts;
	r->opts.threshold_permille = opts && opts->threshold_permille ? opts->threshold_permille : 100;
	if (tlc_devices_new(&r->devs) < 0) {
		free(r);
		return tlc_error__oom();
	}
	*out = r;
	return 0;
}

static void free_row(rank_row *w)
{
	free(w->name);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		free(w->flops[p]);
		mpz_clear(w->msg[p]);
		mpq_clear(w->bus[p]);
	}
	for (int k = 0; k < TLC_COMM_COUNT; k++) {
		mpz_clear(w->bw_msg[k]);
		mpq_clear(w->bw_bus[k]);
	}
	free(w->colls);
	for (size_t i = 0; i < w->nbw; i++) {
		tlc_free(w->bw_list[i].msg);
		tlc_free(w->bw_list[i].bus);
	}
	free(w->bw_list);
}

void tlc_ranks_free(tlc_ranks *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nrows; i++)
		free_row(&r->rows[i]);
	free(r->rows);
	tlc_devices_free(r->devs);
	free(r);
}

int tlc_ranks_set_link(tlc_ranks *r, const tlc_link_preset *link)
{
	if (!r)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass the ranks",
		                      "tlc_ranks_set_link: NULL argument");
	r->link = link;
	return 0;
}

/* ---- one rank ------------------------------------------------------- */

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
	const span *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

/* Union length of sorted spans selected by want (comm 0/1, -1 both) and
 * phase (-1 any). */
static int64_t union_ns(const span *v, size_t n, int want, int phase)
{
	int64_t total = 0, cs = 0, ce = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		if ((want >= 0 && v[i].comm != want) || (phase >= 0 && v[i].phase != phase))
			continue;
		if (v[i].start > ce) {
			if (ce > cs)
				total += ce - cs;
			cs = v[i].start;
			ce = v[i].end;
		} else if (v[i].end > ce) {
			ce = v[i].end;
		}
	}
	if (ce > cs && ce != INT64_MIN)
		total += ce - cs;
	return total;
}

/* Merged (sorted, disjoint) intervals of the selected spans into u. */
static size_t merged(span *u, const span *v, size_t n, int want, int phase)
{
	size_t nu = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].comm != want || (phase >= 0 && v[i].phase != phase))
			continue;
		if (nu && v[i].start <= u[nu - 1].end) {
			if (v[i].end > u[nu - 1].end)
				u[nu - 1].end = v[i].end;
		} else {
			u[nu++] = v[i];
		}
	}
	return nu;
}

/* Communication kernel time (of one phase, or all with -1) during which a
 * compute kernel runs; -1 when out of memory. */
static int64_t overlap_of(const span *v, size_t n, int phase)
{
	span *c = malloc((n + 1) * sizeof *c), *u = malloc((n + 1) * sizeof *u);
	if (!c || !u) {
		free(c), free(u);
		return -1;
	}
	size_t nc = merged(c, v, n, 1, phase), nu = merged(u, v, n, 0, -1);
	int64_t total = 0;
	for (size_t a = 0, b = 0; a < nc && b < nu;) {
		int64_t lo = c[a].start > u[b].start ? c[a].start : u[b].start;
		int64_t hi = c[a].end < u[b].end ? c[a].end : u[b].end;
		if (hi > lo)
			total += hi - lo;
		if (c[a].end < u[b].end)
			a++;
		else
			b++;
	}
	free(c), free(u);
	return total;
}

/* The kernels of ev, each with the phase and collective kind of its op
 * (from the join; -1 without one). */
static int collect_kernels(span **out, size_t *n, const tlc_eval *ev, const tlc_join *j)
{
	size_t cnt = j ? tlc_join_launch_count(j) : 0;
	span *v = malloc((cnt + 1) * sizeof *v);
	if (!v)
		return tlc_error__oom();
	size_t k = 0;
	for (size_t i = 0; i < cnt; i++) {
		const tlc_join_launch *l = tlc_join_launch_at(j, i);
		if (!l->rec || l->rec->kind != TLC_DEVICE_KERNEL || l->rec->end_ns < l->rec->start_ns)
			continue;
		span s = { l->rec->start_ns, l->rec->end_ns, -1, -1, is_comm_kernel(l->rec->name) };
		if (l->op_row >= 0) {
			const tlc_op_row *row = tlc_eval_op_at(ev, (size_t)l->op_row);
			int64_t counted = -1;
			if (row)
				s.phase = (int)row->phase;
			if (tlc_join_rollup(&counted, j, (size_t)l->op_row) == 0 && counted >= 0) {
				const tlc_op_row *c = tlc_eval_op_at(ev, (size_t)counted);
				tlc_comm_kind kind;
				if (c && tlc_cost_comm(c->cost, &kind, NULL, NULL, NULL) == 1)
					s.kind = (int)kind;
			}
		}
		v[k++] = s;
	}
	qsort(v, k, sizeof *v, by_start);
	*out = v;
	*n = k;
	return 0;
}

static int device_times(rank_row *w, const tlc_eval *ev, const tlc_join *j)
{
	span *v = NULL;
	size_t n = 0;
	int rc = collect_kernels(&v, &n, ev, j);
	if (rc < 0)
		return rc;
	w->first = n ? v[0].start : 0;
	w->last = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].end > w->last)
			w->last = v[i].end;
	w->kernel_ns = union_ns(v, n, -1, -1);
	w->comm_ns = union_ns(v, n, 1, -1);
	w->compute_ns = union_ns(v, n, 0, -1);
	w->overlap_ns = overlap_of(v, n, -1);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		w->ph_kernel[p] = union_ns(v, n, -1, p);
		w->ph_comm[p] = union_ns(v, n, 1, p);
		w->ph_overlap[p] = overlap_of(v, n, p);
	}
	size_t nc = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].comm)
			v[nc++] = v[i];
	/* keep only the communication kernels: the row must not hold every launch */
	span *c = realloc(v, (nc ? nc : 1) * sizeof *c);
	w->colls = c ? c : v;
	w->ncolls = nc;
	return w->overlap_ns < 0 ? tlc_error__oom() : 0;
}

static int exact_totals(rank_row *w, const tlc_eval *ev)
{
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		if (tlc_eval_phase_present(ev, (tlc_phase)p) &&
		    tlc_eval_total_str(&w->flops[p], ev, (tlc_phase)p, TLC_TOTAL_FLOPS) < 0)
			return tlc_error__oom();
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			if (!tlc_eval_comm_calls(ev, (tlc_phase)p, (tlc_comm_kind)k))
				continue;
			char *m, *b;
			if (tlc_eval_comm_bytes(&m, &b, ev, (tlc_phase)p, (tlc_comm_kind)k) < 0)
				return tlc_error__oom();
			mpz_t z;
			mpq_t q;
			mpz_init_set_str(z, m, 10);
			mpq_init(q);
			mpq_set_str(q, b, 10);
			mpz_add(w->msg[p], w->msg[p], z);
			mpq_add(w->bus[p], w->bus[p], q);
			mpz_clear(z);
			mpq_clear(q);
			tlc_free(m);
			tlc_free(b);
		}
	}
	w->lower_bound = tlc_eval_is_lower_bound(ev);
	return 0;
}

/* Per kind, the collectives' message and bus bytes and their rolled-up
 * kernel time, when the join passed its gate (contract section 7: no
 * achieved figure without it). */
static int achieved(rank_row *w, const tlc_eval *ev, const tlc_join *j)
{
	w->gate_passed = j && tlc_join_summary_get(j)->gate_passed;
	if (!w->gate_passed)
		return 0;
	for (size_t i = 0; i < tlc_eval_op_count(ev); i++) {
		const tlc_op_row *row = tlc_eval_op_at(ev, i);
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
			coll_bw *q = realloc(w->bw_list, c * sizeof *q);
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
			mpz_t z;
			mpq_t q;
			mpz_init_set_str(z, m, 10);
			mpq_init(q);
			mpq_set_str(q, b, 10);
			mpz_add(w->bw_msg[k], w->bw_msg[k], z);
			mpq_add(w->bw_bus[k], w->bw_bus[k], q);
			mpz_clear(z);
			mpq_clear(q);
			w->bw_timed[k]++;
			w->bw_ns[k] += t;
		}
		w->bw_list[w->nbw++] = (coll_bw){ (int)k, (int)row->phase, t > 0 ? t : 0, m, b };
	}
	return 0;
}

static const tlc_link_preset *device_link(const tlc_ranks *r, const tlc_eval *ev)
{
	const tlc_input_info *in = tlc_eval_info(ev);
	const tlc_device_preset *d = NULL;
	if (!in || !in->device || tlc_devices_find(&d, r->devs, in->device) < 0)
		return NULL;
	return tlc_link_for_device(d->id);
}

int tlc_ranks_add(tlc_ranks *r, const tlc_eval *ev, const tlc_join *j, const char *name)
{
	if (!r || !ev || !name)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass the ranks, an eval and a name",
		                      "tlc_ranks_add: NULL argument");
	const tlc_dist_info *d = tlc_eval_dist(ev);
	int64_t rank = d ? d->rank : -1;
	for (size_t i = 0; rank >= 0 && i < r->nrows; i++)
		if (r->rows[i].rank == rank)
			return tlc_error__set_pos(TLC_EEXISTS, "ranks_duplicate_rank", name, 0, 0,
			                          "give each rank's trace once",
			                          "rank %lld was already read from %s", (long long)rank,
			                          r->rows[i].name);
	if (r->nrows == r->cap) {
		size_t c = r->cap ? r->cap * 2 : 16;
		rank_row *q = realloc(r->rows, c * sizeof *q);
		if (!q)
			return tlc_error__oom();
		r->rows = q;
		r->cap = c;
	}
	rank_row *w = &r->rows[r->nrows];
	memset(w, 0, sizeof *w);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		mpz_init(w->msg[p]);
		mpq_init(w->bus[p]);
	}
	for (int k = 0; k < TLC_COMM_COUNT; k++) {
		mpz_init(w->bw_msg[k]);
		mpq_init(w->bw_bus[k]);
	}
	w->link = device_link(r, ev);
	w->name = strdup(name);
	w->rank = rank;
	w->world_size = d ? d->world_size : -1;
	w->joined = j && tlc_join_summary_get(j)->launches_attributed > 0;
	int rc = w->name ? 0 : tlc_error__oom();
	if (rc == 0)
		rc = exact_totals(w, ev);
	if (rc == 0)
		rc = device_times(w, ev, j);
	if (rc == 0)
		rc = achieved(w, ev, j);
	if (rc < 0) {
		free_row(w);
		return rc;
	}
	r->nrows++;
	return 0;
}

size_t tlc_ranks_count(const tlc_ranks *r) { return r ? r->nrows : 0; }

/* ---- analysis: stragglers and collective start skew ------------------ */

#define CLOCK_TOLERANCE_NS 100000 /* 100 us: collective ends agree within it */

typedef struct analysis {
	const rank_row **sorted;  /* by rank, then name */
	size_t n;
	double median_compute;
	int *straggler;
	/* clocks */
	size_t matched;           /* communication kernels matched in order */
	size_t min_colls, max_colls;
	int aligned;
	int64_t residual;         /* worst end disagreement after alignment */
	int64_t *offset;          /* per sorted row: its clock minus the reference's */
	/* per sorted row: collectives where it arrived last, and the worst one */
	size_t *last_count, *worst;
	int64_t *worst_skew;
} analysis;

static int by_identity(const void *a, const void *b)
{
	const rank_row *x = *(const rank_row *const *)a, *y = *(const rank_row *const *)b;
	if ((x->rank < 0) != (y->rank < 0))
		return x->rank < 0 ? 1 : -1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int64_t median_i64(int64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_i64);
	return n ? v[(n - 1) / 2] : 0;
}

static void find_stragglers(analysis *a, const tlc_ranks *r)
{
	int64_t *v = malloc((a->n + 1) * sizeof *v);
	if (!v)
		return;
	for (size_t i = 0; i < a->n; i++)
		v[i] = a->sorted[i]->compute_ns;
	qsort(v, a->n, sizeof *v, cmp_i64);
	a->median_compute = a->n % 2 ? (double)v[a->n / 2]
	                             : ((double)v[a->n / 2 - 1] + (double)v[a->n / 2]) / 2.0;
	free(v);
	double limit = a->median_compute * (1.0 + r->opts.threshold_permille / 1000.0);
	for (size_t i = 0; i < a->n; i++)
		a->straggler[i] = a->median_compute > 0 && (double)a->sorted[i]->compute_ns > limit;
}

/* Clock offsets from the communication kernels' ends: a collective ends on
 * every rank at nearly the same moment (each waits for the last), so the
 * median end difference to the reference rank is the clock difference. */
static void align_clocks(analysis *a)
{
	a->min_colls = SIZE_MAX;
	a->max_colls = 0;
	for (size_t i = 0; i < a->n; i++) {
		size_t c = a->sorted[i]->ncolls;
		a->min_colls = c < a->min_colls ? c : a->min_colls;
		a->max_colls = c > a->max_colls ? c : a->max_colls;
	}
	a->matched = a->n >= 2 ? a->min_colls : 0;
	if (a->matched == 0)
		return;
	int64_t *d = malloc(a->matched * sizeof *d);
	if (!d)
		return;
	const rank_row *ref = a->sorted[0];
	a->residual = 0;
	for (size_t i = 0; i < a->n; i++) {
		const rank_row *w = a->sorted[i];
		for (size_t k = 0; k < a->matched; k++)
			d[k] = w->colls[k].end - ref->colls[k].end;
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		for (size_t k = 0; k < a->matched; k++) {
			lo = d[k] < lo ? d[k] : lo;
			hi = d[k] > hi ? d[k] : hi;
		}
		a->offset[i] = median_i64(d, a->matched);
		int64_t res = hi - a->offset[i] > a->offset[i] - lo ? hi - a->offset[i] : a->offset[i] - lo;
		a->residual = res > a->residual ? res : a->residual;
	}
	free(d);
	a->aligned = a->residual <= CLOCK_TOLERANCE_NS;
}

static void start_skew(analysis *a)
{
	if (!a->aligned)
		return;
	for (size_t k = 0; k < a->matched; k++) {
		size_t last = 0;
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		for (size_t i = 0; i < a->n; i++) {
			int64_t t = a->sorted[i]->colls[k].start - a->offset[i];
			lo = t < lo ? t : lo;
			if (t > hi) {
				hi = t;
				last = i;
			}
		}
		a->last_count[last]++;
		if (hi - lo > a->worst_skew[last]) {
			a->worst_skew[last] = hi - lo;
			a->worst[last] = k;
		}
	}
}

static void analysis_free(analysis *a)
{
	free((void *)a->sorted), free(a->straggler), free(a->offset);
	free(a->last_count), free(a->worst), free(a->worst_skew);
}

static int analyse(analysis *a, const tlc_ranks *r)
{
	memset(a, 0, sizeof *a);
	a->n = r->nrows;
	size_t n = a->n + 1;
	a->sorted = malloc(n * sizeof *a->sorted);
	a->straggler = calloc(n, sizeof *a->straggler);
	a->offset = calloc(n, sizeof *a->offset);
	a->last_count = calloc(n, sizeof *a->last_count);
	a->worst = calloc(n, sizeof *a->worst);
	a->worst_skew = calloc(n, sizeof *a->worst_skew);
	if (!a->sorted || !a->straggler || !a->offset || !a->last_count || !a->worst ||
	    !a->worst_skew) {
		analysis_free(a);
		return tlc_error__oom();
	}
	for (size_t i = 0; i < a->n; i++)
		a->sorted[i] = &r->rows[i];
	qsort((void *)a->sorted, a->n, sizeof *a->sorted, by_identity);
	find_stragglers(a, r);
	align_clocks(a);
	start_skew(a);
	return 0;
}

/* ---- writers --------------------------------------------------------- */

static const char *kind_label(int k)
{
	return k >= 0 ? tlc_comm_kind_name((tlc_comm_kind)k) : "collective";
}

static double ms(int64_t ns) { return (double)ns / 1e6; }

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_z(FILE *out, const char *fmt, const mpz_t z)
{
	char *s = mpz_get_str(NULL, 10, z);
	fprintf(out, fmt, s);
	void (*freefn)(void *, size_t);
	mp_get_memory_functions(NULL, NULL, &freefn);
	freefn(s, strlen(s) + 1);
}

static void print_q(FILE *out, const char *fmt, const mpq_t q)
{
	char *s = mpq_get_str(NULL, 10, q);
	fprintf(out, fmt, s);
	void (*freefn)(void *, size_t);
	mp_get_memory_functions(NULL, NULL, &freefn);
	freefn(s, strlen(s) + 1);
}

static const char *phase_name(int p) { return tlc_phase_name((tlc_phase)p); }

static void text_rows(FILE *out, const analysis *a)
{
	fprintf(out, "%-6s %-9s %22s %18s %22s %10s %10s %8s\n", "rank", "phase",
	        "FLOPs (analytic)", "comm msg B", "comm bus B", "kernel ms", "comm ms", "overlap");
	for (size_t i = 0; i < a->n; i++) {
		const rank_row *w = a->sorted[i];
		for (int p = 0; p < TLC_PHASE_COUNT; p++) {
			if (!w->flops[p] && !mpz_sgn(w->msg[p]) && !w->ph_kernel[p])
				continue;
			char rk[24];
			snprintf(rk, sizeof rk, w->rank >= 0 ? "%lld" : "-", (long long)w->rank);
			char fl[64];
			snprintf(fl, sizeof fl, "%s%s", w->lower_bound ? ">= " : "", w->flops[p] ? w->flops[p] : "0");
			fprintf(out, "%-6s %-9s %22s ", rk, phase_name(p), fl);
			print_z(out, "%18s ", w->msg[p]);
			print_q(out, "%22s ", w->bus[p]);
			if (w->joined)
				fprintf(out, "%10.3f %10.3f %7.1f%%\n", ms(w->ph_kernel[p]), ms(w->ph_comm[p]),
				        pct(w->ph_overlap[p], w->ph_comm[p]));
			else
				fprintf(out, "%10s %10s %8s\n", "-", "-", "-");
		}
	}
}

static void text_times(FILE *out, const analysis *a)
{
	fprintf(out, "\n%-6s %-40s %10s %10s %10s %10s %10s %8s\n", "rank", "trace", "span ms",
	        "kernel ms", "idle ms", "compute ms", "comm ms", "overlap");
	for (size_t i = 0; i < a->n; i++) {
		const rank_row *w = a->sorted[i];
		int64_t dspan = w->last > w->first ? w->last - w->first : 0;
		char rk[24];
		snprintf(rk, sizeof rk, w->rank >= 0 ? "%lld" : "-", (long long)w->rank);
		fprintf(out, "%-6s %-40.40s %10.3f %10.3f %10.3f %10.3f %10.3f %7.1f%%%s\n", rk,
		        w->name, ms(dspan), ms(w->kernel_ns), ms(dspan - w->kernel_ns), ms(w->compute_ns),
		        ms(w->comm_ns), pct(w->overlap_ns, w->comm_ns), a->straggler[i] ? "  STRAGGLER" : "");
	}
}

static void text_totals(FILE *out, const tlc_ranks *r, const analysis *a)
{
	int lb = 0;
	for (size_t i = 0; i < a->n; i++)
		lb |= a->sorted[i]->lower_bound;
	fprintf(out, "\nmerged totals over %zu ranks (exact):\n", a->n);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		mpz_t f, m;
		mpq_t b;
		mpz_init(f), mpz_init(m), mpq_init(b);
		int any = 0;
		for (size_t i = 0; i < r->nrows; i++) {
			const rank_row *w = &r->rows[i];
			if (w->flops[p]) {
				mpz_t z;
				mpz_init_set_str(z, w->flops[p], 10);
				mpz_add(f, f, z);
				mpz_clear(z);
				any = 1;
			}
			mpz_add(m, m, w->msg[p]);
			mpq_add(b, b, w->bus[p]);
			any |= mpz_sgn(w->msg[p]) != 0;
		}
		if (any) {
			fprintf(out, "  %-9s FLOPs %s", phase_name(p), lb ? ">= " : "");
			print_z(out, "%s", f);
			print_z(out, ", communication message %s B", m);
			print_q(out, ", bus %s B\n", b);
		}
		mpz_clear(f), mpz_clear(m), mpq_clear(b);
	}
	if (lb)
		fprintf(out, "  FLOP totals are a LOWER BOUND: some rank has unknown-cost ops "
		             "(see `tlcost ledger` on its trace)\n");
}

static void text_stragglers(FILE *out, const tlc_ranks *r, const analysis *a)
{
	fprintf(out, "\nstragglers: compute kernel time above the median (%.3f ms) by more than "
	             "%.1f%%:", ms((int64_t)a->median_compute), r->opts.threshold_permille / 10.0);
	int any = 0;
	for (size_t i = 0; i < a->n; i++)
		if (a->straggler[i]) {
			fprintf(out, " rank %lld (%s, %.3f ms)", (long long)a->sorted[i]->rank,
			        a->sorted[i]->name, ms(a->sorted[i]->compute_ns));
			any = 1;
		}
	fprintf(out, "%s\n", any ? "" : " none");
	if (a->matched == 0) {
		fprintf(out, "collective start skew: not available (fewer than two ranks with "
		             "communication kernels)\n");
		return;
	}
	if (!a->aligned) {
		fprintf(out, "collective start skew: the clocks do not allow it: after aligning the "
		             "ranks on the ends of %zu communication kernels, ends still disagree by "
		             "%.3f ms (> %.3f ms)\n", a->matched, ms(a->residual),
		        ms(CLOCK_TOLERANCE_NS));
		return;
	}
	fprintf(out, "collective start skew: %zu communication kernels matched in order%s; clocks "
	             "aligned on their ends (worst disagreement %.3f ms)\n", a->matched,
	        a->min_colls != a->max_colls ? " (ranks recorded different counts: the first ones)" : "",
	        ms(a->residual));
	for (size_t i = 0; i < a->n; i++) {
		if (!a->last_count[i])
			continue;
		const rank_row *w = a->sorted[i];
		const span *c = &w->colls[a->worst[i]];
		fprintf(out, "  rank %lld arrived last at %zu of %zu collectives; worst: #%zu (%s, %s) "
		             "that the others waited %.3f ms for%s\n", (long long)w->rank,
		        a->last_count[i], a->matched, a->worst[i] + 1, kind_label(c->kind),
		        c->phase >= 0 ? phase_name(c->phase) : "phase unknown", ms(a->worst_skew[i]),
		        a->straggler[i] ? " (straggler)" : "");
	}
}

static double q_double(const mpq_t q) { return mpq_get_d(q); }

static void text_achieved(FILE *out, const tlc_ranks *r, const analysis *a)
{
	fprintf(out, "\nachieved collective bandwidth (device time of each collective from the "
	             "device-time join; only where the join passed its gate):\n");
	for (size_t i = 0; i < a->n; i++) {
		const rank_row *w = a->sorted[i];
		if (!w->gate_passed) {
			fprintf(out, "  rank %lld: refused: the device-time join did not pass the gate "
			             "(see `tlcost join %s`)\n", (long long)w->rank, w->name);
			continue;
		}
		const tlc_link_preset *link = r->link ? r->link : w->link;
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			if (!w->bw_calls[k])
				continue;
			fprintf(out, "  rank %lld %-14s x%-4llu (%llu with kernel time): device %.3f ms",
			        (long long)w->rank, kind_label(k), (unsigned long long)w->bw_calls[k],
			        (unsigned long long)w->bw_timed[k], ms(w->bw_ns[k]));
			if (!w->bw_ns[k]) {
				fprintf(out, ", no kernel time attributed: no bandwidth\n");
				continue;
			}
			double sec = (double)w->bw_ns[k] / 1e9;
			double alg = mpz_get_d(w->bw_msg[k]) / sec, bus = q_double(w->bw_bus[k]) / sec;
			fprintf(out, ", achieved algbw %.2f GB/s, achieved busbw %.2f GB/s", alg / 1e9, bus / 1e9);
			if (link)
				fprintf(out, " = %.1f%% of %s (%.1f GB/s)", 100.0 * bus / link->bytes_per_s,
				        link->id, link->bytes_per_s / 1e9);
			fprintf(out, "\n");
		}
	}
}

static void write_text(FILE *out, const tlc_ranks *r, const analysis *a)
{
	fprintf(out, "tlcost ranks: %zu ranks (FLOPs and communication bytes analytic; times "
	             "from each trace's device records)\n", a->n);
	text_rows(out, a);
	text_times(out, a);
	text_totals(out, r, a);
	text_stragglers(out, r, a);
	text_achieved(out, r, a);
}

static void jz(yajl_gen g, const char *k, const mpz_t z)
{
	char *s = mpz_get_str(NULL, 10, z);
	tlc_jsonw__knum(g, k, s);
	void (*freefn)(void *, size_t);
	mp_get_memory_functions(NULL, NULL, &freefn);
	freefn(s, strlen(s) + 1);
}

static void jq(yajl_gen g, const char *k, const mpq_t q)
{
	char *s = mpq_get_str(NULL, 10, q);
	tlc_jsonw__kstr(g, k, s);
	void (*freefn)(void *, size_t);
	mp_get_memory_functions(NULL, NULL, &freefn);
	freefn(s, strlen(s) + 1);
}

static void json_achieved(yajl_gen g, const rank_row *w, const tlc_link_preset *link)
{
	tlc_jsonw__key(g, "achieved_bandwidth");
	if (!w->gate_passed) {
		yajl_gen_null(g); /* refused: the join did not pass the gate */
		return;
	}
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "link", link ? link->id : NULL);
	for (int k = 0; k < TLC_COMM_COUNT; k++) {
		if (!w->bw_calls[k])
			continue;
		tlc_jsonw__key(g, kind_label(k));
		yajl_gen_map_open(g);
		tlc_jsonw__kuint(g, "calls", w->bw_calls[k]);
		tlc_jsonw__kuint(g, "timed_calls", w->bw_timed[k]);
		tlc_jsonw__kint(g, "device_ns", w->bw_ns[k]);
		jz(g, "message_bytes", w->bw_msg[k]);
		jq(g, "bus_bytes", w->bw_bus[k]);
		if (w->bw_ns[k]) {
			double sec = (double)w->bw_ns[k] / 1e9;
			double bus = mpq_get_d(w->bw_bus[k]) / sec;
			tlc_jsonw__kdouble(g, "achieved_algbw_bytes_per_s", mpz_get_d(w->bw_msg[k]) / sec);
			tlc_jsonw__kdouble(g, "achieved_busbw_bytes_per_s", bus);
			if (link)
				tlc_jsonw__kdouble(g, "share_of_link", bus / link->bytes_per_s);
		}
		yajl_gen_map_close(g);
	}
	tlc_jsonw__key(g, "collectives");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < w->nbw; i++) {
		const coll_bw *c = &w->bw_list[i];
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "kind", kind_label(c->kind));
		tlc_jsonw__kstr(g, "phase", phase_name(c->phase));
		tlc_jsonw__knum(g, "message_bytes", c->msg);
		tlc_jsonw__kstr(g, "bus_bytes", c->bus);
		tlc_jsonw__kint(g, "device_ns", c->ns);
		if (c->ns) {
			mpq_t q;
			mpq_init(q);
			mpq_set_str(q, c->bus, 10);
			double sec = (double)c->ns / 1e9;
			tlc_jsonw__kdouble(g, "achieved_algbw_bytes_per_s", strtod(c->msg, NULL) / sec);
			tlc_jsonw__kdouble(g, "achieved_busbw_bytes_per_s", mpq_get_d(q) / sec);
			mpq_clear(q);
		}
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
}

static void json_row(yajl_gen g, const rank_row *w, const analysis *a, size_t i,
                     const tlc_link_preset *link)
{
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "trace", w->name);
	if (w->rank >= 0)
		tlc_jsonw__kint(g, "rank", w->rank);
	else
		tlc_jsonw__kstr(g, "rank", NULL);
	tlc_jsonw__kbool(g, "lower_bound", w->lower_bound);
	tlc_jsonw__kbool(g, "device_time_joined", w->joined);
	tlc_jsonw__key(g, "phases");
	yajl_gen_map_open(g);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		if (!w->flops[p] && !mpz_sgn(w->msg[p]) && !w->ph_kernel[p])
			continue;
		tlc_jsonw__key(g, phase_name(p));
		yajl_gen_map_open(g);
		tlc_jsonw__knum(g, "flops", w->flops[p] ? w->flops[p] : "0");
		jz(g, "comm_message_bytes", w->msg[p]);
		jq(g, "comm_bus_bytes", w->bus[p]);
		if (w->joined) {
			tlc_jsonw__kint(g, "kernel_ns", w->ph_kernel[p]);
			tlc_jsonw__kint(g, "comm_ns", w->ph_comm[p]);
			tlc_jsonw__kint(g, "overlap_ns", w->ph_overlap[p]);
		}
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
	int64_t dspan = w->last > w->first ? w->last - w->first : 0;
	tlc_jsonw__kint(g, "span_ns", dspan);
	tlc_jsonw__kint(g, "kernel_ns", w->kernel_ns);
	tlc_jsonw__kint(g, "idle_ns", dspan - w->kernel_ns);
	tlc_jsonw__kint(g, "compute_ns", w->compute_ns);
	tlc_jsonw__kint(g, "comm_ns", w->comm_ns);
	tlc_jsonw__kint(g, "overlap_ns", w->overlap_ns);
	tlc_jsonw__kuint(g, "comm_kernels", w->ncolls);
	tlc_jsonw__kbool(g, "straggler", a->straggler[i]);
	json_achieved(g, w, link);
	if (a->aligned) {
		tlc_jsonw__kint(g, "clock_offset_ns", a->offset[i]);
		tlc_jsonw__kuint(g, "arrived_last", a->last_count[i]);
		if (a->last_count[i]) {
			const span *c = &w->colls[a->worst[i]];
			tlc_jsonw__key(g, "worst_wait");
			yajl_gen_map_open(g);
			tlc_jsonw__kuint(g, "collective", a->worst[i] + 1);
			tlc_jsonw__kstr(g, "kind", c->kind >= 0 ? kind_label(c->kind) : NULL);
			tlc_jsonw__kstr(g, "phase", c->phase >= 0 ? phase_name(c->phase) : NULL);
			tlc_jsonw__kint(g, "skew_ns", a->worst_skew[i]);
			yajl_gen_map_close(g);
		}
	}
	yajl_gen_map_close(g);
}

static int write_json(FILE *out, const tlc_ranks *r, const analysis *a)
{
	yajl_gen g = tlc_jsonw__new(out);
	if (!g)
		return tlc_error__oom();
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", "tlcost.ranks/1");
	tlc_jsonw__key(g, "ranks");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < a->n; i++)
		json_row(g, a->sorted[i], a, i, r->link ? r->link : a->sorted[i]->link);
	yajl_gen_array_close(g);
	tlc_jsonw__key(g, "stragglers");
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "metric", "compute kernel time (union of non-communication kernels)");
	tlc_jsonw__kuint(g, "threshold_permille", r->opts.threshold_permille);
	tlc_jsonw__kint(g, "median_ns", (int64_t)a->median_compute);
	tlc_jsonw__key(g, "ranks");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < a->n; i++)
		if (a->straggler[i])
			yajl_gen_integer(g, a->sorted[i]->rank);
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	tlc_jsonw__key(g, "clocks");
	yajl_gen_map_open(g);
	tlc_jsonw__kuint(g, "matched_collectives", a->matched);
	tlc_jsonw__kbool(g, "aligned", a->aligned);
	tlc_jsonw__kint(g, "residual_ns", a->residual);
	tlc_jsonw__kint(g, "tolerance_ns", CLOCK_TOLERANCE_NS);
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
	return tlc_jsonw__end(g, out);
}

static void write_csv(FILE *out, const analysis *a)
{
	fprintf(out, "rank,trace,phase,flops,lower_bound,comm_message_bytes,comm_bus_bytes,"
	             "kernel_ns,comm_ns,overlap_ns,straggler\n");
	for (size_t i = 0; i < a->n; i++) {
		const rank_row *w = a->sorted[i];
		for (int p = 0; p < TLC_PHASE_COUNT; p++) {
			if (!w->flops[p] && !mpz_sgn(w->msg[p]) && !w->ph_kernel[p])
				continue;
			fprintf(out, "%lld,\"%s\",%s,%s,%d,", (long long)w->rank, w->name, phase_name(p),
			        w->flops[p] ? w->flops[p] : "0", w->lower_bound);
			print_z(out, "%s,", w->msg[p]);
			print_q(out, "%s,", w->bus[p]);
			if (w->joined)
				fprintf(out, "%lld,%lld,%lld,%d\n", (long long)w->ph_kernel[p],
				        (long long)w->ph_comm[p], (long long)w->ph_overlap[p], a->straggler[i]);
			else
				fprintf(out, ",,,%d\n", a->straggler[i]);
		}
	}
}

int tlc_ranks_write(FILE *out, const tlc_ranks *r, tlc_format fmt)
{
	if (!out || !r)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an output and the ranks",
		                      "tlc_ranks_write: NULL argument");
	if (r->nrows == 0)
		return tlc_error__set(TLC_ESTATE, "ranks_empty", "give at least one rank's trace",
		                      "no rank was read");
	analysis a;
	int rc = analyse(&a, r);
	if (rc < 0)
		return rc;
	if (fmt == TLC_FORMAT_JSON)
		rc = write_json(out, r, &a);
	else if (fmt == TLC_FORMAT_CSV)
		write_csv(out, &a);
	else
		write_text(out, r, &a);
	analysis_free(&a);
	if (rc == 0 && ferror(out))
		rc = tlc_error__set(TLC_EIO, "io_error", "check the output", "writing the ranks report failed");
	return rc;
}
