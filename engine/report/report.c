/* `tlcost report`: the one-screen overview (80 columns): headline per
 * phase, coverage, LOWER BOUND/COMPLETE, ledger top 3, top of the tree,
 * roofline summary. JSON holds the same; CSV is one row per op. */
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include "reports.h"
#include "textw.h"
#include "eval.h"
#include "steps_impl.h"

typedef struct report_ctx {
	const tlc_eval *ev;
	tlc_report_options o;
	tlc_tree *tree;          /* NULL when no phase has ops */
	tlc_roofline *rl;        /* NULL when refused: see refusal */
	char refusal_code[64], refusal_msg[512], refusal_remedy[512];
} report_ctx;

static tlc_phase tree_phase(const tlc_eval *ev)
{
	if (tlc_eval_phase_present(ev, TLC_PHASE_FORWARD))
		return TLC_PHASE_FORWARD;
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		if (tlc_eval_phase_present(ev, (tlc_phase)p))
			return (tlc_phase)p;
	return TLC_PHASE_FORWARD;
}

/* Without tree_depth the report shows the least depth from 2 to 8 whose
 * remainder rows hold at most a tenth of the phase's FLOPs (a fixed depth 2
 * hid 97% of resnet50's forward FLOPs below it), or depth 8. */
#define AUTO_DEPTH_MIN 2
#define AUTO_DEPTH_MAX 8

/* hidden * 10 <= total, exactly (the tree's figures are exact decimals) */
static int hides_little(const tlc_tree *t)
{
	mpz_t h, tot;
	mpz_init_set_str(h, tlc_tree_hidden_flops(t), 10);
	mpz_init_set_str(tot, tlc_tree_total_flops(t), 10);
	mpz_mul_ui(h, h, 10);
	int r = mpz_cmp(h, tot) <= 0;
	mpz_clear(h);
	mpz_clear(tot);
	return r;
}

static int build_tree(report_ctx *c)
{
	tlc_tree_options to;
	memset(&to, 0, sizeof to);
	to.size = sizeof to;
	to.phase = tree_phase(c->ev);
	to.top = c->o.tree_top ? c->o.tree_top : 5;
	if (c->o.tree_depth) {
		to.depth = c->o.tree_depth;
		return tlc_tree_build(&c->tree, c->ev, &to);
	}
	for (to.depth = AUTO_DEPTH_MIN;; to.depth++) {
		int rc = tlc_tree_build(&c->tree, c->ev, &to);
		if (rc || to.depth == AUTO_DEPTH_MAX || hides_little(c->tree))
			return rc;
		tlc_tree_free(c->tree);
		c->tree = NULL;
	}
}

static int prepare(report_ctx *c)
{
	int rc = build_tree(c);
	if (rc)
		return rc;
	tlc_roofline_options ro;
	memset(&ro, 0, sizeof ro);
	ro.size = sizeof ro;
	ro.ceilings = c->o.ceilings;
	ro.phase = -1;
	ro.cache_bytes = c->o.cache_bytes;
	rc = tlc_roofline_build(&c->rl, c->ev, &ro);
	if (rc == TLC_ENOMEM)
		return rc;
	if (rc) { /* the report still prints; it says why there is no roofline */
		const tlc_error *e = tlc_error_last();
		snprintf(c->refusal_code, sizeof c->refusal_code, "%s", e->code);
		snprintf(c->refusal_msg, sizeof c->refusal_msg, "%s", e->message);
		snprintf(c->refusal_remedy, sizeof c->refusal_remedy, "%s", e->remedy);
		c->rl = NULL;
	}
	return 0;
}

static const char *total(tlc_digits *d, const tlc_eval *ev, tlc_phase p, tlc_total w)
{
	char *s = NULL;
	if (tlc_eval_total_str(&s, ev, p, w) != 0 || !s)
		return "?";
	const char *g = tlc_textw__group(d, s);
	if (g == s) /* ungrouped (out of memory): keep it whole in d */
		g = d->heap = s;
	else
		tlc_free(s);
	return g;
}

static void text_headline(FILE *out, const tlc_eval *ev)
{
	const char *ge = tlc_eval_is_lower_bound(ev) ? ">= " : "";
	int any = 0;
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		tlc_digits f = { 0 };
		if (!tlc_eval_phase_present(ev, (tlc_phase)p))
			continue;
		if (!any)
			fputs("compute per phase (actual-path analytic, fma=2: one MAC = 2 FLOPs):\n",
			      out);
		any = 1;
		fprintf(out, "  %-9s %s%s FLOPs\n", tlc_phase_name((tlc_phase)p), ge,
		        total(&f, ev, (tlc_phase)p, TLC_TOTAL_FLOPS));
		tlc_textw__digits_free(&f);
	}
	if (!any)
		fputs("no ops in the input\n", out);
}

static void text_coverage(FILE *out, const tlc_eval *ev)
{
	tlc_coverage cov = TLC_COVERAGE_INIT;
	tlc_eval_coverage(&cov, ev);
	fprintf(out, "coverage: %llu op rows\n  known %llu, zero_by_rule %llu, not_applicable %llu, "
	        "unknown %llu\n", (unsigned long long)cov.rows,
	        (unsigned long long)cov.by_class[TLC_CLASS_KNOWN],
	        (unsigned long long)cov.by_class[TLC_CLASS_ZERO_BY_RULE],
	        (unsigned long long)cov.by_class[TLC_CLASS_NOT_APPLICABLE],
	        (unsigned long long)cov.by_class[TLC_CLASS_UNKNOWN]);
	if (cov.skipped)
		fprintf(out, "  %llu records of unknown kinds skipped (counted)\n",
		        (unsigned long long)cov.skipped);
	tlc_rep__coverage_line_w(out, ev, 1);
}

static void text_ledger(FILE *out, const tlc_eval *ev)
{
	size_t n = tlc_eval_ledger_count(ev);
	if (n == 0)
		return;
	fprintf(out, "\nunknown-cost op types (top %zu of %zu; `tlcost ledger` has remedies):\n",
	        n < 3 ? n : 3, n);
	for (size_t i = 0; i < n && i < 3; i++) {
		const tlc_ledger_entry *e = tlc_eval_ledger_at(ev, i);
		char name[256], tail[96];
		snprintf(name, sizeof name, "%s%s%s", e->name, *e->overload ? "." : "", e->overload);
		int k = snprintf(tail, sizeof tail, " x%llu (%s)", (unsigned long long)e->count,
		                 e->reason);
		if (e->nexample_ids && k > 0 && (size_t)k < sizeof tail)
			snprintf(tail + k, sizeof tail - (size_t)k, ", e.g. id %lld",
			         (long long)e->example_ids[0]);
		size_t tl = strlen(tail), room = tl < 70 ? 78 - tl : 8;
		if (strlen(name) > room) { /* long names are cut to keep 80 columns */
			name[room - 1] = '~';
			name[room] = '\0';
		}
		fprintf(out, "  %s%s\n", name, tail);
	}
}

/* Prints text wrapped at 78 columns, continuation lines indented by 4. */
static void wrapped(FILE *out, const char *lead, const char *text)
{
	size_t col = strlen(lead);
	int first = 1;
	fputs(lead, out);
	while (*text) {
		while (*text == ' ')
			text++;
		size_t n = strcspn(text, " ");
		if (n == 0)
			break;
		if (!first && col + 1 + n > 78) {
			fputs("\n    ", out);
			col = 4;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(text, 1, n, out);
		col += n;
		text += n;
		first = 0;
	}
	fputc('\n', out);
}

static void write_text(FILE *out, report_ctx *c)
{
	const tlc_input_info *info = tlc_eval_info(c->ev);
	fprintf(out, "tlcost report: %s", info && info->model ? info->model : "(unnamed model)");
	if (info && info->device)
		fprintf(out, " on %s", info->device);
	fputs("\n\n", out);
	text_headline(out, c->ev);
	text_coverage(out, c->ev);
	text_ledger(out, c->ev);
	const tlc_tree_options *to = tlc_tree__options(c->tree);
	tlc_digits h = { 0 };
	fprintf(out, "\ncost tree, %s (top %zu per node, depth %zu; `tlcost tree` for more):\n",
	        tlc_phase_name(to->phase), to->top, to->depth);
	if (!c->o.tree_depth)
		fputs(hides_little(c->tree)
		      ? "(depth chosen: the least from 2 whose remainder rows hide <= 10% of FLOPs)\n"
		      : "(depth 8, the most chosen: remainder rows still hide > 10% of FLOPs)\n", out);
	tlc_rep__tree_text_rows(out, c->tree, 80);
	fprintf(out, "hidden in remainder rows: %s FLOPs\n",
	        tlc_textw__group(&h, tlc_tree_hidden_flops(c->tree)));
	tlc_textw__digits_free(&h);
	tlc_tree_device dv = TLC_TREE_DEVICE_INIT;
	if (tlc_tree_device_get(c->tree, &dv) == 0 && dv.present)
		fputs("k.ms = the subtree's kernel time on its costed rows (the ops whose rules carry\n"
		      "the cost), from the device-time join; `tlcost tree` shows self and subtree\n", out);
	fputs("\nroofline (HYPOTHESES from ideal traffic, not measurements):\n", out);
	if (c->rl)
		tlc_rep__roofline_summary_text(out, c->rl);
	else {
		char lead[96];
		snprintf(lead, sizeof lead, "  not drawn: %s: ", c->refusal_code);
		wrapped(out, lead, c->refusal_msg);
		wrapped(out, "  remedy: ", c->refusal_remedy);
	}
	if (c->o.steps)
		tlc_steps__text_summary(out, c->o.steps);
}

static void json_total(yajl_gen g, const tlc_eval *ev, tlc_phase p, tlc_total w, const char *k)
{
	char *s = NULL;
	tlc_jsonw__knum(g, k, tlc_eval_total_str(&s, ev, p, w) == 0 ? s : NULL);
	tlc_free(s);
}

static void json_phases(yajl_gen g, const tlc_eval *ev)
{
	tlc_jsonw__key(g, "phases");
	yajl_gen_array_open(g);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		if (!tlc_eval_phase_present(ev, (tlc_phase)p))
			continue;
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "phase", tlc_phase_name((tlc_phase)p));
		json_total(g, ev, (tlc_phase)p, TLC_TOTAL_FLOPS, "flops");
		json_total(g, ev, (tlc_phase)p, TLC_TOTAL_MACS, "macs");
		json_total(g, ev, (tlc_phase)p, TLC_TOTAL_OTHER_FLOPS, "other_flops");
		json_total(g, ev, (tlc_phase)p, TLC_TOTAL_BYTES_READ, "bytes_read");
		json_total(g, ev, (tlc_phase)p, TLC_TOTAL_BYTES_WRITTEN, "bytes_written");
		tlc_jsonw__kbool(g, "bytes_incomplete", tlc_eval_bytes_incomplete(ev, (tlc_phase)p));
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void json_coverage(yajl_gen g, const tlc_eval *ev)
{
	tlc_coverage cov = TLC_COVERAGE_INIT;
	tlc_eval_coverage(&cov, ev);
	tlc_jsonw__key(g, "coverage");
	yajl_gen_map_open(g);
	tlc_jsonw__kuint(g, "rows", cov.rows);
	for (int k = 0; k < TLC_CLASS_COUNT; k++)
		tlc_jsonw__kuint(g, tlc_class_name((tlc_class)k), cov.by_class[k]);
	tlc_jsonw__kuint(g, "skipped", cov.skipped);
	yajl_gen_map_close(g);
	tlc_jsonw__kbool(g, "lower_bound", tlc_eval_is_lower_bound(ev));
	tlc_jsonw__key(g, "ledger_top");
	yajl_gen_array_open(g);
	size_t n = tlc_eval_ledger_count(ev);
	for (size_t i = 0; i < n && i < 3; i++) {
		const tlc_ledger_entry *e = tlc_eval_ledger_at(ev, i);
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "name", e->name);
		tlc_jsonw__kstr(g, "overload", e->overload);
		tlc_jsonw__kuint(g, "count", e->count);
		tlc_jsonw__kstr(g, "reason", e->reason);
		tlc_jsonw__kstr(g, "remedy", e->remedy);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	tlc_jsonw__kuint(g, "ledger_groups", n);
}

/* Capture pairing (docs/join.md): present only for a paired replay. */
static void json_capture_pairing(yajl_gen g, const tlc_eval *ev)
{
	tlc_capture_pair_summary s = TLC_CAPTURE_PAIR_SUMMARY_INIT;
	if (tlc_capture_pair_summary_get(ev, &s) != 1)
		return;
	tlc_jsonw__key(g, "capture_pairing");
	yajl_gen_map_open(g);
	tlc_jsonw__kuint(g, "captures", s.captures);
	tlc_jsonw__kuint(g, "graphs", s.graphs);
	tlc_jsonw__kuint(g, "graph_launches", s.graph_launches);
	tlc_jsonw__kuint(g, "matched", s.matched);
	tlc_jsonw__kuint(g, "ambiguous", s.ambiguous);
	tlc_jsonw__kuint(g, "unmatched", s.unmatched);
	tlc_jsonw__kuint(g, "ops_added", s.ops_added);
	yajl_gen_map_close(g);
}

static int write_json(FILE *out, report_ctx *c)
{
	const tlc_input_info *info = tlc_eval_info(c->ev);
	yajl_gen g = tlc_jsonw__new(out);
	if (!g)
		return tlc_error__oom();
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", "tlcost.report/2");
	tlc_jsonw__kstr(g, "report", "summary");
	tlc_jsonw__kstr(g, "model", info ? info->model : NULL);
	tlc_jsonw__kstr(g, "input_device", info ? info->device : NULL);
	tlc_jsonw__kstr(g, "convention", "fma=2");
	tlc_jsonw__kstr(g, "basis", "actual-path analytic");
	json_phases(g, c->ev);
	json_coverage(g, c->ev);
	json_capture_pairing(g, c->ev);
	tlc_jsonw__key(g, "tree");
	tlc_rep__tree_json(g, c->tree);
	tlc_jsonw__key(g, "roofline");
	if (c->rl) {
		yajl_gen_map_open(g);
		tlc_rep__roofline_json_head(g, c->rl);
		yajl_gen_map_close(g);
	} else {
		yajl_gen_null(g);
		tlc_jsonw__key(g, "roofline_refusal");
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "code", c->refusal_code);
		tlc_jsonw__kstr(g, "message", c->refusal_msg);
		tlc_jsonw__kstr(g, "remedy", c->refusal_remedy);
		yajl_gen_map_close(g);
	}
	if (c->o.steps) { /* tlcost.steps/1's windows and steps */
		tlc_jsonw__kstr(g, "steps_windows", tlc_steps_marked(c->o.steps) ? "profiler_steps"
		                                                                 : "device_span");
		tlc_jsonw__key(g, "steps");
		tlc_steps__json_rows(g, c->o.steps);
	}
	yajl_gen_map_close(g);
	return tlc_jsonw__end(g, out);
}

static void csv_field(FILE *out, const tlc_op_row *r, tlc_cost_field f)
{
	char *s = NULL;
	fputc(',', out);
	if (r->cost && !(tlc_cost_missing(r->cost) & (1u << f)) &&
	    tlc_cost_get_str(&s, r->cost, f) == 0 && s)
		fputs(s, out);
	tlc_free(s);
}

static void csv_row(FILE *out, const tlc_op_row *r, int dev)
{
	fprintf(out, "%lld,%lld,", (long long)r->id, (long long)r->parent);
	tlc_textw__csv(out, r->name, 0);
	fputc(',', out);
	tlc_textw__csv(out, r->overload, 0);
	fprintf(out, ",%s,", tlc_phase_name(r->phase));
	tlc_textw__csv(out, r->module, 0);
	fputc(',', out);
	tlc_textw__csv(out, r->module_type, 0);
	fprintf(out, ",%lld,%s,", (long long)r->module_call, tlc_class_name(r->cls));
	tlc_textw__csv(out, r->reason, 0);
	tlc_count fl;
	tlc_count__init(&fl);
	tlc_rep__add_flops(&fl, r);
	char *fs = tlc_rep__counted(r) ? tlc_count__to_str(&fl) : NULL;
	fprintf(out, ",%s", fs ? fs : "");
	free(fs);
	tlc_count__clear(&fl);
	csv_field(out, r, TLC_FIELD_MACS);
	csv_field(out, r, TLC_FIELD_OTHER_FLOPS);
	csv_field(out, r, TLC_FIELD_BYTES_READ);
	csv_field(out, r, TLC_FIELD_BYTES_WRITTEN);
	fprintf(out, ",%d,", r->cost ? tlc_cost_bytes_unknown(r->cost) : 1);
	tlc_textw__csv(out, r->shapes, 0);
	fputc(',', out);
	if (r->op_flags & TLC_OP_HAS_HOST_NS)
		fprintf(out, "%lld", (long long)r->host_ns);
	if (dev && (r->row_flags & TLC_ROW_HAS_DEVICE_TIME))
		fprintf(out, ",%lld,%lld,%s", (long long)r->device_time_ns,
		        (long long)r->kernel_time_ns, tlc_attribution_name(r->attribution));
	else if (dev)
		fputs(",,,", out);
	fputc('\n', out);
}

/** Per-op rows of an evaluation as CSV (also `--format csv` of report). */
static void write_csv(FILE *out, const tlc_eval *ev)
{
	int dev = 0;
	for (size_t i = 0; i < tlc_eval_op_count(ev) && !dev; i++) /* every row has the same flags */
		dev = (tlc_eval__row(ev, i).row_flags & TLC_ROW_HAS_DEVICE_TIME) != 0;
	fputs("id,parent,name,overload,phase,module,module_type,module_call,class,reason,flops,"
	      "macs,other_flops,bytes_read,bytes_written,bytes_unknown,shapes,"
	      "time_instrumented_ns", out);
	fputs(dev ? ",device_time_ns,kernel_time_ns,attribution_status\n" : "\n", out);
	for (size_t i = 0; i < tlc_eval_op_count(ev); i++) {
		tlc_op_row r = tlc_eval__row(ev, i);
		csv_row(out, &r, dev);
	}
}

int tlc_write_report(FILE *out, const tlc_eval *ev, const tlc_report_options *opts, tlc_format fmt)
{
	if (!out)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an output stream",
		                      "tlc_write_report called with NULL");
	int rc = tlc_rep__check_eval(ev);
	if (rc)
		return rc;
	if (fmt == TLC_FORMAT_CSV) {
		FILE *t = tlc_textw__open(out);
		if (!t)
			return TLC_ENOMEM;
		write_csv(t, ev);
		return tlc_textw__close(t, out, 0);
	}
	report_ctx c;
	memset(&c, 0, sizeof c);
	c.ev = ev;
	if (opts)
		memcpy(&c.o, opts, opts->size && opts->size < sizeof c.o ? opts->size : sizeof c.o);
	rc = prepare(&c);
	if (!rc && fmt == TLC_FORMAT_JSON) {
		rc = write_json(out, &c);
	} else if (!rc) {
		FILE *t = tlc_textw__open(out);
		if (t)
			write_text(t, &c);
		rc = t ? tlc_textw__close(t, out, 0) : TLC_ENOMEM;
	}
	tlc_tree_free(c.tree);
	tlc_roofline_free(c.rl);
	return rc;
}
