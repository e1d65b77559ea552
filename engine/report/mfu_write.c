/* Writers of the MFU report. Wording rule: no "achieved FLOP/s", no
 * "throughput": MFU is counted FLOPs over peak, divided by step time. */
#include <string.h>
#include "reports.h"
#include "textw.h"

/* Why the summary has no 6ND comparator (has_6nd is 0). */
static const char *six_nd_unavailable(const tlc_mfu_summary *r)
{
	if (r->params <= 0 || r->tokens <= 0)
		return "unavailable (give --params and --tokens, or record them in the op log header)";
	if (!r->phase[TLC_PHASE_BACKWARD].present)
		return "not applicable: the input has no backward FLOPs (a forward-only step); 6ND "
		       "approximates a training step's forward and backward FLOPs";
	return "not applicable: the input has no forward FLOPs; 6ND approximates a training "
	       "step's forward and backward FLOPs";
}

static void write_text(FILE *out, const tlc_mfu_summary *r)
{
	tlc_digits a = { 0 }, c = { 0 };
	char b[32];
	fputs("MFU = (sum over phases of FLOPs / peak FLOP/s of the phase's dtype) / step "
	      "seconds\n", out);
	fprintf(out, "device: %s [%s] (%s, dense; %s%s%s)\n", r->device->name, r->device->id,
	        tlc_basis_name(r->device->basis), r->device->source, *r->device->date ? ", " : "",
	        r->device->date);
	fprintf(out, "step seconds (uninstrumented end-to-end step wall time): %.6g\n",
	        r->step_seconds);
	fprintf(out, "  %-9s %24s %5s %12s %14s\n", "phase", "FLOPs (fma=2, exact)", "dtype",
	        "peak FLOP/s", "FLOPs / peak");
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		const tlc_mfu_phase *ph = &r->phase[p];
		if (!ph->present)
			continue;
		fprintf(out, "  %-9s %24s %5s %12s %12.6g s\n", tlc_phase_name((tlc_phase)p),
		        tlc_textw__group(&a, ph->flops), tlc_peak_dtype_name(ph->dtype),
		        tlc_rep__si(b, sizeof b, ph->peak_flops), ph->ideal_seconds);
	}
	fprintf(out, "MFU: %.4f (%.2f%%)%s\n", r->mfu, 100 * r->mfu,
	        r->lower_bound ? " -- a LOWER BOUND: some ops have no cost (see `tlcost ledger`)"
	                       : "");
	if (r->exceeds_one)
		fputs("warning: mfu_exceeds_one: MFU is above 1: the step time is too short for the "
		      "counted FLOPs at these peaks; check --step-seconds (uninstrumented, whole step) "
		      "and the device/dtype\n", out);
	if (r->has_6nd)
		fprintf(out, "6ND comparator: 6 x N %lld x D %lld = %s FLOPs; counted forward+backward "
		        "= %s (%.3f x 6ND)\n", (long long)r->params, (long long)r->tokens,
		        tlc_textw__group(&a, r->six_nd),
		        tlc_textw__group(&c, r->counted_fwd_bwd), r->ratio_6nd);
	else
		fprintf(out, "6ND comparator: %s\n", six_nd_unavailable(r));
	tlc_textw__digits_free(&a);
	tlc_textw__digits_free(&c);
}

static void json_phases(yajl_gen g, const tlc_mfu_result *r)
{
	tlc_jsonw__key(g, "phases");
	yajl_gen_array_open(g);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		const tlc_mfu_phase *ph = &r->phase[p];
		if (!ph->present)
			continue;
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "phase", tlc_phase_name((tlc_phase)p));
		tlc_jsonw__knum(g, "flops", ph->flops);
		tlc_jsonw__kstr(g, "dtype", tlc_peak_dtype_name(ph->dtype));
		tlc_jsonw__kreal(g, "peak_flops_per_s", ph->peak_flops);
		tlc_jsonw__kreal(g, "flops_over_peak_s", ph->ideal_seconds);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static int write_json(FILE *out, const tlc_mfu_result *r)
{
	yajl_gen g = tlc_jsonw__new(out);
	if (!g)
		return tlc_error__oom();
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", "tlcost.mfu/3");
	tlc_jsonw__kstr(g, "report", "mfu");
	tlc_jsonw__key(g, "device");
	tlc_rep__device_json(g, r->device);
	tlc_jsonw__kstr(g, "device_from", r->device_from);
	tlc_jsonw__kstr(g, "denominator", "step_seconds");
	tlc_jsonw__kreal(g, "step_seconds", r->step_seconds);
	json_phases(g, r);
	tlc_jsonw__kreal(g, "mfu", r->mfu);
	tlc_jsonw__kbool(g, "lower_bound", r->lower_bound);
	tlc_jsonw__key(g, "warnings");
	yajl_gen_array_open(g);
	if (r->exceeds_one)
		tlc_jsonw__str(g, "mfu_exceeds_one");
	yajl_gen_array_close(g);
	tlc_jsonw__key(g, "six_nd");
	if (r->has_6nd) {
		yajl_gen_map_open(g);
		tlc_jsonw__kint(g, "params", r->params);
		tlc_jsonw__kint(g, "tokens", r->tokens);
		tlc_jsonw__knum(g, "six_nd_flops", r->six_nd);
		tlc_jsonw__knum(g, "counted_forward_backward_flops", r->counted_fwd_bwd);
		tlc_jsonw__kreal(g, "ratio", r->ratio_6nd);
		yajl_gen_map_close(g);
	} else {
		yajl_gen_null(g);
	}
	tlc_jsonw__key(g, "six_nd_unavailable");
	if (r->has_6nd)
		yajl_gen_null(g);
	else
		tlc_jsonw__str(g, six_nd_unavailable(r));
	yajl_gen_map_close(g);
	return tlc_jsonw__end(g, out);
}

static void write_csv(FILE *out, const tlc_mfu_summary *r)
{
	fputs("phase,flops,dtype,peak_flops_per_s,flops_over_peak_s,step_seconds,mfu\n", out);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		const tlc_mfu_phase *ph = &r->phase[p];
		if (ph->present)
			fprintf(out, "%s,%s,%s,%.6g,%.9g,%.9g,%.9g\n", tlc_phase_name((tlc_phase)p),
			        ph->flops, tlc_peak_dtype_name(ph->dtype), ph->peak_flops,
			        ph->ideal_seconds, r->step_seconds, r->mfu);
	}
}

int tlc_write_mfu(FILE *out, const tlc_mfu *m, tlc_format fmt)
{
	if (!out || !m)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream and an MFU result",
		                      "tlc_write_mfu called with NULL");
	const tlc_mfu_summary *r = tlc_mfu_get_summary(m);
	if (fmt == TLC_FORMAT_JSON)
		return write_json(out, r);
	FILE *t = tlc_textw__open(out);
	if (!t)
		return TLC_ENOMEM;
	if (fmt == TLC_FORMAT_CSV)
		write_csv(t, r);
	else
		write_text(t, r);
	return tlc_textw__close(t, out, 0);
}
