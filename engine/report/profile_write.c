/* Writers of the profile tables. Host times are always labelled
 * `time (instrumented)`; device-time columns appear only when a join
 * filled them, and a row without device time shows it absent, never 0. */
#include <stdlib.h>
#include <string.h>
#include "reports.h"
#include "textw.h"

static const char *by_name(tlc_profile_by b)
{
	return b == TLC_PROFILE_BY_TYPE ? "type" : b == TLC_PROFILE_BY_MODULE ? "module"
	     : b == TLC_PROFILE_BY_ARGS ? "args" : "op";
}

static void text_pct(FILE *out, double share)
{
	if (share >= 0)
		fprintf(out, " %6.1f", share * 100);
	else
		fprintf(out, " %6s", "-");
}

/* Attributed kernel utilization columns (tlc_profile_build_util). */
static void text_util(FILE *out, const tlc_profile_row *r)
{
	if (!r->has_util) {
		fprintf(out, " %8s %6s %7s %6s %1s %9s", "-", "-", "-", "-", r->util_note ? "?" : "", "-");
		return;
	}
	fprintf(out, " %8.2f", r->flops_per_s / 1e12);
	text_pct(out, r->peak_share);
	if (r->bytes_per_s >= 0)
		fprintf(out, " %7.3f", r->bytes_per_s / 1e12);
	else
		fprintf(out, " %7s", "-");
	text_pct(out, r->bw_share);
	fprintf(out, " %1s", r->peak_share > 1 || r->bw_share > 1 ? "!" : "");
	if (r->recoverable_ns >= 0)
		fprintf(out, " %9.3f", r->recoverable_ns / 1e6);
	else
		fprintf(out, " %9s", "-");
}

static const char *sort_name(tlc_profile_sort s)
{
	static const char *const n[] = { "flops", "bytes", "intensity", "time", "count", "headroom" };
	return (unsigned)s < 6 ? n[s] : "flops";
}

static const char *phase_label(int phase)
{
	return phase < 0 ? "all phases" : tlc_phase_name((tlc_phase)phase);
}

static void text_key(FILE *out, const tlc_profile_row *r)
{
	fputs(r->key, out);
	if (r->op)
		fprintf(out, " #%lld %s @%s", (long long)r->op->id, tlc_phase_name(r->op->phase),
		        r->op->module && *r->op->module ? r->op->module : "(root)");
}

static int has_costed(const tlc_profile *p)
{
	tlc_profile_rollup ro = TLC_PROFILE_ROLLUP_INIT;
	return tlc_profile_rollup_get(p, &ro) == 0 && ro.present;
}

static void text_row(FILE *out, const tlc_profile_row *r, int time, int dev, int costed,
                     int util)
{
	tlc_digits fd = { 0 }, b = { 0 };
	char t[32];
	snprintf(t, sizeof t, "%.3f ms", (double)r->time_ns / 1e6);
	/* ">=" marks a lower bound: some ops of the row have no cost */
	const char *f = r->flops ? tlc_textw__group(&fd, r->flops) : "unknown";
	const char *ge = r->flops && r->unknown ? ">=" : "";
	int pad = 15 - (int)(strlen(ge) + strlen(f));
	fprintf(out, "%*s%s%s %15s ", pad > 0 ? pad : 0, "", ge, f,
	        r->bytes ? tlc_textw__group(&b, r->bytes) : "unknown");
	tlc_textw__digits_free(&fd);
	tlc_textw__digits_free(&b);
	if (r->intensity >= 0)
		fprintf(out, "%7.2f", r->intensity);
	else
		fprintf(out, "%7s", "-");
	fprintf(out, " %6llu %4llu", (unsigned long long)r->count, (unsigned long long)r->unknown);
	if (time)
		fprintf(out, " %19s", r->has_time ? t : "absent");
	if (dev && r->has_device_time)
		fprintf(out, " %10.3f %10.3f", (double)r->device_time_ns / 1e6,
		        (double)r->kernel_time_ns / 1e6);
	else if (dev)
		fprintf(out, " %10s %10s", "absent", "absent");
	if (costed)
		fprintf(out, " %12.3f", (double)r->costed_kernel_ns / 1e6);
	if (util)
		text_util(out, r);
	fputs("  ", out);
	text_key(out, r);
	fputc('\n', out);
}

/* The roll-up's conservation, exact integer ns: every attributed or
 * ambiguous kernel ns of the join is in one row or on a row that is not a
 * costed op. */
static void text_rollup(FILE *out, const tlc_profile *p)
{
	tlc_profile_rollup ro = TLC_PROFILE_ROLLUP_INIT;
	if (tlc_profile_rollup_get(p, &ro) < 0 || !ro.present)
		return;
	fputs("costed kernel ms: the kernel time whose costed row (the op whose rule carries the\n"
	      "cost: the op itself or the counted op enclosing it) is in the row, beside its FLOPs\n"
	      "and bytes; an ambiguous group's time stays on its group row, never split\n", out);
	fprintf(out, "costed kernel time: rows %lld ns (of them %lld ns in hidden rows, %lld ns in "
	        "ambiguous groups) + not a costed op %lld ns", (long long)ro.rows_ns,
	        (long long)ro.hidden_ns, (long long)ro.ambiguous_ns, (long long)ro.not_op_ns);
	if (ro.joined_ns >= 0)
		fprintf(out, " = %lld ns attributed + ambiguous by the join%s", (long long)ro.joined_ns,
		        ro.rows_ns + ro.not_op_ns == ro.joined_ns ? "" : " (MISMATCH)");
	fputc('\n', out);
}

static void write_text(FILE *out, const tlc_profile *p)
{
	const tlc_profile_options *o = tlc_profile__options(p);
	int time = tlc_profile__any_time(p), dev = tlc_profile__any_device_time(p);
	int costed = has_costed(p), util = tlc_profile__util(p);
	fprintf(out, "profile by %s, %s, sorted by %s (actual-path analytic, fma=2; bytes = ideal "
	        "traffic)\n", by_name(o->by), phase_label(o->phase), sort_name(o->sort));
	fprintf(out, "%15s %15s %7s %6s %4s", "FLOPs", "bytes", "FLOP/B", "count", "unk");
	if (time)
		fprintf(out, " %19s", "time (instrumented)");
	if (dev)
		fprintf(out, " %10s %10s", "device ms", "kernel ms");
	if (costed)
		fprintf(out, " %12s", "costed krn ms");
	if (util)
		fprintf(out, " %8s %6s %7s %6s %1s %9s", "TFLOP/s", "%peak", "TB/s", "%bw", "", "recov ms");
	fprintf(out, "  %s\n", o->by == TLC_PROFILE_BY_MODULE ? "module" : "op");
	for (size_t i = 0; i < tlc_profile_row_count(p); i++)
		text_row(out, tlc_profile_row_at(p, i), time, dev, costed, util);
	if (tlc_profile_hidden_rows(p))
		fprintf(out, "(+ %zu more rows; --top 0 shows all)\n", tlc_profile_hidden_rows(p));
	if (time)
		fputs("time (instrumented): host time under capture, hotspot guidance, not a "
		      "benchmark\n", out);
	if (dev)
		fputs("device/kernel ms come from the device-time join: launches each op made itself\n"
		      "(the innermost op at the launch; a counted op's children keep theirs, see\n"
		      "`tlcost join`); absent = no attributed time\n", out);
	text_rollup(out, p);
	if (util)
		fputs("TFLOP/s, TB/s: ATTRIBUTED KERNEL UTILIZATION (not measured FLOPs, not MFU): the\n"
		      "row's exact FLOPs and ideal bytes over its costed kernel time, only where the\n"
		      "join passed its gate for the row's phases; %peak of the device's dense peak for\n"
		      "the row's dtype, %bw of its memory bandwidth; ! = above 100%: less kernel time\n"
		      "than the work needs at peak (a kernel serving several ops, a fused launch,\n"
		      "traffic below ideal); ? = not computed (--format json gives why)\n"
		      "recov ms: recoverable time, a HYPOTHESIS: costed kernel time minus the time at\n"
		      "the roof with ideal traffic, max(FLOPs/peak, bytes/bandwidth); an upper bound\n"
		      "on what a fix could save (--sort headroom ranks by it: look at the top first)\n", out);
	if (util) {
		const tlc_rep_ceil *c = tlc_profile__ceil(p);
		fprintf(out, "device: %s (%s, %s; from %s)\n", c->dev.id ? c->dev.id : "(user ceilings)",
		        c->dev.name ? c->dev.name : "user ceilings", tlc_basis_name(c->dev.basis), c->from);
	}
	fputs("unk = unknown-cost calls: FLOPs of such rows are a lower bound (>=) or unknown;\n"
	      "FLOP/B '-' = bytes unknown or 0\n", out);
	tlc_rep__coverage_line(out, tlc_profile__eval(p));
}

static void json_row(yajl_gen g, const tlc_profile_row *r, int time, int dev, int costed,
                     int util)
{
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "key", r->key);
	if (r->op) {
		tlc_jsonw__kint(g, "id", r->op->id);
		tlc_jsonw__kstr(g, "phase", tlc_phase_name(r->op->phase));
		tlc_jsonw__kstr(g, "module", r->op->module);
		tlc_jsonw__kstr(g, "class", tlc_class_name(r->op->cls));
	}
	tlc_jsonw__kuint(g, "count", r->count);
	tlc_jsonw__kuint(g, "unknown", r->unknown);
	tlc_jsonw__knum(g, "flops", r->flops);
	tlc_jsonw__knum(g, "bytes", r->bytes);
	if (r->intensity >= 0)
		tlc_jsonw__kreal(g, "intensity", r->intensity);
	else
		tlc_jsonw__knull(g, "intensity");
	if (time && r->has_time)
		tlc_jsonw__kint(g, "time_instrumented_ns", r->time_ns);
	if (dev && r->has_device_time) {
		tlc_jsonw__kint(g, "device_time_ns", r->device_time_ns);
		tlc_jsonw__kint(g, "kernel_time_ns", r->kernel_time_ns);
	}
	if (dev && r->op && (r->op->row_flags & TLC_ROW_HAS_DEVICE_TIME))
		tlc_jsonw__kstr(g, "attribution_status", tlc_attribution_name(r->op->attribution));
	if (util) {
		tlc_jsonw__key(g, "attributed_kernel_utilization");
		yajl_gen_map_open(g);
		if (r->has_util) {
			tlc_jsonw__kreal(g, "flop_per_s", r->flops_per_s);
			if (r->bytes_per_s >= 0)
				tlc_jsonw__kreal(g, "byte_per_s", r->bytes_per_s);
			else
				tlc_jsonw__knull(g, "byte_per_s");
			if (r->peak_share >= 0)
				tlc_jsonw__kreal(g, "peak_share", r->peak_share);
			else
				tlc_jsonw__knull(g, "peak_share");
			if (r->bw_share >= 0)
				tlc_jsonw__kreal(g, "bandwidth_share", r->bw_share);
			else
				tlc_jsonw__knull(g, "bandwidth_share");
			if (r->peak_dtype)
				tlc_jsonw__kstr(g, "peak_dtype", r->peak_dtype);
			else
				tlc_jsonw__knull(g, "peak_dtype");
			tlc_jsonw__kbool(g, "above_100", r->peak_share > 1 || r->bw_share > 1);
			if (r->recoverable_ns >= 0)
				tlc_jsonw__kreal(g, "recoverable_ns_hypothesis", r->recoverable_ns);
			else
				tlc_jsonw__knull(g, "recoverable_ns_hypothesis");
		}
		if (r->util_note)
			tlc_jsonw__kstr(g, "note", r->util_note);
		yajl_gen_map_close(g);
	}
	if (costed) {
		tlc_jsonw__kint(g, "costed_device_ns", r->costed_device_ns);
		tlc_jsonw__kint(g, "costed_kernel_ns", r->costed_kernel_ns);
		if (r->group >= 0)
			tlc_jsonw__kint(g, "ambiguous_group", r->group);
	}
	yajl_gen_map_close(g);
}

static int write_json(FILE *out, const tlc_profile *p)
{
	const tlc_profile_options *o = tlc_profile__options(p);
	int time = tlc_profile__any_time(p), dev = tlc_profile__any_device_time(p);
	int costed = has_costed(p), util = tlc_profile__util(p);
	yajl_gen g = tlc_jsonw__new(out);
	if (!g)
		return tlc_error__oom();
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", "tlcost.profile/3");
	tlc_jsonw__kstr(g, "report", "profile");
	tlc_jsonw__kstr(g, "by", by_name(o->by));
	tlc_jsonw__kstr(g, "sort", sort_name(o->sort));
	tlc_jsonw__kstr(g, "phase", o->phase < 0 ? "all" : tlc_phase_name((tlc_phase)o->phase));
	tlc_jsonw__kstr(g, "convention", "fma=2");
	tlc_jsonw__kbool(g, "lower_bound", tlc_eval_is_lower_bound(tlc_profile__eval(p)));
	tlc_jsonw__kuint(g, "hidden_rows", tlc_profile_hidden_rows(p));
	tlc_jsonw__kstr(g, "time_label", "time (instrumented)");
	if (costed) {
		tlc_profile_rollup ro = TLC_PROFILE_ROLLUP_INIT;
		tlc_profile_rollup_get(p, &ro);
		tlc_jsonw__key(g, "costed_rollup");
		yajl_gen_map_open(g);
		tlc_jsonw__kint(g, "rows_ns", ro.rows_ns);
		tlc_jsonw__kint(g, "hidden_ns", ro.hidden_ns);
		tlc_jsonw__kint(g, "ambiguous_ns", ro.ambiguous_ns);
		tlc_jsonw__kint(g, "not_op_ns", ro.not_op_ns);
		if (ro.joined_ns >= 0)
			tlc_jsonw__kint(g, "joined_ns", ro.joined_ns);
		else
			tlc_jsonw__knull(g, "joined_ns");
		yajl_gen_map_close(g);
	}
	tlc_jsonw__key(g, "rows");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < tlc_profile_row_count(p); i++)
		json_row(g, tlc_profile_row_at(p, i), time, dev, costed, util);
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	return tlc_jsonw__end(g, out);
}

static void csv_row(FILE *out, const tlc_profile_row *r, int time, int dev, int costed)
{
	tlc_textw__csv(out, r->key, 0);
	if (r->op) {
		fprintf(out, ",%lld,%s,", (long long)r->op->id, tlc_phase_name(r->op->phase));
		tlc_textw__csv(out, r->op->module, 0);
		fprintf(out, ",%s", tlc_class_name(r->op->cls));
	} else {
		fputs(",,,,", out);
	}
	fprintf(out, ",%llu,%llu,%s,%s,", (unsigned long long)r->count,
	        (unsigned long long)r->unknown, r->flops ? r->flops : "", r->bytes ? r->bytes : "");
	if (r->intensity >= 0)
		fprintf(out, "%.6g", r->intensity);
	if (time) {
		fputc(',', out);
		if (r->has_time)
			fprintf(out, "%lld", (long long)r->time_ns);
	}
	if (dev) {
		if (r->has_device_time)
			fprintf(out, ",%lld,%lld", (long long)r->device_time_ns,
			        (long long)r->kernel_time_ns);
		else
			fputs(",,", out);
		fputc(',', out);
		if (r->op && (r->op->row_flags & TLC_ROW_HAS_DEVICE_TIME))
			fputs(tlc_attribution_name(r->op->attribution), out);
	}
	if (costed)
		fprintf(out, ",%lld,%lld", (long long)r->costed_device_ns, (long long)r->costed_kernel_ns);
	fputc('\n', out);
}

/* "[8,16]f32,[16,4]f32" -> dims "(8,16);(16,4)" and types "f32;f32". */
static void csv_shapes(FILE *out, const char *shapes)
{
	char dims[1024], types[512];
	size_t nd = 0, nt = 0;
	const char *s = shapes ? shapes : "";
	while (*s && nd + 4 < sizeof dims && nt + 4 < sizeof types) {
		if (*s == ',' || *s == ' ') {
			s++;
			continue;
		}
		if (nd)
			dims[nd++] = ';';
		if (nt)
			types[nt++] = ';';
		if (*s == '[') {
			dims[nd++] = '(';
			for (s++; *s && *s != ']' && nd + 2 < sizeof dims; s++)
				dims[nd++] = *s;
			dims[nd++] = ')';
			if (*s == ']')
				s++;
		}
		for (; *s && *s != ',' && nt + 2 < sizeof types; s++)
			types[nt++] = *s;
	}
	dims[nd] = types[nt] = '\0';
	fputc(',', out);
	tlc_textw__csv(out, dims, 0);
	fputc(',', out);
	tlc_textw__csv(out, types, 0);
}

/* The unique-args table with TraceLens's column names where they mean the
 * same (ops_unique_args.csv, GEMM.csv): one row per group. */
static void write_util_csv(FILE *out, const tlc_profile *p)
{
	int args = tlc_profile__options(p)->by == TLC_PROFILE_BY_ARGS;
	fputs("name", out);
	if (args)
		fputs(",Input Dims,Input type", out);
	fputs(",operation_count,GFLOPS,Data Moved (MB),FLOPS/Byte,Kernel Time (\xc2\xb5s)_sum,"
	      "TFLOPS/s,TB/s,peak_dtype,pct_of_peak,pct_of_bw,flops,bytes,costed_kernel_ns,"
	      "recoverable_ns_hypothesis,note\n", out);
	for (size_t i = 0; i < tlc_profile_row_count(p); i++) {
		const tlc_profile_row *r = tlc_profile_row_at(p, i);
		char name[512];
		snprintf(name, sizeof name, "%s", r->key);
		if (args && r->group < 0) { /* the key is "name shapes" */
			char *sp = strchr(name, ' ');
			if (sp)
				*sp = '\0';
		}
		tlc_textw__csv(out, name, 0);
		if (args)
			csv_shapes(out, r->group < 0 && r->op ? r->op->shapes
			                : r->group < 0 ? strchr(r->key, ' ') ? strchr(r->key, ' ') + 1 : ""
			                : "");
		fprintf(out, ",%llu,", (unsigned long long)r->count);
		if (r->flops)
			fprintf(out, "%.9g", atof(r->flops) / 1e9);
		fputc(',', out);
		if (r->bytes)
			fprintf(out, "%.9g", atof(r->bytes) / 1e6);
		fputc(',', out);
		if (r->intensity >= 0)
			fprintf(out, "%.9g", r->intensity);
		fprintf(out, ",%.3f,", (double)r->costed_kernel_ns / 1e3);
		if (r->has_util)
			fprintf(out, "%.9g", r->flops_per_s / 1e12);
		fputc(',', out);
		if (r->has_util && r->bytes_per_s >= 0)
			fprintf(out, "%.9g", r->bytes_per_s / 1e12);
		fprintf(out, ",%s,", r->has_util && r->peak_dtype ? r->peak_dtype : "");
		if (r->has_util && r->peak_share >= 0)
			fprintf(out, "%.4f", r->peak_share * 100);
		fputc(',', out);
		if (r->has_util && r->bw_share >= 0)
			fprintf(out, "%.4f", r->bw_share * 100);
		fprintf(out, ",%s,%s,%lld,", r->flops ? r->flops : "", r->bytes ? r->bytes : "",
		        (long long)r->costed_kernel_ns);
		if (r->has_util && r->recoverable_ns >= 0)
			fprintf(out, "%.0f", r->recoverable_ns);
		fputc(',', out);
		tlc_textw__csv(out, r->util_note ? r->util_note : "", 0);
		fputc('\n', out);
	}
}

static void write_csv(FILE *out, const tlc_profile *p)
{
	if (tlc_profile__util(p)) {
		write_util_csv(out, p);
		return;
	}
	int time = tlc_profile__any_time(p), dev = tlc_profile__any_device_time(p);
	int costed = has_costed(p);
	fputs("key,id,phase,module,class,count,unknown,flops,bytes,intensity", out);
	if (time)
		fputs(",time_instrumented_ns", out);
	if (dev)
		fputs(",device_time_ns,kernel_time_ns,attribution_status", out);
	if (costed)
		fputs(",costed_device_ns,costed_kernel_ns", out);
	fputc('\n', out);
	for (size_t i = 0; i < tlc_profile_row_count(p); i++)
		csv_row(out, tlc_profile_row_at(p, i), time, dev, costed);
}

int tlc_write_profile(FILE *out, const tlc_profile *prof, tlc_format fmt)
{
	if (!out || !prof)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream and a profile",
		                      "tlc_write_profile called with NULL");
	if (fmt == TLC_FORMAT_JSON)
		return write_json(out, prof);
	FILE *t = tlc_textw__open(out);
	if (!t)
		return TLC_ENOMEM;
	if (fmt == TLC_FORMAT_CSV)
		write_csv(t, prof);
	else
		write_text(t, prof);
	return tlc_textw__close(t, out, 0);
}
