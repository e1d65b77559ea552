/* Writers of the diff: text, JSON (tlcost.diff/1) and CSV. Every change is
 * B - A; a figure of a side with unknown-cost calls is a lower bound and
 * is marked (>=), never taken for a 0. */
#include <string.h>
#include "diff_int.h"
#include "textw.h"

static const char *by_name(tlc_diff_by b)
{
	return b == TLC_DIFF_BY_TYPE ? "type" : b == TLC_DIFF_BY_MODULE ? "module" : "group";
}

static const char *phase_label(int p) { return p < 0 ? "all" : tlc_phase_name((tlc_phase)p); }

static int present(const tlc_diff *d, const tlc_diff_row *t)
{
	if (d->is_partial)
		return t->phase < 0 || (d->partial_phases >> t->phase & 1u);
	return t->a.count || t->b.count;
}

/* A partial's per-phase calls are not known (only its totals' are). */
static int counts_known(const tlc_diff *d, const tlc_diff_row *t)
{
	return !d->is_partial || t->phase < 0;
}

/* ------------------------------------------------------------ text */

static void put_num(FILE *out, int width, const char *dec, int lower)
{
	tlc_digits dg = { 0 };
	const char *s = dec ? tlc_textw__group(&dg, dec) : "unknown";
	const char *ge = dec && lower ? ">=" : "";
	int pad = width - (int)(strlen(ge) + strlen(s));
	fprintf(out, " %*s%s%s", pad > 0 ? pad : 0, "", ge, s);
	tlc_textw__digits_free(&dg);
}

static void put_delta(FILE *out, int width, const char *dec)
{
	char buf[8] = "+";
	tlc_digits dg = { 0 };
	const char *s = dec ? tlc_textw__group(&dg, dec) : "unknown";
	if (!dec || *s == '-' || strcmp(s, "0") == 0)
		buf[0] = '\0';
	int pad = width - (int)(strlen(buf) + strlen(s));
	fprintf(out, " %*s%s%s", pad > 0 ? pad : 0, "", buf, s);
	tlc_textw__digits_free(&dg);
}

static void total_line(FILE *out, const char *label, const char *a, const char *b,
                       const char *delta, const int lower[2])
{
	fprintf(out, "  %-20s", label);
	put_num(out, 24, a, lower[0]);
	put_num(out, 24, b, lower[1]);
	put_delta(out, 24, delta);
	fputc('\n', out);
}

/* Times in ms, or in us for a diff whose kernel times are all below 10 ms
 * (chosen once per report: unit_of). Exact ns are in the JSON and CSV. */
static double unit_of(const tlc_diff *d)
{
	const tlc_diff_row *t = tlc_diff_total(d, -1);
	return t->a.kernel_ns < 10000000 && t->b.kernel_ns < 10000000 ? 1e3 : 1e6;
}

static const char *unit_name(double div) { return div == 1e6 ? "ms" : "us"; }

static void ms(char *buf, size_t cap, int64_t ns, int sign, double div)
{
	if (sign && ns == 0)
		snprintf(buf, cap, "0");
	else
		snprintf(buf, cap, sign ? "%+.3f" : "%.3f", (double)ns / div);
}

static void time_lines(FILE *out, const tlc_diff_row *t, double div)
{
	char a[32], b[32], dt[32], w[32], r[32], u[32];
	ms(a, sizeof a, t->a.kernel_ns, 0, div);
	ms(b, sizeof b, t->b.kernel_ns, 0, div);
	ms(dt, sizeof dt, t->d_time_ns, 1, div);
	ms(w, sizeof w, t->d_work_ns, 1, div);
	ms(r, sizeof r, t->d_rate_ns, 1, div);
	ms(u, sizeof u, t->d_unsplit_ns, 1, div);
	char label[32];
	snprintf(label, sizeof label, "kernel time (%s)", unit_name(div));
	fprintf(out, "  %-20s %24s %24s %24s\n", label, a, b, dt);
	fprintf(out, "    = work %s %s (B's work at A's rate) + rate %s %s (the same work "
	        "faster or slower)", w, unit_name(div), r, unit_name(div));
	if (t->d_unsplit_ns)
		fprintf(out, " + unsplit %s %s", u, unit_name(div));
	fputc('\n', out);
}

static void totals_block(FILE *out, const tlc_diff *d, const tlc_diff_row *t, const char *title,
                         double div)
{
	fprintf(out, "%s%*s %24s %24s %24s\n", title, (int)(22 - strlen(title)), "", "A", "B",
	        "change (B - A)");
	char ca[24], cb[24], ua[24], ub[24];
	snprintf(ca, sizeof ca, "%llu", (unsigned long long)t->a.count);
	snprintf(cb, sizeof cb, "%llu", (unsigned long long)t->b.count);
	snprintf(ua, sizeof ua, "%llu", (unsigned long long)t->a.unknown);
	snprintf(ub, sizeof ub, "%llu", (unsigned long long)t->b.unknown);
	int known = counts_known(d, t);
	/* >= where a side is a lower bound: its unknown calls, or a partial's word */
	int lower[2] = { known ? t->a.unknown > 0 : d->lower[0],
	                 known ? t->b.unknown > 0 : d->lower[1] };
	fprintf(out, "  %-20s", "op rows");
	if (known) {
		put_num(out, 24, ca, 0);
		put_num(out, 24, cb, 0);
		put_delta(out, 24, t->d_count);
	} else {
		fprintf(out, " %24s %24s %24s", "n/a", "n/a", "n/a");
	}
	fputc('\n', out);
	total_line(out, "FLOPs (fma=2)", t->a.flops, t->b.flops, t->d_flops, lower);
	total_line(out, "  MACs", t->a.macs, t->b.macs, t->d_macs, lower);
	total_line(out, "  other FLOPs", t->a.other_flops, t->b.other_flops, t->d_other_flops, lower);
	total_line(out, "bytes (ideal)", t->a.bytes, t->b.bytes, t->d_bytes, lower);
	fprintf(out, "  %-20s", "unknown-cost calls");
	if (known) {
		put_num(out, 24, ua, 0);
		put_num(out, 24, ub, 0);
		put_delta(out, 24, t->d_unknown);
	} else {
		fprintf(out, " %24s %24s %24s", "n/a", "n/a", "n/a");
	}
	fputc('\n', out);
	if (t->has_time)
		time_lines(out, t, div);
}

static void row_text(FILE *out, const tlc_diff_row *r, int time, int by_group, double div)
{
	if (time) {
		char dt[32], w[32], rt[32];
		if (r->has_time) {
			ms(dt, sizeof dt, r->d_time_ns, 1, div);
			ms(w, sizeof w, r->d_work_ns, 1, div);
			ms(rt, sizeof rt, r->d_rate_ns, 1, div);
			if (r->d_unsplit_ns)
				snprintf(w, sizeof w, "unsplit");
		}
		fprintf(out, "%10s %10s %10s", r->has_time ? dt : "-", r->has_time ? w : "-",
		        r->has_time && !r->d_unsplit_ns ? rt : "-");
	}
	int lower = r->a.unknown || r->b.unknown;
	if (lower && r->a.count == r->a.unknown && r->b.count == r->b.unknown) {
		fprintf(out, " %18s %15s", "unknown", "unknown"); /* nothing counted on either side */
	} else {
		put_delta(out, 18, r->d_flops);
		put_delta(out, 15, r->d_bytes);
	}
	put_delta(out, 7, r->d_count);
	fprintf(out, " %s", lower ? "unk" : "   ");
	if (by_group)
		fprintf(out, " %-12s %-9s", tlc_diff_match_name(r->match), phase_label(r->phase));
	fprintf(out, "  %s\n", r->key);
}

static void coverage(FILE *out, const tlc_diff *d)
{
	static const char *const side[] = { "A", "B" };
	for (int s = 0; s < 2; s++) {
		fprintf(out, "%s: ", side[s]);
		if (d->is_partial)
			fprintf(out, "%s\n", d->lower[s] ? "totals are a LOWER BOUND (the partial "
			        "says so: its ledger gives why)" : "coverage is COMPLETE, not a lower bound");
		else if (d->is_sum)
			fprintf(out, "%s\n", d->lower[s] ? "totals are a LOWER BOUND (some rank has "
			        "unknown-cost calls or device work without op rows; see each rank)"
			        : "coverage is COMPLETE on every rank, not a lower bound");
		else
			tlc_rep__coverage_line(out, d->ev[s]);
		const char *why = tlc_diff__untimed_why(d, s, -1);
		if (why)
			fprintf(out, "%s: device time not compared: %s\n", side[s], why);
	}
	const tlc_join_summary *js[2] = { NULL, NULL };
	for (int s = 0; s < 2 && !d->is_sum; s++)
		js[s] = d->j[s] ? tlc_join_get_summary(d->j[s]) : NULL;
	if (js[0] && js[1] && js[0]->state != TLC_JOIN_UNAVAILABLE &&
	    js[1]->state != TLC_JOIN_UNAVAILABLE) {
		tlc_join_detail w[2] = { TLC_JOIN_DETAIL_INIT, TLC_JOIN_DETAIL_INIT };
		tlc_join_detail_get(d->j[0], &w[0]);
		tlc_join_detail_get(d->j[1], &w[1]);
		fprintf(out, "kernel time no op carries (unattributed + ambiguous + on wrappers): "
		        "A %lld + %lld + %lld ns, B %lld + %lld + %lld ns (`tlcost join` on each "
		        "side says why)\n",
		        (long long)js[0]->kernel_unattributed_ns, (long long)js[0]->kernel_ambiguous_ns,
		        (long long)w[0].kernel_on_wrapper_ns, (long long)js[1]->kernel_unattributed_ns,
		        (long long)js[1]->kernel_ambiguous_ns, (long long)w[1].kernel_on_wrapper_ns);
	}
	const tlc_diff_row *t = tlc_diff_total(d, -1);
	if (t->class_changed)
		fprintf(out, "coverage change: %llu aligned calls changed class or rule (see the "
		        "rows' class_changed in --format json)\n",
		        (unsigned long long)t->class_changed);
	if ((t->untimed_a || t->untimed_b) && (d->is_sum || (d->j[0] && d->j[1])))
		fprintf(out, "device time left out: %llu rows of A and %llu of B are in phases whose "
		        "gate did not pass on both sides\n", (unsigned long long)t->untimed_a,
		        (unsigned long long)t->untimed_b);
}

static void write_text(FILE *out, const tlc_diff *d)
{
	int time = tlc_diff_has_time(d), by_group = d->opts.by == TLC_DIFF_BY_GROUP;
	double div = unit_of(d);
	fputs("diff A -> B (actual-path analytic, fma=2; every change is B - A, exact; "
	      ">= marks a lower bound)\n", out);
	if (d->is_partial)
		fputs("partials: totals only (a flops partial holds no op rows to align; per-phase "
		      "calls and device time are not in it)\n\n", out);
	else
		fprintf(out, "aligned: %llu same call, %llu shape/dtype change, %llu same op type; "
		        "%llu rows only in A, %llu only in B\n\n",
		        (unsigned long long)d->match_rows[TLC_DIFF_SAME_CALL][0],
		        (unsigned long long)d->match_rows[TLC_DIFF_SHAPE_CHANGE][0],
		        (unsigned long long)d->match_rows[TLC_DIFF_SAME_TYPE][0],
		        (unsigned long long)d->match_rows[TLC_DIFF_ONLY_A][0],
		        (unsigned long long)d->match_rows[TLC_DIFF_ONLY_B][1]);
	totals_block(out, d, tlc_diff_total(d, -1), "totals, all phases", div);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		const tlc_diff_row *t = tlc_diff_total(d, p);
		if (!present(d, t))
			continue;
		char title[32];
		snprintf(title, sizeof title, "%s", tlc_phase_name((tlc_phase)p));
		fputc('\n', out);
		totals_block(out, d, t, title, div);
	}
	if (d->is_sum) { /* ranks' sum or partials: totals only */
		coverage(out, d);
		return;
	}
	fprintf(out, "\nchanges by %s, sorted by %s\n", by_name(d->opts.by),
	        time ? "|change of kernel time| (rows without compared time last)"
	             : "|change of FLOPs|");
	if (time) {
		char h[3][16];
		snprintf(h[0], sizeof h[0], "dtime %s", unit_name(div));
		snprintf(h[1], sizeof h[1], "dwork %s", unit_name(div));
		snprintf(h[2], sizeof h[2], "drate %s", unit_name(div));
		fprintf(out, "%10s %10s %10s", h[0], h[1], h[2]);
	}
	fprintf(out, " %18s %15s %7s %3s", "dFLOPs", "dbytes", "dcount", "");
	if (by_group)
		fprintf(out, " %-12s %-9s", "match", "phase");
	fprintf(out, "  %s\n", by_group ? "op @module shapes" : d->opts.by == TLC_DIFF_BY_TYPE
	                                                         ? "op type" : "module");
	size_t n = 0;
	const tlc_diff__row *rows = tlc_diff__rows(d, &n);
	for (size_t i = 0; i < n; i++)
		row_text(out, &rows[i].pub, time, by_group, div);
	if (tlc_diff_hidden_rows(d))
		fprintf(out, "(+ %zu more rows; --top 0 shows all)\n", tlc_diff_hidden_rows(d));
	fputs("unk = a side of the row has unknown-cost calls: its change is of the counted "
	      "calls only\n", out);
	if (time)
		fputs("kernel time: attributed kernel time on the costed row (the op carrying the "
		      "cost), compared only\nwhere both joins passed the gate; dwork = B's work at "
		      "A's rate - A's time, drate = the rest\n", out);
	coverage(out, d);
}

/* ------------------------------------------------------------ JSON */

static void json_side(yajl_gen g, const char *key, const tlc_diff_side *s, int time, int counts)
{
	tlc_jsonw__key(g, key);
	yajl_gen_map_open(g);
	if (counts) {
		tlc_jsonw__kuint(g, "count", s->count);
		tlc_jsonw__kuint(g, "unknown", s->unknown);
	} else {
		tlc_jsonw__knull(g, "count");
		tlc_jsonw__knull(g, "unknown");
	}
	tlc_jsonw__knum(g, "macs", s->macs);
	tlc_jsonw__knum(g, "other_flops", s->other_flops);
	tlc_jsonw__knum(g, "flops", s->flops);
	tlc_jsonw__knum(g, "bytes", s->bytes);
	if (time)
		tlc_jsonw__kint(g, "kernel_ns", s->kernel_ns);
	yajl_gen_map_close(g);
}

static void json_row(yajl_gen g, const tlc_diff_row *r, int group, int counts)
{
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "key", r->key);
	if (group) {
		tlc_jsonw__kstr(g, "match", tlc_diff_match_name(r->match));
		tlc_jsonw__kstr(g, "name", r->name);
		tlc_jsonw__kstr(g, "overload", r->overload);
		tlc_jsonw__kstr(g, "module_a", r->module_a);
		tlc_jsonw__kstr(g, "module_b", r->module_b);
		tlc_jsonw__kstr(g, "shapes_a", r->shapes_a);
		tlc_jsonw__kstr(g, "shapes_b", r->shapes_b);
	}
	tlc_jsonw__kstr(g, "phase", phase_label(r->phase));
	json_side(g, "a", &r->a, r->has_time, counts);
	json_side(g, "b", &r->b, r->has_time, counts);
	tlc_jsonw__key(g, "change");
	yajl_gen_map_open(g);
	tlc_jsonw__knum(g, "count", counts ? r->d_count : NULL);
	tlc_jsonw__knum(g, "unknown", counts ? r->d_unknown : NULL);
	tlc_jsonw__knum(g, "macs", r->d_macs);
	tlc_jsonw__knum(g, "other_flops", r->d_other_flops);
	tlc_jsonw__knum(g, "flops", r->d_flops);
	tlc_jsonw__knum(g, "bytes", r->d_bytes);
	if (r->has_time) {
		tlc_jsonw__kint(g, "kernel_ns", r->d_time_ns);
		tlc_jsonw__kint(g, "work_ns", r->d_work_ns);
		tlc_jsonw__kint(g, "rate_ns", r->d_rate_ns);
		tlc_jsonw__kint(g, "unsplit_ns", r->d_unsplit_ns);
	}
	yajl_gen_map_close(g);
	tlc_jsonw__kbool(g, "has_time", r->has_time);
	tlc_jsonw__kuint(g, "class_changed", r->class_changed);
	tlc_jsonw__kuint(g, "untimed_a", r->untimed_a);
	tlc_jsonw__kuint(g, "untimed_b", r->untimed_b);
	yajl_gen_map_close(g);
}

static void json_input(yajl_gen g, const char *key, const tlc_diff *d, int s)
{
	const tlc_input_info *in = d->is_sum ? NULL : tlc_eval_info(d->ev[s]);
	tlc_jsonw__key(g, key);
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "format", in ? in->format : NULL);
	tlc_jsonw__kstr(g, "model", in ? in->model : NULL);
	tlc_jsonw__kbool(g, "lower_bound", tlc_diff_lower_bound(d, s));
	const char *why = tlc_diff__untimed_why(d, s, -1);
	tlc_jsonw__kbool(g, "device_time", why == NULL);
	tlc_jsonw__kstr(g, "device_time_absent_why", why);
	const tlc_join_summary *js = !d->is_sum && d->j[s] ? tlc_join_get_summary(d->j[s]) : NULL;
	if (js && js->state != TLC_JOIN_UNAVAILABLE) { /* coverage of device time */
		tlc_jsonw__kint(g, "kernel_ns", js->kernel_ns);
		tlc_jsonw__kint(g, "kernel_unattributed_ns", js->kernel_unattributed_ns);
		tlc_jsonw__kint(g, "kernel_ambiguous_ns", js->kernel_ambiguous_ns);
		tlc_join_detail w = TLC_JOIN_DETAIL_INIT;
		tlc_join_detail_get(d->j[s], &w);
		tlc_jsonw__kint(g, "kernel_on_wrapper_ns", w.kernel_on_wrapper_ns);
		tlc_jsonw__kbool(g, "gate_passed", js->gate_passed);
	}
	yajl_gen_map_close(g);
}

static int write_json(FILE *out, const tlc_diff *d)
{
	yajl_gen g = tlc_jsonw__new(out);
	if (!g)
		return tlc_error__oom();
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", "tlcost.diff/1");
	tlc_jsonw__kstr(g, "report", "diff");
	tlc_jsonw__kstr(g, "convention", "fma=2");
	tlc_jsonw__kstr(g, "by", by_name(d->opts.by));
	if (d->is_partial)
		tlc_jsonw__kstr(g, "inputs", "flops partials: totals only");
	else if (d->is_sum)
		tlc_jsonw__kuint(g, "ranks", d->nsum);
	tlc_jsonw__kstr(g, "work", "flops, or bytes for a group without FLOPs on either side");
	json_input(g, "a", d, 0);
	json_input(g, "b", d, 1);
	tlc_jsonw__kbool(g, "has_time", tlc_diff_has_time(d));
	tlc_jsonw__key(g, "aligned_rows");
	yajl_gen_map_open(g);
	for (int m = 0; m < TLC_DIFF_MATCH_COUNT; m++)
		tlc_jsonw__kuint(g, tlc_diff_match_name((tlc_diff_match)m),
		                 d->match_rows[m][m == TLC_DIFF_ONLY_B]);
	yajl_gen_map_close(g);
	tlc_jsonw__key(g, "totals");
	yajl_gen_array_open(g);
	json_row(g, tlc_diff_total(d, -1), 0, 1);
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		if (present(d, tlc_diff_total(d, p)))
			json_row(g, tlc_diff_total(d, p), 0, counts_known(d, tlc_diff_total(d, p)));
	yajl_gen_array_close(g);
	tlc_jsonw__kuint(g, "hidden_rows", tlc_diff_hidden_rows(d));
	tlc_jsonw__key(g, "rows");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < tlc_diff_row_count(d); i++)
		json_row(g, tlc_diff_row_at(d, i), d->opts.by == TLC_DIFF_BY_GROUP, 1);
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	return tlc_jsonw__end(g, out);
}

/* ------------------------------------------------------------ CSV */

static void csv_str(FILE *out, const char *s)
{
	fputc(',', out);
	if (s)
		tlc_textw__csv(out, s, 0);
}

static void csv_row(FILE *out, const tlc_diff_row *r, int group)
{
	tlc_textw__csv(out, r->key, 0);
	fprintf(out, ",%s,%s", group ? tlc_diff_match_name(r->match) : "", phase_label(r->phase));
	csv_str(out, r->module_a);
	csv_str(out, r->module_b);
	csv_str(out, r->shapes_a);
	csv_str(out, r->shapes_b);
	fprintf(out, ",%llu,%llu,%s,%llu,%llu,%s", (unsigned long long)r->a.count,
	        (unsigned long long)r->b.count, r->d_count, (unsigned long long)r->a.unknown,
	        (unsigned long long)r->b.unknown, r->d_unknown);
	fprintf(out, ",%s,%s,%s,%s,%s,%s,%s,%s,%s", r->a.macs, r->b.macs, r->d_macs,
	        r->a.other_flops, r->b.other_flops, r->d_other_flops, r->a.flops, r->b.flops,
	        r->d_flops);
	fprintf(out, ",%s,%s,%s,%llu", r->a.bytes ? r->a.bytes : "", r->b.bytes ? r->b.bytes : "",
	        r->d_bytes ? r->d_bytes : "", (unsigned long long)r->class_changed);
	if (r->has_time)
		fprintf(out, ",%lld,%lld,%lld,%lld,%lld,%lld\n", (long long)r->a.kernel_ns,
		        (long long)r->b.kernel_ns, (long long)r->d_time_ns, (long long)r->d_work_ns,
		        (long long)r->d_rate_ns, (long long)r->d_unsplit_ns);
	else
		fputs(",,,,,,\n", out);
}

static void write_csv(FILE *out, const tlc_diff *d)
{
	fputs("key,match,phase,module_a,module_b,shapes_a,shapes_b,count_a,count_b,d_count,"
	      "unknown_a,unknown_b,d_unknown,macs_a,macs_b,d_macs,other_flops_a,other_flops_b,"
	      "d_other_flops,flops_a,flops_b,d_flops,bytes_a,bytes_b,d_bytes,class_changed,"
	      "kernel_ns_a,kernel_ns_b,d_kernel_ns,d_work_ns,d_rate_ns,d_unsplit_ns\n", out);
	for (size_t i = 0; i < tlc_diff_row_count(d); i++)
		csv_row(out, tlc_diff_row_at(d, i), d->opts.by == TLC_DIFF_BY_GROUP);
}

int tlc_write_diff(FILE *out, const tlc_diff *d, tlc_format fmt)
{
	if (!out || !d)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream and a diff",
		                      "tlc_write_diff called with NULL");
	if (fmt == TLC_FORMAT_JSON)
		return write_json(out, d);
	FILE *t = tlc_textw__open(out);
	if (!t)
		return TLC_ENOMEM;
	if (fmt == TLC_FORMAT_CSV)
		write_csv(t, d);
	else
		write_text(t, d);
	return tlc_textw__close(t, out, 0);
}
