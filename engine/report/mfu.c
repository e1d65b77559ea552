/* MFU (contract section 7): (sum over phases of FLOPs / peak of the phase's
 * dtype) / step seconds, with exactly one lawful denominator, the
 * uninstrumented end-to-end step wall time. Any other denominator is
 * refused; MFU above 1 is reported with the warning mfu_exceeds_one. */
#include <math.h>
#include <string.h>
#include "reports.h"
#include "eval.h"

/* public arrays have a fixed capacity so the layout stays when the enum grows */
_Static_assert(TLC_PHASE_COUNT <= TLC_PHASE_SLOTS, "TLC_PHASE_SLOTS too small for TLC_PHASE_COUNT");

struct tlc_mfu {
	const tlc_allocator *a;
	const tlc_eval *ev;
	tlc_arena ar;
	tlc_rep_ceil ceil;
	tlc_mfu_summary res;
};

static const char *denominator_name(tlc_mfu_denominator d)
{
	switch (d) {
	case TLC_MFU_STEP_SECONDS: return "step seconds";
	case TLC_MFU_KERNEL_UNION_SECONDS: return "kernel-union seconds";
	case TLC_MFU_DEVICE_BUSY_SECONDS: return "device-busy seconds";
	case TLC_MFU_INSTRUMENTED_HOST_SECONDS: return "instrumented host seconds";
	default: return "an unnamed time";
	}
}

static int check_denominator(const tlc_mfu_options *o)
{
	if (o->denominator != TLC_MFU_STEP_SECONDS)
		return tlc_error__set(TLC_EREFUSED, "mfu_denominator_invalid",
		                      "measure the uninstrumented end-to-end step wall time and pass "
		                      "it as --step-seconds (tlc_mfu_options.seconds with "
		                      "TLC_MFU_STEP_SECONDS)",
		                      "MFU refuses %s as its denominator: the only lawful one is the "
		                      "uninstrumented end-to-end step wall time",
		                      denominator_name(o->denominator));
	if (!isfinite(o->seconds) || o->seconds <= 0)
		return tlc_error__set(TLC_EINVAL, "mfu_step_seconds_invalid",
		                      "pass --step-seconds S with S > 0: the uninstrumented "
		                      "end-to-end wall time of the step the input captured",
		                      "step seconds must be a finite number > 0 (got %g)", o->seconds);
	return 0;
}

/* Exact FLOPs of one phase from the kept rows. */
static void phase_flops(const tlc_eval *ev, int phase, tlc_count *acc)
{
	for (size_t i = 0; i < tlc_eval_op_count(ev); i++) {
		tlc_op_row r_ = tlc_eval__row(ev, i);
		const tlc_op_row *r = &r_;
		if ((int)r->phase == phase)
			tlc_rep__add_flops(acc, r);
	}
}

static int fill_phase(tlc_mfu *m, int p, double *sum)
{
	tlc_mfu_phase *ph = &m->res.phase[p];
	tlc_count c;
	tlc_count__init(&c);
	phase_flops(m->ev, p, &c);
	ph->flops = tlc_rep__count_dup(&m->ar, &c);
	ph->present = !tlc_count__is_zero(&c);
	double f = tlc_count__to_double(&c);
	tlc_count__clear(&c);
	if (!ph->flops)
		return tlc_error__oom();
	ph->dtype = tlc_rep__phase_dtype(m->ev, p, m->ceil.dtype_forced);
	ph->peak_flops = m->ceil.dev.peak_flops[ph->dtype];
	if (!ph->present)
		return 0;
	if (!(ph->peak_flops > 0))
		return tlc_error__set(TLC_EREFUSED, "mfu_mode_peak_missing",
		                      "pass --dtype D for a precision the device quotes (see `tlcost "
		                      "devices`), or give --peak-flops",
		                      "the %s phase has FLOPs in %s and %s quotes no %s peak",
		                      tlc_phase_name((tlc_phase)p), tlc_peak_dtype_name(ph->dtype),
		                      m->ceil.dev.name, tlc_peak_dtype_name(ph->dtype));
	ph->ideal_seconds = f / ph->peak_flops;
	*sum += ph->ideal_seconds;
	return 0;
}

static int six_nd(tlc_mfu *m, const tlc_mfu_options *o)
{
	const tlc_input_info *info = tlc_eval_info(m->ev);
	m->res.params = o->params > 0 ? o->params : (info ? info->params : -1);
	m->res.tokens = o->tokens > 0 ? o->tokens : (info ? info->tokens : -1);
	if (m->res.params <= 0 || m->res.tokens <= 0)
		return 0;
	/* 6ND approximates a training step (2ND forward + 4ND backward): with
	 * no forward or no backward FLOPs the comparison means nothing */
	if (!m->res.phase[TLC_PHASE_FORWARD].present || !m->res.phase[TLC_PHASE_BACKWARD].present)
		return 0;
	tlc_count s, c;
	tlc_count__init(&s);
	tlc_count__init(&c);
	int64_t f[2] = { m->res.params, m->res.tokens };
	tlc_count__add_product(&s, 6, 2, f);
	phase_flops(m->ev, TLC_PHASE_FORWARD, &c);
	phase_flops(m->ev, TLC_PHASE_BACKWARD, &c);
	m->res.six_nd = tlc_rep__count_dup(&m->ar, &s);
	m->res.counted_fwd_bwd = tlc_rep__count_dup(&m->ar, &c);
	m->res.ratio_6nd = tlc_count__to_double(&c) / tlc_count__to_double(&s);
	m->res.has_6nd = 1;
	tlc_count__clear(&s);
	tlc_count__clear(&c);
	return m->res.six_nd && m->res.counted_fwd_bwd ? 0 : tlc_error__oom();
}

static int compute(tlc_mfu *m, const tlc_mfu_options *o)
{
	int rc = tlc_rep__resolve(&m->ceil, m->ev, &o->ceilings);
	if (rc)
		return rc;
	m->res.device = &m->ceil.dev;
	m->res.device_from = m->ceil.from;
	m->res.step_seconds = o->seconds;
	m->res.lower_bound = tlc_eval_is_lower_bound(m->ev);
	double sum = 0;
	for (int p = 0; rc == 0 && p < TLC_PHASE_COUNT; p++)
		rc = fill_phase(m, p, &sum);
	if (rc)
		return rc;
	m->res.mfu = sum / o->seconds;
	m->res.exceeds_one = m->res.mfu > 1.0;
	return six_nd(m, o);
}

int tlc_mfu_compute(tlc_mfu **out, const tlc_eval *ev, const tlc_mfu_options *opts)
{
	tlc_mfu_options o;
	memset(&o, 0, sizeof o);
	o.seconds = NAN;
	if (opts)
		memcpy(&o, opts, opts->size && opts->size < sizeof o ? opts->size : sizeof o);
	int rc = check_denominator(&o);
	if (!rc)
		rc = tlc_rep__check_eval(ev);
	if (rc)
		return rc;
	const tlc_allocator *a = tlc_eval__allocator(ev);
	tlc_mfu *m = tlc_alloc__calloc(a, 1, sizeof *m);
	if (!m)
		return tlc_error__oom();
	m->a = a;
	m->ev = ev;
	tlc_arena__init(&m->ar, a, 1024);
	rc = compute(m, &o);
	if (rc) {
		tlc_mfu_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

void tlc_mfu_free(tlc_mfu *m)
{
	if (!m)
		return;
	tlc_arena__free(&m->ar);
	tlc_alloc__free(m->a, m);
}

const tlc_mfu_summary *tlc_mfu_get_summary(const tlc_mfu *m) { return m ? &m->res : NULL; }
