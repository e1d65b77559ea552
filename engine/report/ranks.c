/* One report over many ranks (`tlcost ranks`, docs/collectives.md "Many
 * ranks"). The caller evaluates one rank at a time and hands the finished
 * evaluation (and its device-time join) to tlc_ranks_add, which keeps one
 * row per rank: exact FLOPs and communication bytes per phase, device times
 * and the start/end of each communication kernel (for the collective start
 * skew). Memory: the rows, not the traces.
 *
 * Device times, overlap and achieved bandwidth come from the one
 * computation `tlcost join` uses too (engine/join/join_comm.c); idle time
 * is the device span (first kernel start to last kernel end) minus the
 * kernel time. */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include "tlcost/tlcost.h"
#include "error.h"
#include "jsonw.h"
#include "join_comm.h"
#include "reports.h"

typedef struct rank_row {
	char *name;
	int64_t rank, world_size;
	char *flops[TLC_PHASE_COUNT];     /* NULL: phase absent */
	mpz_t msg[TLC_PHASE_COUNT];
	mpq_t bus[TLC_PHASE_COUNT];
	int lower_bound;
	tlc_join__comm ct;                /* device times, overlap, achieved (join_comm.c) */
	const tlc_link_preset *link;      /* the rank's device's link, or NULL */
} rank_row;

typedef struct ranks_notice {
	char *code, *input, *message;
} ranks_notice;

struct tlc_ranks {
	tlc_ranks_options opts;
	ranks_notice *notes;
	size_t nnotes;
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
	tlc_join__comm_free(&w->ct);
}

void tlc_ranks_free(tlc_ranks *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nrows; i++)
		free_row(&r->rows[i]);
	for (size_t i = 0; i < r->nnotes; i++)
		free(r->notes[i].code), free(r->notes[i].input), free(r->notes[i].message);
	free(r->notes);
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
			tlc_join__comm_add_bytes(w->msg[p], w->bus[p], m, b);
			tlc_free(m);
			tlc_free(b);
		}
	}
	w->lower_bound = tlc_eval_is_lower_bound(ev);
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
	w->link = device_link(r, ev);
	w->name = strdup(name);
	w->rank = rank;
	w->world_size = d ? d->world_size : -1;
	int rc = tlc_join__comm_compute(&w->ct, ev, j); /* initializes w->ct, also on error */
	if (rc == 0 && !w->name)
		rc = tlc_error__oom();
	if (rc == 0)
		rc = exact_totals(w, ev);
	if (rc < 0) {
		free_row(w);
		return rc;
	}
	r->nrows++;
	return 0;
}

size_t tlc_ranks_count(const tlc_ranks *r) { return r ? r->nrows : 0; }

int tlc_ranks_add_notice(tlc_ranks *r, const char *code, const char *input,
                         const char *message)
{
	if (!r || !code || !input || !message)
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass the ranks, a code, an input and a message",
		                      "tlc_ranks_add_notice: NULL argument");
	ranks_notice *q = realloc(r->notes, (r->nnotes + 1) * sizeof *q);
	if (!q)
		return tlc_error__oom();
	r->notes = q;
	ranks_notice *n = &q[r->nnotes];
	n->code = strdup(code);
	n->input = strdup(input);
	n->message = strdup(message);
	if (!n->code || !n->input || !n->message) {
		free(n->code), free(n->input), free(n->message);
		return tlc_error__oom();
	}
	r->nnotes++;
	return 0;
}

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
		v[i] = a->sorted[i]->ct.compute_ns;
	qsort(v, a->n, sizeof *v, cmp_i64);
	a->median_compute = a->n % 2 ? (double)v[a->n / 2]
	                             : ((double)v[a->n / 2 - 1] + (double)v[a->n / 2]) / 2.0;
	free(v);
	double limit = a->median_compute * (1.0 + r->opts.threshold_permille / 1000.0);
	for (size_t i = 0; i < a->n; i++)
		a->straggler[i] = a->median_compute > 0 && (double)a->sorted[i]->ct.compute_ns > limit;
}

/* Clock offsets from the communication kernels' ends: a collective ends on
 * every rank at nearly the same moment (each waits for the last), so the
 * median end difference to the reference rank is the clock difference. */
static void align_clocks(analysis *a)
{
	a->min_colls = SIZE_MAX;
	a->max_colls = 0;
	for (size_t i = 0; i < a->n; i++) {
		size_t c = a->sorted[i]->ct.ncolls;
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
			d[k] = w->ct.colls[k].end - ref->ct.colls[k].end;
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
			int64_t t = a->sorted[i]->ct.colls[k].start - a->offset[i];
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
			if (!w->flops[p] && !mpz_sgn(w->msg[p]) && !w->ct.ph_kernel[p])
				continue;
			char rk[24];
			snprintf(rk, sizeof rk, w->rank >= 0 ? "%lld" : "-", (long long)w->rank);
			char fl[64];
			snprintf(fl, sizeof fl, "%s%s", w->lower_bound ? ">= " : "", w->flops[p] ? w->flops[p] : "0");
			fprintf(out, "%-6s %-9s %22s ", rk, phase_name(p), fl);
			print_z(out, "%18s ", w->msg[p]);
			print_q(out, "%22s ", w->bus[p]);
			if (w->ct.joined)
				fprintf(out, "%10.3f %10.3f %7.1f%%\n", ms(w->ct.ph_kernel[p]), ms(w->ct.ph_comm[p]),
				        pct(w->ct.ph_overlap[p], w->ct.ph_comm[p]));
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
		int64_t dspan = w->ct.last > w->ct.first ? w->ct.last - w->ct.first : 0;
		char rk[24];
		snprintf(rk, sizeof rk, w->rank >= 0 ? "%lld" : "-", (long long)w->rank);
		fprintf(out, "%-6s %-40.40s %10.3f %10.3f %10.3f %10.3f %10.3f %7.1f%%%s\n", rk,
		        w->name, ms(dspan), ms(w->ct.kernel_ns), ms(dspan - w->ct.kernel_ns), ms(w->ct.compute_ns),
		        ms(w->ct.comm_ns), pct(w->ct.overlap_ns, w->ct.comm_ns), a->straggler[i] ? "  STRAGGLER" : "");
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
			        a->sorted[i]->name, ms(a->sorted[i]->ct.compute_ns));
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
		const tlc_join__span *c = &w->ct.colls[a->worst[i]];
		fprintf(out, "  rank %lld arrived last at %zu of %zu collectives; worst: #%zu (%s, %s) "
		             "that the others waited %.3f ms for%s\n", (long long)w->rank,
		        a->last_count[i], a->matched, a->worst[i] + 1, kind_label(c->kind),
		        c->phase >= 0 ? phase_name(c->phase) : "phase unknown", ms(a->worst_skew[i]),
		        a->straggler[i] ? " (straggler)" : "");
	}
}

static void text_achieved(FILE *out, const tlc_ranks *r, const analysis *a)
{
	fprintf(out, "\nachieved collective bandwidth (device time of each collective from the "
	             "device-time join; only where the join passed its gate):\n");
	for (size_t i = 0; i < a->n; i++) {
		const rank_row *w = a->sorted[i];
		if (!w->ct.gate_passed) {
			fprintf(out, "  rank %lld: refused: the device-time join did not pass the gate "
			             "(see `tlcost join %s`)\n", (long long)w->rank, w->name);
			continue;
		}
		const tlc_link_preset *link = r->link ? r->link : w->link;
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			if (!w->ct.bw_calls[k])
				continue;
			fprintf(out, "  rank %lld %-14s ", (long long)w->rank, kind_label(k));
			tlc_join__comm_kind_text(out, &w->ct, k, link);
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
	for (size_t i = 0; i < r->nnotes; i++) {
		fprintf(out, "notice: %s: ", r->notes[i].code);
		fputs(r->notes[i].input, out);
		fputs(": ", out);
		fputs(r->notes[i].message, out);
		fputc('\n', out);
	}
}

static void json_notices(yajl_gen g, const tlc_ranks *r)
{
	tlc_jsonw__key(g, "notices");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < r->nnotes; i++) {
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "code", r->notes[i].code);
		tlc_jsonw__kstr(g, "input", r->notes[i].input);
		tlc_jsonw__kstr(g, "message", r->notes[i].message);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void jz(yajl_gen g, const char *k, const mpz_t z) { tlc_rep__json_mpz(g, k, z); }

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
	if (!w->ct.gate_passed) {
		yajl_gen_null(g); /* refused: the join did not pass the gate */
		return;
	}
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "link", link ? link->id : NULL);
	tlc_join__comm_kinds_json(g, &w->ct, link);
	tlc_jsonw__key(g, "collectives");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < w->ct.nbw; i++) {
		const tlc_join__coll *c = &w->ct.bw_list[i];
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
	tlc_jsonw__kbool(g, "device_time_joined", w->ct.joined);
	tlc_jsonw__key(g, "phases");
	yajl_gen_map_open(g);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		if (!w->flops[p] && !mpz_sgn(w->msg[p]) && !w->ct.ph_kernel[p])
			continue;
		tlc_jsonw__key(g, phase_name(p));
		yajl_gen_map_open(g);
		tlc_jsonw__knum(g, "flops", w->flops[p] ? w->flops[p] : "0");
		jz(g, "comm_message_bytes", w->msg[p]);
		jq(g, "comm_bus_bytes", w->bus[p]);
		if (w->ct.joined) {
			tlc_jsonw__kint(g, "kernel_ns", w->ct.ph_kernel[p]);
			tlc_jsonw__kint(g, "comm_ns", w->ct.ph_comm[p]);
			tlc_jsonw__kint(g, "overlap_ns", w->ct.ph_overlap[p]);
		}
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
	int64_t dspan = w->ct.last > w->ct.first ? w->ct.last - w->ct.first : 0;
	tlc_jsonw__kint(g, "span_ns", dspan);
	tlc_jsonw__kint(g, "kernel_ns", w->ct.kernel_ns);
	tlc_jsonw__kint(g, "idle_ns", dspan - w->ct.kernel_ns);
	tlc_jsonw__kint(g, "compute_ns", w->ct.compute_ns);
	tlc_jsonw__kint(g, "comm_ns", w->ct.comm_ns);
	tlc_jsonw__kint(g, "overlap_ns", w->ct.overlap_ns);
	tlc_jsonw__kuint(g, "comm_kernels", w->ct.ncolls);
	tlc_jsonw__kbool(g, "straggler", a->straggler[i]);
	json_achieved(g, w, link);
	if (a->aligned) {
		tlc_jsonw__kint(g, "clock_offset_ns", a->offset[i]);
		tlc_jsonw__kuint(g, "arrived_last", a->last_count[i]);
		if (a->last_count[i]) {
			const tlc_join__span *c = &w->ct.colls[a->worst[i]];
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
	json_notices(g, r);
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
			if (!w->flops[p] && !mpz_sgn(w->msg[p]) && !w->ct.ph_kernel[p])
				continue;
			fprintf(out, "%lld,\"%s\",%s,%s,%d,", (long long)w->rank, w->name, phase_name(p),
			        w->flops[p] ? w->flops[p] : "0", w->lower_bound);
			print_z(out, "%s,", w->msg[p]);
			print_q(out, "%s,", w->bus[p]);
			if (w->ct.joined)
				fprintf(out, "%lld,%lld,%lld,%d\n", (long long)w->ct.ph_kernel[p],
				        (long long)w->ct.ph_comm[p], (long long)w->ct.ph_overlap[p], a->straggler[i]);
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
