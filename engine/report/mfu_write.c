/* Writers of the MFU report. Wording rule: no "achieved FLOP/s", no
 * "throughput": MFU is counted FLOPs over peak, divided by step time. */
#include <string.h>
#include "reports.h"
#include "textw.h"

static void write_text(FILE *out, const tlc_mfu_result *r)
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
		fputs("6ND comparator: unavailable (give --params and --tokens, or record them in "
		      "the op log header)\n", out);
	tlc_textw__digits_free(&a);
	tlc_textw__digits_free(&c);
}

static void write_json(FILE *out, const tlc_mfu_result *r)
{
	fputs("{\"schema\":\"tlcost.mfu/1\",\"report\":\"mfu\",\"device\":", out);
	tlc_rep__device_json(out, r->device);
	fprintf(out, ",\"device_from\":\"%s\",\"denominator\":\"step_seconds\",\"step_seconds\":",
	        r->device_from);
	tlc_rep__json_num(out, r->step_seconds);
	fputs(",\"phases\":[", out);
	int first = 1;
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		const tlc_mfu_phase *ph = &r->phase[p];
		if (!ph->present)
			continue;
		fprintf(out, "%s{\"phase\":\"%s\",\"flops\":\"%s\",\"dtype\":\"%s\",\"peak_flops_per_s\":",
		        first ? "" : ",", tlc_phase_name((tlc_phase)p), ph->flops,
		        tlc_peak_dtype_name(ph->dtype));
		tlc_rep__json_num(out, ph->peak_flops);
		fputs(",\"flops_over_peak_s\":", out);
		tlc_rep__json_num(out, ph->ideal_seconds);
		fputc('}', out);
		first = 0;
	}
	fputs("],\"mfu\":", out);
	tlc_rep__json_num(out, r->mfu);
	fprintf(out, ",\"lower_bound\":%s,\"warnings\":[%s],\"six_nd\":", r->lower_bound ? "true"
	        : "false", r->exceeds_one ? "\"mfu_exceeds_one\"" : "");
	if (r->has_6nd) {
		fprintf(out, "{\"params\":%lld,\"tokens\":%lld,\"six_nd_flops\":\"%s\","
		        "\"counted_forward_backward_flops\":\"%s\",\"ratio\":", (long long)r->params,
		        (long long)r->tokens, r->six_nd, r->counted_fwd_bwd);
		tlc_rep__json_num(out, r->ratio_6nd);
		fputc('}', out);
	} else {
		fputs("null", out);
	}
	fputs("}\n", out);
}

static void write_csv(FILE *out, const tlc_mfu_result *r)
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
	const tlc_mfu_result *r = tlc_mfu_get_result(m);
	if (fmt == TLC_FORMAT_JSON) {
		write_json(out, r);
		return tlc_textw__finish(out, 0);
	}
	FILE *t = tlc_textw__open(out);
	if (!t)
		return TLC_ENOMEM;
	if (fmt == TLC_FORMAT_CSV)
		write_csv(t, r);
	else
		write_text(t, r);
	return tlc_textw__close(t, out, 0);
}
