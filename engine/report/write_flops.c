/* The flops report, the unknown ledger and the rule listing, as text (the
 * contract's wording) and JSON (docs/json-schema.md). */
#include <stdlib.h>
#include <string.h>
#include "tlcost/tlcost.h"
#include "count.h"
#include "error.h"
#include "jsonw.h"
#include "write_comm.h"
#include "reports.h"
#include "flops_sum.h"
#include "textw.h"

#define HEADLINE_FMT "%s compute (actual-path analytic, fma=2: one MAC = 2 FLOPs): %s%s\n"

/* Grouped decimal of a total (malloc'd), or NULL (error set). */
static char *grouped_total(const tlc_eval *ev, tlc_phase p, tlc_total which)
{
	char *plain;
	if (tlc_eval_total_str(&plain, ev, p, which) < 0)
		return NULL;
	tlc_digits d = { 0 };
	char *out = strdup(tlc_textw__group(&d, plain));
	tlc_textw__digits_free(&d);
	free(plain);
	if (!out)
		tlc_error__oom();
	return out;
}

static const char *or_dash(const char *s) { return s && *s ? s : "-"; }

static void write_title(FILE *out, const tlc_eval *ev)
{
	const tlc_input_info *in = tlc_eval_info(ev);
	fprintf(out, "tlcost flops: %s (%s", or_dash(in->model), in->format);
	if (in->producer)
		fprintf(out, ", producer %s", in->producer);
	if (in->device)
		fprintf(out, ", device %s", in->device);
	fprintf(out, ")\n");
}

static int write_phase_text(FILE *out, const tlc_eval *ev, tlc_phase p)
{
	char *flops = grouped_total(ev, p, TLC_TOTAL_FLOPS);
	char *macs = grouped_total(ev, p, TLC_TOTAL_MACS);
	char *other = grouped_total(ev, p, TLC_TOTAL_OTHER_FLOPS);
	char *br = grouped_total(ev, p, TLC_TOTAL_BYTES_READ);
	char *bw = grouped_total(ev, p, TLC_TOTAL_BYTES_WRITTEN);
	int rc = flops && macs && other && br && bw ? 0 : TLC_ENOMEM;
	if (rc == 0) {
		const char *lb = tlc_eval_is_lower_bound(ev) ? ">= " : "";
		fprintf(out, HEADLINE_FMT, tlc_phase_name(p), lb, flops);
		fprintf(out, "  true MACs %s%s, other FLOPs %s%s\n", lb, macs, lb, other);
		char *fma1 = grouped_total(ev, p, TLC_TOTAL_FLOPS_FMA1);
		if (fma1)
			fprintf(out, "  fma=1 view (one MAC = 1 FLOP): %s%s\n", lb, fma1);
		else
			fprintf(out, "  fma=1 view refused: %s\n", tlc_error_last()->code);
		free(fma1);
		int bl = tlc_eval_is_lower_bound(ev) || tlc_eval_bytes_incomplete(ev, p);
		fprintf(out, "  ideal traffic (read once, write once): read %s%s B, written %s%s B%s\n",
		        bl ? ">= " : "", br, bl ? ">= " : "", bw,
		        tlc_eval_bytes_incomplete(ev, p) ? " (some element sizes unknown)" : "");
	}
	free(flops);
	free(macs);
	free(other);
	free(br);
	free(bw);
	return rc;
}

/* backward/forward FLOP ratio: a ratio (float allowed), never a total */
static void write_ratio_text(FILE *out, const tlc_eval *ev)
{
	if (!tlc_eval_phase_present(ev, TLC_PHASE_FORWARD) ||
	    !tlc_eval_phase_present(ev, TLC_PHASE_BACKWARD))
		return;
	char *f = NULL, *b = NULL;
	if (tlc_eval_total_str(&f, ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS) == 0 &&
	    tlc_eval_total_str(&b, ev, TLC_PHASE_BACKWARD, TLC_TOTAL_FLOPS) == 0) {
		double fd = strtod(f, NULL), bd = strtod(b, NULL);
		if (fd > 0)
			fprintf(out, "backward/forward FLOP ratio: %.3f (from the backward ops that ran%s)\n",
			        bd / fd, tlc_eval_is_lower_bound(ev) ? "; both sides are lower bounds" : "");
	}
	free(f);
	free(b);
}

static void write_coverage_text(FILE *out, const tlc_eval *ev)
{
	tlc_coverage c = TLC_COVERAGE_INIT;
	tlc_eval_coverage(&c, ev);
	fprintf(out, "coverage: %llu op rows = %llu known + %llu zero_by_rule + %llu not_applicable"
	             " + %llu unknown\n",
	        (unsigned long long)c.rows, (unsigned long long)c.by_class[TLC_CLASS_KNOWN],
	        (unsigned long long)c.by_class[TLC_CLASS_ZERO_BY_RULE],
	        (unsigned long long)c.by_class[TLC_CLASS_NOT_APPLICABLE],
	        (unsigned long long)c.by_class[TLC_CLASS_UNKNOWN]);
	if (c.skipped)
		fprintf(out, "skipped: %llu records of kinds this version does not evaluate "
		             "(counted, not costed)\n",
		        (unsigned long long)c.skipped);
	if (c.device_records)
		fprintf(out, "device records: %llu (see `tlcost join` for device time)\n",
		        (unsigned long long)c.device_records);
	tlc_device_work w = { sizeof w, 0, 0, 0, 0, 0 };
	tlc_eval_device_work(&w, ev);
	if (w.kernels || w.not_compute)
		fprintf(out, "device work: %llu kernels = %llu launched inside op rows + %llu without "
		             "an op row; %llu memcpy/memset records (data movement, not compute)\n",
		        (unsigned long long)w.kernels, (unsigned long long)w.kernels_in_ops,
		        (unsigned long long)w.without_op, (unsigned long long)w.not_compute);
}

/* One line per cause of device work without op rows (contract: "Device
 * work"), each with its device time and remedy. */
static void write_gaps_text(FILE *out, const tlc_eval *ev)
{
	for (size_t i = 0; i < tlc_eval_device_gap_count(ev); i++) {
		const tlc_device_gap *g = tlc_eval_device_gap_at(ev, i);
		fprintf(out, "  %s", g->message);
		if (g->device_ns)
			fprintf(out, " (%lld.%03lld us of device time)", (long long)(g->device_ns / 1000),
			        (long long)(g->device_ns % 1000));
		fprintf(out, " [%s]\n    remedy: %s\n", g->cause, g->remedy);
	}
}

/* The LOWER BOUND / COMPLETE line of contract section 3 (one wording for
 * every report: tlc_rep__coverage_line). */
static void write_bound_line(FILE *out, const tlc_eval *ev)
{
	size_t n = tlc_eval_ledger_count(ev), ngaps = tlc_eval_device_gap_count(ev);
	if (!ngaps) {
		tlc_rep__coverage_line(out, ev);
		return;
	}
	char what[128];
	tlc_rep__unknown_phrase(what, sizeof what, ev);
	if (n) {
		fprintf(out, "totals are a LOWER BOUND: %s (", what);
		for (size_t i = 0; i < n && i < 3; i++) {
			const tlc_ledger_entry *e = tlc_eval_ledger_at(ev, i);
			fprintf(out, "%s%s%s%s x%llu", i ? ", " : "", e->name, *e->overload ? "." : "",
			        e->overload, (unsigned long long)e->count);
		}
		fprintf(out, "%s); remedy: see `tlcost ledger`\n", n > 3 ? ", ..." : "");
		fprintf(out, "and work that no op row accounts for:\n");
	} else {
		fprintf(out, "totals are a LOWER BOUND: %s, but work that no op row accounts for:\n",
		        what);
	}
	write_gaps_text(out, ev);
}

/* Partly known calls (contract: "Partly known ops"): unknown, but their
 * determined terms are in the totals above; only when there are some. */
static void write_partly_known_text(FILE *out, const tlc_eval *ev)
{
	uint64_t calls = 0;
	size_t types = 0, n = tlc_eval_ledger_count(ev);
	for (size_t i = 0; i < n; i++) {
		const tlc_ledger_entry *e = tlc_eval_ledger_at(ev, i);
		calls += e->partly_known;
		types += e->partly_known != 0;
	}
	if (!calls)
		return;
	fprintf(out, "partly known: %llu of the unknown calls (%zu op type%s) had their determined "
	             "terms counted in the totals above; their missing terms are not (see `tlcost "
	             "ledger`)\n",
	        (unsigned long long)calls, types, types == 1 ? "" : "s");
}

static void write_types_text(FILE *out, const tlc_eval *ev, size_t top)
{
	tlc_digits buf = { 0 };
	size_t n = tlc_eval_optype_count(ev);
	if (!n)
		return;
	fprintf(out, "\ntop op types by FLOPs (fma=2, all phases):\n");
	fprintf(out, "  %-46s %6s %22s  %s\n", "op", "calls", "FLOPs", "class");
	for (size_t i = 0; i < n && i < top; i++) {
		const tlc_optype_row *r = tlc_eval_optype_at(ev, i);
		const char *cls = "known";
		for (int c = 0; c < TLC_CLASS_COUNT; c++)
			if (r->by_class[c] == r->count)
				cls = tlc_class_name((tlc_class)c);
		int mixed = 1;
		for (int c = 0; c < TLC_CLASS_COUNT; c++)
			if (r->by_class[c] == r->count)
				mixed = 0;
		fprintf(out, "  %-46s %6llu %22s  %s\n", r->name, (unsigned long long)r->count,
		        tlc_textw__group(&buf, r->flops), mixed ? "mixed" : cls);
	}
	if (n > top)
		fprintf(out, "  (+ %zu more op types)\n", n - top);
	tlc_textw__digits_free(&buf);
}

static int write_flops_text(FILE *out, const tlc_eval *ev)
{
	write_title(out, ev);
	int any = 0;
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		if (!tlc_eval_phase_present(ev, (tlc_phase)p))
			continue;
		any = 1;
		int rc = write_phase_text(out, ev, (tlc_phase)p);
		if (rc < 0)
			return rc;
	}
	if (!any)
		fprintf(out, "no op records: nothing was counted\n");
	write_ratio_text(out, ev);
	if (tlc_rep__comm_text(out, ev) < 0)
		return tlc_error__oom();
	write_coverage_text(out, ev);
	write_bound_line(out, ev);
	write_partly_known_text(out, ev);
	write_types_text(out, ev, 12);
	return 0;
}

/* ---- JSON ---- */

/* the flops document: the evaluation's summary through the one writer
 * (flops_sum.c), which `tlcost merge` writes its merged summary with */
static int write_flops_json(FILE *out, const tlc_eval *ev)
{
	tlc_fsum s;
	tlc_fsum__init(&s);
	int rc = tlc_fsum__from_eval(&s, ev);
	if (rc < 0) {
		tlc_fsum__free(&s);
		return rc;
	}
	yajl_gen g = tlc_jsonw__new(out);
	if (!g) {
		tlc_fsum__free(&s);
		return tlc_error__oom();
	}
	tlc_fsum__json(g, &s);
	rc = tlc_jsonw__end(g, out);
	tlc_fsum__free(&s);
	return rc;
}

static int need_args(FILE *out, const void *x)
{
	if (!out || !x)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an output and a source",
		                      "writer called with NULL");
	return 0;
}

static int bad_format(const char *what)
{
	return tlc_error__set(TLC_EINVAL, "format_unsupported", "use --format text or json",
	                      "the %s report has no such format", what);
}

int tlc_write_flops(FILE *out, const tlc_eval *ev, tlc_format fmt)
{
	int rc = need_args(out, ev);
	if (rc < 0)
		return rc;
	if (fmt == TLC_FORMAT_TEXT) {
		FILE *t = tlc_textw__open(out);
		return t ? tlc_textw__close(t, out, write_flops_text(t, ev)) : TLC_ENOMEM;
	}
	if (fmt == TLC_FORMAT_JSON)
		return write_flops_json(out, ev);
	return bad_format("flops");
}

/* ---- ledger ---- */

static void write_ledger_entry_text(FILE *out, const tlc_ledger_entry *e)
{
	fprintf(out, "\n%s%s%s  x%llu  (%s)\n", e->name, *e->overload ? "." : "", e->overload,
	        (unsigned long long)e->count, e->reason);
	fprintf(out, "  example ids:");
	for (size_t k = 0; k < e->nexample_ids; k++)
		fprintf(out, " %lld", (long long)e->example_ids[k]);
	fprintf(out, "\n");
	for (size_t k = 0; k < e->nexample_shapes; k++)
		fprintf(out, "  example inputs: %s\n", *e->example_shapes[k] ? e->example_shapes[k]
		                                                             : "(no tensor arguments)");
	if (strcmp(e->nested_flops, "0") != 0)
		fprintf(out, "  FLOPs counted inside it by nested children: %s\n", e->nested_flops);
	if (e->detail && !(e->partly_known && e->cause && strcmp(e->detail, e->cause) == 0))
		fprintf(out, "  detail: %s\n", e->detail);
	if (e->partly_known) {
		tlc_digits f = { 0 }, b = { 0 };
		fprintf(out, "  partly known: %llu call%s; determined terms counted in the totals "
		             "(FLOPs %s, bytes %s); missing: %s\n",
		        (unsigned long long)e->partly_known, e->partly_known == 1 ? "" : "s",
		        tlc_textw__group(&f, e->counted_flops), tlc_textw__group(&b, e->counted_bytes),
		        e->missing);
		fprintf(out, "  cause: %s\n", e->cause);
		tlc_textw__digits_free(&f);
		tlc_textw__digits_free(&b);
	}
	fprintf(out, "  remedy: %s\n", e->remedy);
}

static int write_ledger_text(FILE *out, const tlc_eval *ev);

int tlc_write_ledger(FILE *out, const tlc_eval *ev, tlc_format fmt)
{
	int rc = need_args(out, ev);
	if (rc < 0)
		return rc;
	if (fmt == TLC_FORMAT_JSON) {
		tlc_fsum sum;
		tlc_fsum__init(&sum);
		rc = tlc_fsum__from_eval(&sum, ev);
		yajl_gen g = rc < 0 ? NULL : tlc_jsonw__new(out);
		if (!g) {
			tlc_fsum__free(&sum);
			return rc < 0 ? rc : tlc_error__oom();
		}
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "schema", "tlcost.ledger/1");
		tlc_jsonw__kbool(g, "lower_bound", sum.lower_bound);
		tlc_fsum__json_device_work(g, &sum);
		tlc_fsum__json_ledger(g, &sum);
		yajl_gen_map_close(g);
		tlc_fsum__free(&sum);
		return tlc_jsonw__end(g, out);
	}
	if (fmt != TLC_FORMAT_TEXT)
		return bad_format("ledger");
	FILE *t = tlc_textw__open(out);
	return t ? tlc_textw__close(t, out, write_ledger_text(t, ev)) : TLC_ENOMEM;
}

static int write_ledger_text(FILE *out, const tlc_eval *ev)
{
	size_t n = tlc_eval_ledger_count(ev);
	char what[128];
	fprintf(out, "unknown-cost ledger: %s\n", tlc_rep__unknown_phrase(what, sizeof what, ev));
	for (size_t i = 0; i < n; i++)
		write_ledger_entry_text(out, tlc_eval_ledger_at(ev, i));
	write_bound_line(out, ev);
	return 0;
}

/* ---- rules ---- */

static const char *kind_name(tlc_rule_kind k)
{
	static const char *const names[] = { "cost", "zero", "decomposed", "structural" };
	return (unsigned)k <= TLC_RULE_STRUCTURAL ? names[k] : "?";
}

static int write_rules_text(FILE *out, const tlc_engine *eng);

int tlc_write_rules(FILE *out, const tlc_engine *eng, tlc_format fmt)
{
	int rc = need_args(out, eng);
	if (rc < 0)
		return rc;
	size_t n = tlc_engine_rule_count(eng);
	if (fmt == TLC_FORMAT_JSON) {
		yajl_gen g = tlc_jsonw__new(out);
		if (!g)
			return tlc_error__oom();
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "schema", "tlcost.rules/1");
		tlc_jsonw__key(g, "rules");
		yajl_gen_array_open(g);
		for (size_t i = 0; i < n; i++) {
			const tlc_rule_info *r = tlc_engine_rule_at(eng, i);
			yajl_gen_map_open(g);
			tlc_jsonw__kstr(g, "name", r->name);
			tlc_jsonw__kstr(g, "kind", kind_name(r->kind));
			tlc_jsonw__kstr(g, "evidence", tlc_evidence_name(r->evidence));
			tlc_jsonw__kstr(g, "provider", r->provider);
			tlc_jsonw__kbool(g, "overrides", r->overrides);
			tlc_jsonw__kstr(g, "note", r->note);
			yajl_gen_map_close(g);
		}
		yajl_gen_array_close(g);
		yajl_gen_map_close(g);
		return tlc_jsonw__end(g, out);
	}
	if (fmt != TLC_FORMAT_TEXT)
		return bad_format("rules");
	FILE *t = tlc_textw__open(out);
	return t ? tlc_textw__close(t, out, write_rules_text(t, eng)) : TLC_ENOMEM;
}

static void fit(int *w, const char *s)
{
	size_t n = strlen(s);
	if (n > (size_t)*w)
		*w = n > 4096 ? 4096 : (int)n;
}

/* One row per rule; each column before the note is as wide as its longest
 * entry (or its header), so every column starts at the same place however
 * long a rule family's name or a rule file's path is. */
static int write_rules_text(FILE *out, const tlc_engine *eng)
{
	size_t n = tlc_engine_rule_count(eng);
	int wn = 0, wk = 0, we = 0, wp = 0;
	fit(&wn, "name");
	fit(&wk, "kind");
	fit(&we, "evidence");
	fit(&wp, "provider");
	for (size_t i = 0; i < n; i++) {
		const tlc_rule_info *r = tlc_engine_rule_at(eng, i);
		fit(&wn, r->name);
		fit(&wk, kind_name(r->kind));
		fit(&we, tlc_evidence_name(r->evidence));
		fit(&wp, r->provider);
	}
	fprintf(out, "%zu rules\n%-*s %-*s %-*s %-*s %s\n", n, wn, "name", wk, "kind", we,
	        "evidence", wp, "provider", "note");
	for (size_t i = 0; i < n; i++) {
		const tlc_rule_info *r = tlc_engine_rule_at(eng, i);
		fprintf(out, "%-*s %-*s %-*s %-*s %s%s\n", wn, r->name, wk, kind_name(r->kind), we,
		        tlc_evidence_name(r->evidence), wp, r->provider,
		        r->overrides ? "[override] " : "", r->note);
	}
	return 0;
}
