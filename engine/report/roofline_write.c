/* Writers of the roofline report: text, JSON, CSV. Every verdict is
 * printed as a hypothesis: the traffic is the read-once/write-once ideal. */
#include <stdlib.h>
#include <string.h>
#include "reports.h"
#include "textw.h"
#include "eval.h"

static void ceilings_line(FILE *out, const tlc_roofline *rl)
{
	const tlc_roofline_summary *s = tlc_roofline_get_summary(rl);
	const tlc_device_preset *d = s->device;
	int used[TLC_PEAK_COUNT] = { 0 };
	for (size_t i = 0; i < tlc_roofline_row_count(rl); i++) {
		const tlc_roofline_row *r = tlc_roofline_row_at(rl, i);
		if (r->reason == TLC_ROOF_COVERED)
			used[r->peak_dtype] = 1;
	}
	char a[32], b[32];
	fprintf(out, "  ceilings (%s, dense): memory %sB/s\n", tlc_basis_name(d->basis),
	        tlc_rep__si(a, sizeof a, d->mem_bw));
	for (int k = 0; k < TLC_PEAK_COUNT; k++) {
		if (!used[k])
			continue;
		if (d->peak_flops[k] > 0)
			fprintf(out, "    %s peak %sFLOP/s, ridge %.1f FLOP/B\n",
			        tlc_peak_dtype_name((tlc_peak_dtype)k),
			        tlc_rep__si(b, sizeof b, d->peak_flops[k]), d->peak_flops[k] / d->mem_bw);
		else
			fprintf(out, "    %s: no peak quoted (no verdict for such ops)\n",
			        tlc_peak_dtype_name((tlc_peak_dtype)k));
	}
	fprintf(out, "  source: %s%s%s\n", d->source, *d->date ? ", " : "", d->date);
}

void tlc_rep__roofline_summary_text(FILE *out, const tlc_roofline *rl)
{
	const tlc_roofline_summary *s = tlc_roofline_get_summary(rl);
	const tlc_input_info *info = tlc_eval_info(tlc_roofline__eval(rl));
	fprintf(out, "device: %s [%s]\n", s->device->name, s->device->id);
	if (strcmp(s->device_from, "input") == 0)
		fprintf(out, "  preset matched from the input's device \"%s\"\n", info->device);
	else if (strcmp(s->device_from, "option") == 0)
		fputs("  preset chosen with --device\n", out);
	else
		fputs("  user-supplied ceilings (--peak-flops, --peak-bw)\n", out);
	ceilings_line(out, rl);
	fprintf(out, "ops listed: %llu\n  covered %llu, no_rule %llu, zero_logical_traffic %llu, "
	        "missing_shape_dtype %llu\n", (unsigned long long)s->rows,
	        (unsigned long long)s->by_reason[TLC_ROOF_COVERED],
	        (unsigned long long)s->by_reason[TLC_ROOF_NO_RULE],
	        (unsigned long long)s->by_reason[TLC_ROOF_ZERO_LOGICAL_TRAFFIC],
	        (unsigned long long)s->by_reason[TLC_ROOF_MISSING_SHAPE_DTYPE]);
	fprintf(out, "hypotheses: %llu memory_bound_hypothesis, %llu compute_bound_hypothesis\n",
	        (unsigned long long)s->memory_bound, (unsigned long long)s->compute_bound);
	fprintf(out, "  excluded from those counts: %llu cache-resident op%s (traffic <= %llu "
	        "bytes)", (unsigned long long)s->cache_resident_excluded,
	        s->cache_resident_excluded == 1 ? "" : "s", (unsigned long long)s->cache_bytes);
	if (s->no_peak)
		fprintf(out, ", %llu with no peak for their dtype", (unsigned long long)s->no_peak);
	fputc('\n', out);
	tlc_digits f = { 0 }, b = { 0 };
	if (s->aggregate_intensity >= 0)
		fprintf(out, "aggregate intensity = sum FLOPs / sum bytes over covered ops\n"
		        "  = %s / %s = %.3f FLOP/B\n", tlc_textw__group(&f, s->covered_flops),
		        tlc_textw__group(&b, s->covered_bytes), s->aggregate_intensity);
	else
		fputs("aggregate intensity: undefined (no covered op)\n", out);
	tlc_textw__digits_free(&f);
	tlc_textw__digits_free(&b);
}

static int by_flops_desc(const void *x, const void *y)
{
	const tlc_roofline_row *a = *(const tlc_roofline_row *const *)x;
	const tlc_roofline_row *b = *(const tlc_roofline_row *const *)y;
	double fa = a->op->cost ? tlc_cost_flops_double(a->op->cost) : -1;
	double fb = b->op->cost ? tlc_cost_flops_double(b->op->cost) : -1;
	if (fa != fb)
		return fa < fb ? 1 : -1;
	return (a->op->id > b->op->id) - (a->op->id < b->op->id);
}

static void text_row(FILE *out, const tlc_roofline_row *r)
{
	tlc_digits f = { 0 }, b = { 0 };
	fprintf(out, "%15s %15s %9.2f %-4s %-24s %-5s %s #%lld\n",
	        tlc_textw__group(&f, r->flops), tlc_textw__group(&b, r->bytes),
	        r->intensity, tlc_peak_dtype_name(r->peak_dtype), tlc_roof_verdict_name(r->verdict),
	        r->cache_resident ? "cache" : "", r->op->name, (long long)r->op->id);
	tlc_textw__digits_free(&f);
	tlc_textw__digits_free(&b);
}

static int write_text(FILE *out, const tlc_roofline *rl, size_t top)
{
	const tlc_allocator *a = tlc_eval__allocator(tlc_roofline__eval(rl));
	fputs("roofline HYPOTHESES from ideal traffic (every input read once, every output "
	      "written\nonce); verdicts are hypotheses, not measurements\n", out);
	tlc_rep__roofline_summary_text(out, rl);
	size_t n = tlc_roofline_row_count(rl), nc = 0;
	const tlc_roofline_row **v = tlc_alloc__calloc(a, n + 1, sizeof *v);
	if (!v)
		return tlc_error__oom();
	for (size_t i = 0; i < n; i++)
		if (tlc_roofline_row_at(rl, i)->reason == TLC_ROOF_COVERED)
			v[nc++] = tlc_roofline_row_at(rl, i);
	qsort(v, nc, sizeof *v, by_flops_desc);
	size_t shown = top && top < nc ? top : nc;
	fprintf(out, "covered ops by FLOPs (%zu of %zu):\n", shown, nc);
	fprintf(out, "%15s %15s %9s %-4s %-24s %-5s %s\n", "FLOPs", "bytes", "FLOP/B", "peak",
	        "verdict", "", "op");
	for (size_t i = 0; i < shown; i++)
		text_row(out, v[i]);
	if (shown < nc)
		fprintf(out, "(+ %zu more covered ops; --top 0 lists all)\n", nc - shown);
	fputs("cache = whole traffic fits the cache threshold: listed, not in the counts\n", out);
	tlc_alloc__free(a, v);
	tlc_rep__coverage_line(out, tlc_roofline__eval(rl));
	return 0;
}

static void json_summary(yajl_gen g, const tlc_roofline_summary *s)
{
	tlc_jsonw__key(g, "summary");
	yajl_gen_map_open(g);
	tlc_jsonw__kuint(g, "rows", s->rows);
	tlc_jsonw__key(g, "by_reason");
	yajl_gen_map_open(g);
	for (int k = 0; k < TLC_ROOF_REASON_COUNT; k++)
		tlc_jsonw__kuint(g, tlc_roof_reason_name((tlc_roof_reason)k), s->by_reason[k]);
	yajl_gen_map_close(g);
	tlc_jsonw__kuint(g, "memory_bound_hypothesis", s->memory_bound);
	tlc_jsonw__kuint(g, "compute_bound_hypothesis", s->compute_bound);
	tlc_jsonw__kuint(g, "cache_resident_excluded", s->cache_resident_excluded);
	tlc_jsonw__kuint(g, "no_peak", s->no_peak);
	tlc_jsonw__kuint(g, "cache_bytes", s->cache_bytes);
	tlc_jsonw__knum(g, "covered_flops", s->covered_flops);
	tlc_jsonw__knum(g, "covered_bytes", s->covered_bytes);
	if (s->aggregate_intensity >= 0)
		tlc_jsonw__kreal(g, "aggregate_intensity", s->aggregate_intensity);
	else
		tlc_jsonw__knull(g, "aggregate_intensity");
	tlc_jsonw__kbool(g, "lower_bound", s->lower_bound);
	yajl_gen_map_close(g);
}

static void json_row(yajl_gen g, const tlc_roofline_row *r)
{
	yajl_gen_map_open(g);
	tlc_jsonw__kint(g, "id", r->op->id);
	tlc_jsonw__kstr(g, "name", r->op->name);
	tlc_jsonw__kstr(g, "phase", tlc_phase_name(r->op->phase));
	tlc_jsonw__kstr(g, "module", r->op->module);
	tlc_jsonw__kstr(g, "reason", tlc_roof_reason_name(r->reason));
	tlc_jsonw__kstr(g, "verdict", r->verdict ? tlc_roof_verdict_name(r->verdict) : NULL);
	tlc_jsonw__kbool(g, "cache_resident", r->cache_resident);
	tlc_jsonw__kstr(g, "peak_dtype", tlc_peak_dtype_name(r->peak_dtype));
	tlc_jsonw__knum(g, "flops", r->flops);
	tlc_jsonw__knum(g, "bytes", r->bytes);
	if (r->reason == TLC_ROOF_COVERED)
		tlc_jsonw__kreal(g, "intensity", r->intensity);
	else
		tlc_jsonw__knull(g, "intensity");
	if (r->verdict)
		tlc_jsonw__kreal(g, "bound_flops_per_s", r->bound_flops_per_s);
	else
		tlc_jsonw__knull(g, "bound_flops_per_s");
	tlc_jsonw__kstr(g, "family", r->family);
	yajl_gen_map_close(g);
}

void tlc_rep__roofline_json_head(yajl_gen g, const tlc_roofline *rl)
{
	const tlc_roofline_summary *s = tlc_roofline_get_summary(rl);
	tlc_jsonw__kbool(g, "hypothesis", 1);
	tlc_jsonw__kstr(g, "traffic", "ideal: every input read once, every output written once");
	tlc_jsonw__key(g, "device");
	tlc_rep__device_json(g, s->device);
	tlc_jsonw__kstr(g, "device_from", s->device_from);
	json_summary(g, s);
}

static int write_json(FILE *out, const tlc_roofline *rl)
{
	yajl_gen g = tlc_jsonw__new(out);
	if (!g)
		return tlc_error__oom();
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", "tlcost.roofline/2");
	tlc_jsonw__kstr(g, "report", "roofline");
	tlc_rep__roofline_json_head(g, rl);
	tlc_jsonw__key(g, "rows");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < tlc_roofline_row_count(rl); i++)
		json_row(g, tlc_roofline_row_at(rl, i));
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	return tlc_jsonw__end(g, out);
}

static void write_csv(FILE *out, const tlc_roofline *rl)
{
	fputs("id,name,overload,phase,module,class,reason,verdict,cache_resident,peak_dtype,flops,"
	      "bytes,intensity,bound_flops_per_s,family\n", out);
	for (size_t i = 0; i < tlc_roofline_row_count(rl); i++) {
		const tlc_roofline_row *r = tlc_roofline_row_at(rl, i);
		fprintf(out, "%lld,", (long long)r->op->id);
		tlc_textw__csv(out, r->op->name, 0);
		fputc(',', out);
		tlc_textw__csv(out, r->op->overload, 0);
		fprintf(out, ",%s,", tlc_phase_name(r->op->phase));
		tlc_textw__csv(out, r->op->module, 0);
		fprintf(out, ",%s,%s,%s,%d,%s,%s,%s,", tlc_class_name(r->op->cls),
		        tlc_roof_reason_name(r->reason), r->verdict ? tlc_roof_verdict_name(r->verdict)
		                                                    : "",
		        r->cache_resident, tlc_peak_dtype_name(r->peak_dtype), r->flops ? r->flops : "",
		        r->bytes ? r->bytes : "");
		if (r->reason == TLC_ROOF_COVERED)
			fprintf(out, "%.17g", r->intensity);
		fputc(',', out);
		if (r->verdict)
			fprintf(out, "%.6g", r->bound_flops_per_s);
		fprintf(out, ",%s\n", r->family);
	}
}

int tlc_write_roofline(FILE *out, const tlc_roofline *rl, tlc_format fmt, size_t top)
{
	if (!out || !rl)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream and a roofline",
		                      "tlc_write_roofline called with NULL");
	int rc = 0;
	if (fmt == TLC_FORMAT_JSON)
		return write_json(out, rl);
	FILE *t = tlc_textw__open(out);
	if (!t)
		return TLC_ENOMEM;
	if (fmt == TLC_FORMAT_CSV)
		write_csv(t, rl);
	else
		rc = write_text(t, rl, top);
	return tlc_textw__close(t, out, rc);
}
