/* Roofline (contract section 6): per-op intensity from ideal traffic,
 * reasons, memory/compute-bound hypotheses against a device's ceilings,
 * cache-resident exclusion, aggregate intensity as sum over sum. */
#include <string.h>
#include "reports.h"
#include "eval.h"
#include "join.h"
#include "overlay.h"

/* public arrays have a fixed capacity so the layout stays when the enum grows */
_Static_assert(TLC_ROOF_REASON_COUNT <= TLC_ROOF_REASON_SLOTS, "TLC_ROOF_REASON_SLOTS too small for TLC_ROOF_REASON_COUNT");

struct tlc_roofline {
	const tlc_allocator *a;
	const tlc_eval *ev;
	tlc_roofline_options opts;
	tlc_rep_ceil ceil;
	tlc_arena ar;
	tlc_roofline_row *rows;
	size_t n, cap;
	tlc_roofline_summary sum;
	tlc_count cov_flops, cov_bytes;
	tlc_peak_dtype phase_dtype[TLC_PHASE_COUNT];
	const tlc_join *join;    /* given beside the eval: measured points */
	int64_t *meas;           /* per row: costed kernel ns under a passed gate, or -1 */
	size_t mcap;
	int any_meas;
	int summary_only;        /* tlc_roofline__build_summary: no rows kept */
};

const char *tlc_roof_reason_name(tlc_roof_reason r)
{
	static const char *const n[] = { "covered", "no_rule", "zero_logical_traffic",
	                                 "missing_shape_dtype" };
	return (unsigned)r < TLC_ROOF_REASON_COUNT ? n[r] : "unknown";
}

const char *tlc_roof_verdict_name(tlc_roof_verdict v)
{
	return v == TLC_ROOF_MEMORY_BOUND_HYPOTHESIS ? "memory_bound_hypothesis"
	     : v == TLC_ROOF_COMPUTE_BOUND_HYPOTHESIS ? "compute_bound_hypothesis" : "none";
}

/* The ceiling dtype of a row: forced, else the op's own when the device
 * quotes a peak for it, else its phase's dominant dtype. */
static tlc_peak_dtype row_peak_dtype(const tlc_roofline *rl, const tlc_op_row *r)
{
	tlc_peak_dtype d;
	if (rl->ceil.dtype_forced >= 0)
		return (tlc_peak_dtype)rl->ceil.dtype_forced;
	if (tlc_peak_dtype_of(&d, r->dtype) == 0 && rl->ceil.dev.peak_flops[d] > 0)
		return d;
	return rl->phase_dtype[r->phase < TLC_PHASE_COUNT ? r->phase : 0];
}

static tlc_roof_reason classify(const tlc_op_row *r, tlc_count *bytes)
{
	if (r->cls == TLC_CLASS_UNKNOWN)
		return r->reason && strncmp(r->reason, "missing", 7) == 0
		       ? TLC_ROOF_MISSING_SHAPE_DTYPE : TLC_ROOF_NO_RULE;
	if (tlc_rep__add_bytes(bytes, r))
		return TLC_ROOF_MISSING_SHAPE_DTYPE;
	return tlc_count__is_zero(bytes) ? TLC_ROOF_ZERO_LOGICAL_TRAFFIC : TLC_ROOF_COVERED;
}

static void judge(tlc_roofline *rl, tlc_roofline_row *row, const tlc_count *flops,
                  const tlc_count *bytes)
{
	double f = tlc_count__to_double(flops), b = tlc_count__to_double(bytes);
	double peak = rl->ceil.dev.peak_flops[row->peak_dtype], bw = rl->ceil.dev.mem_bw;
	uint64_t b64;
	row->intensity = f / b;
	row->cache_resident = rl->sum.cache_bytes > 0 && tlc_count__get_u64(&b64, bytes) == 0 &&
	                      b64 <= rl->sum.cache_bytes;
	tlc_count__add(&rl->cov_flops, flops);
	tlc_count__add(&rl->cov_bytes, bytes);
	if (!(peak > 0)) {
		rl->sum.no_peak++;
		return;
	}
	row->bound_flops_per_s = bw * row->intensity < peak ? bw * row->intensity : peak;
	row->verdict = row->intensity < peak / bw ? TLC_ROOF_MEMORY_BOUND_HYPOTHESIS
	                                          : TLC_ROOF_COMPUTE_BOUND_HYPOTHESIS;
	if (row->cache_resident)
		rl->sum.cache_resident_excluded++;
	else if (row->verdict == TLC_ROOF_MEMORY_BOUND_HYPOTHESIS)
		rl->sum.memory_bound++;
	else
		rl->sum.compute_bound++;
}

static int add_row(tlc_roofline *rl, const tlc_op_row *r)
{
	tlc_roofline_row one, *row = &one; /* summary only: judged, not kept */
	if (!rl->summary_only) {
		if (tlc_alloc__grow(rl->a, (void **)&rl->rows, &rl->cap, rl->n + 1, sizeof *rl->rows))
			return TLC_ENOMEM;
		row = &rl->rows[rl->n++];
	}
	memset(row, 0, sizeof *row);
	if (!rl->summary_only) {
		tlc_op_row *cp = tlc_arena__alloc(&rl->ar, sizeof *cp); /* rows are not stored as structs */
		if (!cp)
			return tlc_error__oom();
		*cp = *r;
		row->op = cp;
		row->family = tlc_rep__family(r->name);
	}
	row->peak_dtype = row_peak_dtype(rl, r);
	tlc_count flops, bytes;
	tlc_count__init(&flops);
	tlc_count__init(&bytes);
	tlc_rep__add_flops(&flops, r);
	row->reason = classify(r, &bytes);
	int rc = 0;
	if (!rl->summary_only && tlc_rep__counted(r))
		rc = (row->flops = tlc_rep__count_dup(&rl->ar, &flops)) ? 0 : tlc_error__oom();
	if (!rc && !rl->summary_only && row->reason != TLC_ROOF_MISSING_SHAPE_DTYPE &&
	    r->cls != TLC_CLASS_UNKNOWN)
		rc = (row->bytes = tlc_rep__count_dup(&rl->ar, &bytes)) ? 0 : tlc_error__oom();
	if (!rc && row->reason == TLC_ROOF_COVERED)
		judge(rl, row, &flops, &bytes);
	rl->sum.rows++;
	rl->sum.by_reason[row->reason]++;
	tlc_count__clear(&flops);
	tlc_count__clear(&bytes);
	return rc;
}

static int build_rows(tlc_roofline *rl)
{
	tlc_rep__phase_dtypes(rl->phase_dtype, rl->ev, rl->ceil.dtype_forced);
	const tlc_overlay *ov = rl->join ? tlc_join__overlay(rl->join) : NULL;
	int gate = rl->join && tlc_join_get_summary(rl->join)->gate_passed;
	for (size_t i = 0; i < tlc_eval_op_count(rl->ev); i++) {
		tlc_op_row r_ = tlc_eval__row(rl->ev, i);
		const tlc_op_row *r = &r_;
		if ((rl->opts.phase >= 0 && (int)r->phase != rl->opts.phase) ||
		    r->cls == TLC_CLASS_NOT_APPLICABLE)
			continue;
		int rc = add_row(rl, r);
		if (rc)
			return rc;
		if (rl->summary_only)
			continue;
		if (tlc_alloc__grow(rl->a, (void **)&rl->meas, &rl->mcap, rl->n, sizeof *rl->meas))
			return TLC_ENOMEM;
		/* measured point: the row's costed kernel time, only under a passed
		 * gate for its phase (docs/cost-contract.md, "Headroom") */
		int64_t k = ov ? tlc_overlay__costed_kernel_ns(ov, i) : 0;
		int ok = gate && k > 0 && tlc_join_phase_at(rl->join, r->phase)->passed &&
		         rl->rows[rl->n - 1].reason == TLC_ROOF_COVERED;
		rl->meas[rl->n - 1] = ok ? k : -1;
		rl->any_meas |= ok;
	}
	rl->sum.covered_flops = tlc_rep__count_dup(&rl->ar, &rl->cov_flops);
	rl->sum.covered_bytes = tlc_rep__count_dup(&rl->ar, &rl->cov_bytes);
	double b = tlc_count__to_double(&rl->cov_bytes);
	rl->sum.aggregate_intensity = b > 0 ? tlc_count__to_double(&rl->cov_flops) / b : -1;
	return rl->sum.covered_flops && rl->sum.covered_bytes ? 0 : tlc_error__oom();
}

static int init(tlc_roofline *rl, const tlc_eval *ev, const tlc_roofline_options *opts)
{
	rl->ev = ev;
	rl->opts.phase = -1;
	if (opts)
		memcpy(&rl->opts, opts, opts->size && opts->size < sizeof rl->opts ? opts->size
		                                                                   : sizeof rl->opts);
	tlc_arena__init(&rl->ar, rl->a, 8192);
	tlc_count__init(&rl->cov_flops);
	tlc_count__init(&rl->cov_bytes);
	rl->sum.cache_bytes = rl->opts.cache_bytes == 0 ? TLC_ROOFLINE_DEFAULT_CACHE_BYTES
	                    : rl->opts.cache_bytes < 0 ? 0 : (uint64_t)rl->opts.cache_bytes;
	rl->sum.lower_bound = tlc_eval_is_lower_bound(ev);
	int rc = tlc_rep__resolve(&rl->ceil, ev, &rl->opts.ceilings);
	if (rc)
		return rc;
	rl->sum.device = &rl->ceil.dev;
	rl->sum.device_from = rl->ceil.from;
	return 0;
}

int tlc_roofline_build(tlc_roofline **out, const tlc_eval *ev, const tlc_roofline_options *opts)
{
	return tlc_roofline_build_joined(out, ev, NULL, opts);
}

int64_t tlc_roofline__measured_ns(const tlc_roofline *rl, size_t i)
{
	return rl->meas && i < rl->n ? rl->meas[i] : -1;
}

int tlc_roofline__any_measured(const tlc_roofline *rl) { return rl->any_meas; }

static int build(tlc_roofline **out, const tlc_eval *ev, const tlc_join *j,
                 const tlc_roofline_options *opts, int summary_only);

int tlc_roofline__build_summary(tlc_roofline **out, const tlc_eval *ev,
                                const tlc_roofline_options *opts)
{
	return build(out, ev, NULL, opts, 1);
}

int tlc_roofline_build_joined(tlc_roofline **out, const tlc_eval *ev, const tlc_join *j,
                              const tlc_roofline_options *opts)
{
	return build(out, ev, j, opts, 0);
}

static int build(tlc_roofline **out, const tlc_eval *ev, const tlc_join *j,
                 const tlc_roofline_options *opts, int summary_only)
{
	int rc = tlc_rep__check_eval(ev);
	if (rc)
		return rc;
	const tlc_allocator *a = tlc_eval__allocator(ev);
	tlc_roofline *rl = tlc_alloc__calloc(a, 1, sizeof *rl);
	if (!rl)
		return tlc_error__oom();
	rl->a = a;
	rl->join = j;
	rl->summary_only = summary_only;
	rc = init(rl, ev, opts);
	if (!rc)
		rc = build_rows(rl);
	if (rc) {
		tlc_roofline_free(rl);
		return rc;
	}
	*out = rl;
	return 0;
}

void tlc_roofline_free(tlc_roofline *rl)
{
	if (!rl)
		return;
	tlc_count__clear(&rl->cov_flops);
	tlc_count__clear(&rl->cov_bytes);
	tlc_alloc__free(rl->a, rl->rows);
	tlc_alloc__free(rl->a, rl->meas);
	tlc_arena__free(&rl->ar);
	tlc_alloc__free(rl->a, rl);
}

const tlc_roofline_summary *tlc_roofline_get_summary(const tlc_roofline *rl)
{
	return rl ? &rl->sum : NULL;
}

size_t tlc_roofline_row_count(const tlc_roofline *rl) { return rl ? rl->n : 0; }

const tlc_roofline_row *tlc_roofline_row_at(const tlc_roofline *rl, size_t i)
{
	return rl && i < rl->n ? &rl->rows[i] : NULL;
}

const tlc_eval *tlc_roofline__eval(const tlc_roofline *rl) { return rl->ev; }
