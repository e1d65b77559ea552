/* Helpers shared by the reports: exact row sums, family of an op row, the
 * phases' dtypes, number formatting, JSON/CSV quoting, the coverage line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "reports.h"
#include "cost.h"
#include "eval.h"

int tlc_rep__check_eval(const tlc_eval *ev)
{
	if (!ev)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a finished evaluation",
		                      "report called without an evaluation");
	if (!tlc_eval__finished(ev))
		return tlc_error__set(TLC_ESTATE, "eval_not_finished",
		                      "call tlc_eval_finish before reading reports",
		                      "the evaluation is not finished");
	if (tlc_eval_op_count(ev) == 0) {
		tlc_coverage cov = TLC_COVERAGE_INIT;
		if (tlc_eval_coverage(&cov, ev) == 0 && cov.rows == 0)
			return 0; /* an empty input is a valid, empty report */
		return tlc_error__set(TLC_ESTATE, "reports_need_ops",
		                      "create the evaluation with tlc_eval_options.keep_ops = 1",
		                      "this report needs per-op rows and the evaluation kept none");
	}
	return 0;
}

int tlc_rep__counted(const tlc_op_row *r)
{
	return r->cost && (r->cls == TLC_CLASS_KNOWN || r->cls == TLC_CLASS_ZERO_BY_RULE);
}

/* Counted or partly known (an unknown row with a cost): the row's terms
 * are in the totals, so every sum of rows counts them too. */
static int has_terms(const tlc_op_row *r)
{
	return tlc_rep__counted(r) || (r->cost && r->cls == TLC_CLASS_UNKNOWN);
}

void tlc_rep__add_flops(tlc_count *acc, const tlc_op_row *r)
{
	if (!has_terms(r))
		return;
	tlc_count__addmul_si(acc, &r->cost->f[TLC_FIELD_MACS], 2);
	tlc_count__add(acc, &r->cost->f[TLC_FIELD_OTHER_FLOPS]);
}

int tlc_rep__add_bytes(tlc_count *acc, const tlc_op_row *r)
{
	if (!has_terms(r) || tlc_cost_bytes_unknown(r->cost))
		return 1;
	tlc_count__add(acc, &r->cost->f[TLC_FIELD_BYTES_READ]);
	tlc_count__add(acc, &r->cost->f[TLC_FIELD_BYTES_WRITTEN]);
	return 0;
}

static int has_any(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (strstr(s, *words))
			return 1;
	return 0;
}

const char *tlc_rep__family(const char *name)
{
	static const char *const attn[] = { "attention", "sdpa", "flash", NULL };
	static const char *const mm[] = { "mm", "matmul", "linear", "einsum", "dot", "mv", NULL };
	static const char *const conv[] = { "conv", NULL };
	static const char *const norm[] = { "norm", NULL };
	static const char *const pool[] = { "pool", NULL };
	static const char *const red[] = { "sum", "mean", "softmax", "max", "min", "var",
	                                   "std", "prod", "cumsum", "amax", "argmax", NULL };
	static const char *const emb[] = { "embedding", "index", "gather", "scatter",
	                                   "select", "take", NULL };
	const char *base = name ? strstr(name, "::") : NULL;
	base = base ? base + 2 : (name ? name : "");
	if (has_any(base, attn))
		return "attention";
	if (has_any(base, conv))
		return "conv";
	if (has_any(base, mm))
		return "matmul";
	if (has_any(base, norm))
		return "norm";
	if (has_any(base, pool))
		return "pool";
	if (has_any(base, red))
		return "reduction";
	if (has_any(base, emb))
		return "index";
	return "pointwise/other";
}

const char *tlc_rep__count_dup(tlc_arena *ar, const tlc_count *c)
{
	char *s = tlc_count__to_str(c);
	if (!s)
		return NULL;
	const char *d = tlc_arena__strdup(ar, s);
	free(s);
	return d;
}

const char *tlc_rep__si(char *buf, size_t cap, double v)
{
	static const char *const unit[] = { "", "k", "M", "G", "T", "P", "E" };
	size_t u = 0;
	double a = fabs(v);
	while (a >= 999.5 && u + 1 < sizeof unit / sizeof unit[0]) {
		a /= 1000.0;
		v /= 1000.0;
		u++;
	}
	if (!isfinite(v))
		snprintf(buf, cap, "n/a");
	else
		snprintf(buf, cap, "%.4g %s", v, unit[u]);
	return buf;
}

tlc_peak_dtype tlc_rep__phase_dtype(const tlc_eval *ev, int phase, int forced)
{
	if (forced >= 0 && forced < TLC_PEAK_COUNT)
		return (tlc_peak_dtype)forced;
	double w[TLC_PEAK_COUNT] = { 0 };
	int seen = 0;
	for (size_t i = 0; i < tlc_eval_op_count(ev); i++) {
		tlc_op_row r_ = tlc_eval__row(ev, i);
		const tlc_op_row *r = &r_;
		tlc_peak_dtype pd;
		if ((phase >= 0 && (int)r->phase != phase) || !tlc_rep__counted(r))
			continue;
		if (tlc_peak_dtype_of(&pd, r->dtype) != 0)
			continue;
		w[pd] += tlc_cost_flops_double(r->cost);
		seen = 1;
	}
	tlc_peak_dtype best = TLC_PEAK_FP32;
	if (!seen)
		return best;
	for (int d = 0; d < TLC_PEAK_COUNT; d++)
		if (w[d] > w[best])
			best = (tlc_peak_dtype)d;
	return best;
}

void tlc_rep__phase_dtypes(tlc_peak_dtype out[TLC_PHASE_COUNT], const tlc_eval *ev, int forced)
{
	double w[TLC_PHASE_COUNT][TLC_PEAK_COUNT] = { { 0 } };
	int seen[TLC_PHASE_COUNT] = { 0 };
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		out[p] = forced >= 0 && forced < TLC_PEAK_COUNT ? (tlc_peak_dtype)forced : TLC_PEAK_FP32;
	if (forced >= 0 && forced < TLC_PEAK_COUNT)
		return;
	for (size_t i = 0; i < tlc_eval_op_count(ev); i++) {
		tlc_op_row r = tlc_eval__row(ev, i);
		tlc_peak_dtype pd;
		if ((unsigned)r.phase >= TLC_PHASE_COUNT || !tlc_rep__counted(&r) ||
		    tlc_peak_dtype_of(&pd, r.dtype) != 0)
			continue;
		w[r.phase][pd] += tlc_cost_flops_double(r.cost);
		seen[r.phase] = 1;
	}
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		for (int d = 0; seen[p] && d < TLC_PEAK_COUNT; d++)
			if (w[p][d] > w[p][out[p]])
				out[p] = (tlc_peak_dtype)d;
}

/* "  544 x graph_replay, 3 x launch_outside_op; see `tlcost ledger`": the
 * causes of device work without op rows, short enough for 80 columns. */
static void gap_causes(FILE *out, const tlc_eval *ev)
{
	fputs("    ", out);
	for (size_t i = 0; i < tlc_eval_device_gap_count(ev); i++) {
		const tlc_device_gap *g = tlc_eval_device_gap_at(ev, i);
		if (g->records)
			fprintf(out, "%s%llu x %s", i ? ", " : "", (unsigned long long)g->records, g->cause);
		else
			fprintf(out, "%s%s", i ? ", " : "", g->cause);
	}
	fputc('\n', out);
}

const char *tlc_rep__unknown_phrase(char *buf, size_t cap, const tlc_eval *ev)
{
	tlc_coverage cov = TLC_COVERAGE_INIT;
	tlc_eval_coverage(&cov, ev);
	unsigned long long calls = cov.by_class[TLC_CLASS_UNKNOWN];
	size_t types = tlc_eval_ledger_count(ev);
	if (calls == 0)
		snprintf(buf, cap, "0 unknown-cost calls");
	else
		snprintf(buf, cap, "%llu unknown-cost call%s of %zu op type%s", calls,
		         calls == 1 ? "" : "s", types, types == 1 ? "" : "s");
	return buf;
}

/* Capture pairing (docs/join.md): a paired replay's ops include those of
 * its capture, and every report says so. */
static void capture_line(FILE *out, const tlc_eval *ev)
{
	tlc_capture_pair_summary s = TLC_CAPTURE_PAIR_SUMMARY_INIT;
	if (tlc_capture_pair_summary_get(ev, &s) == 1)
		fprintf(out, "capture pairing: %llu of %llu graph launches matched a captured graph\n"
		        "  (%s and count); their %llu captured ops count as the replay's\n",
		        (unsigned long long)s.matched, (unsigned long long)s.graph_launches,
		        s.by_graph_node ? "graph node ids" : "kernel names",
		        (unsigned long long)s.ops_added);
}

void tlc_rep__coverage_line_w(FILE *out, const tlc_eval *ev, int narrow)
{
	capture_line(out, ev);
	char what[128];
	tlc_rep__unknown_phrase(what, sizeof what, ev);
	size_t ngaps = tlc_eval_device_gap_count(ev);
	if (tlc_eval_ledger_count(ev) == 0 && ngaps == 0 && !tlc_eval_is_lower_bound(ev)) {
		fprintf(out, "coverage is COMPLETE, not a lower bound (%s)\n", what);
		return;
	}
	if (tlc_eval_ledger_count(ev) == 0 && ngaps) { /* docs/cost-contract.md: device work */
		fprintf(out, "totals are a LOWER BOUND: %s, but device work has no op\n"
		        "  rows (remedy: see `tlcost ledger`):\n", what);
		gap_causes(out, ev);
		return;
	}
	/* the line is built in memory to fit 80 columns when narrow; names may be
	 * long, so the list is cut (with "...") rather than the counts */
	char line[512];
	int w = snprintf(line, sizeof line, "totals are a LOWER BOUND: %s (", what);
	size_t n = tlc_eval_ledger_count(ev), names = narrow ? 1 : 3;
	for (size_t i = 0; i < n && i < names && w > 0 && (size_t)w < sizeof line; i++) {
		const tlc_ledger_entry *e = tlc_eval_ledger_at(ev, i);
		w += snprintf(line + w, sizeof line - (size_t)w, "%s%s%s%s x%llu", i ? ", " : "",
		              e->name, e->overload[0] ? "." : "", e->overload,
		              (unsigned long long)e->count);
	}
	if (w > 0 && (size_t)w < sizeof line)
		snprintf(line + w, sizeof line - (size_t)w, "%s);", n > names ? ", ..." : "");
	if (narrow && strlen(line) > 80) /* the report lists them right below */
		snprintf(line, sizeof line, "totals are a LOWER BOUND: %s (listed below);", what);
	else if ((size_t)w >= sizeof line) /* names too long to list: counts stay whole */
		snprintf(line, sizeof line, "totals are a LOWER BOUND: %s (see below);", what);
	fprintf(out, "%s%sremedy: see `tlcost ledger`\n", line, narrow ? "\n  " : " ");
	if (ngaps) {
		fputs("  and device work has no op rows (see `tlcost ledger`):\n", out);
		gap_causes(out, ev);
	}
}

void tlc_rep__coverage_line(FILE *out, const tlc_eval *ev)
{
	tlc_rep__coverage_line_w(out, ev, 0);
}

void tlc_rep__mpz_add_digits(mpz_t acc, const char *text)
{
	mpz_t z;
	mpz_init_set_str(z, text, 10); /* the caller validated the digits */
	mpz_add(acc, acc, z);
	mpz_clear(z);
}

void tlc_rep__json_mpz(yajl_gen g, const char *key, const mpz_t z)
{
	char *s = mpz_get_str(NULL, 10, z);
	tlc_jsonw__knum(g, key, s);
	/* GMP allocated s through its own memory functions (maybe ours) */
	void (*freefn)(void *, size_t);
	mp_get_memory_functions(NULL, NULL, &freefn);
	freefn(s, strlen(s) + 1);
}
