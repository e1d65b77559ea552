/* MFU: the one lawful denominator, per-phase peaks, typed refusals, the
 * mfu_exceeds_one warning and the 6ND comparator (contract section 7).
 * Expected values are derived by hand from the fixture rules. */
#include <math.h>
#include "../report_fixture.h"

/* forward: gemm 64^3 bf16 -> 2*262144 = 524288 FLOPs; pw 64x64 f32 -> 4096
 *          (forward total 528384; bf16 carries most FLOPs: peak dtype bf16)
 * backward: gemm 64^3 f32 -> 524288 (peak dtype fp32) */
static const fx_op ops[] = {
	{ 0, "t::gemm", TLC_PHASE_FORWARD, "mm", "M", 0, 64, 64, 64, TLC_DTYPE_BFLOAT16, 0, 0, NULL },
	{ 1, "t::pw", TLC_PHASE_FORWARD, "act", "A", 0, 64, 64, 0, 0, 0, 0, NULL },
	{ 2, "t::gemm", TLC_PHASE_BACKWARD, "mm", "M", 0, 64, 64, 64, 0, 0, 0, NULL },
};

static int setup(void **state)
{
	*state = fx_env_new("NVIDIA H100 80GB HBM3", ops, sizeof ops / sizeof ops[0]);
	return 0;
}

static tlc_mfu_options opts(double seconds)
{
	tlc_mfu_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.seconds = seconds;
	return o;
}

static void test_mfu_per_phase_peaks(void **state)
{
	fx_env *e = *state;
	tlc_mfu_options o = opts(1e-3);
	tlc_mfu *m = NULL;
	assert_int_equal(tlc_mfu_compute(&m, e->ev, &o), 0);
	const tlc_mfu_summary *r = tlc_mfu_get_summary(m);
	/* device from the input: H100 SXM, bf16 989.5e12, fp32 67e12 FLOP/s */
	assert_string_equal(r->device->id, "h100-sxm");
	assert_int_equal(r->phase[TLC_PHASE_FORWARD].dtype, TLC_PEAK_BF16);
	assert_int_equal(r->phase[TLC_PHASE_BACKWARD].dtype, TLC_PEAK_FP32);
	assert_string_equal(r->phase[TLC_PHASE_FORWARD].flops, "528384");
	assert_string_equal(r->phase[TLC_PHASE_BACKWARD].flops, "524288");
	assert_false(r->phase[TLC_PHASE_OPTIMIZER].present);
	double want = (528384.0 / 989.5e12 + 524288.0 / 67e12) / 1e-3;
	assert_true(fabs(r->mfu - want) < 1e-15);
	assert_false(r->exceeds_one);
	assert_false(r->has_6nd);
	tlc_mfu_free(m);
}

static void test_mfu_user_peak_and_exceeds_one(void **state)
{
	fx_env *e = *state;
	tlc_mfu_options o = opts(2e-6);
	o.ceilings.peak_flops = 1e12;
	o.ceilings.peak_bw = 1e12;
	tlc_mfu *m = NULL;
	assert_int_equal(tlc_mfu_compute(&m, e->ev, &o), 0);
	/* (528384 + 524288) / 1e12 / 2e-6 = 0.526336 */
	assert_true(fabs(tlc_mfu_get_summary(m)->mfu - 0.526336) < 1e-12);
	assert_false(tlc_mfu_get_summary(m)->exceeds_one);
	tlc_mfu_free(m);
	o.seconds = 1e-6; /* 1.052672: reported, with the warning */
	assert_int_equal(tlc_mfu_compute(&m, e->ev, &o), 0);
	assert_true(fabs(tlc_mfu_get_summary(m)->mfu - 1.052672) < 1e-12);
	assert_true(tlc_mfu_get_summary(m)->exceeds_one);
	char *txt = NULL, *json = NULL;
	FX_CAPTURE(txt, tlc_write_mfu(out, m, TLC_FORMAT_TEXT));
	FX_CAPTURE_JSON(json, tlc_write_mfu(out, m, TLC_FORMAT_JSON));
	assert_non_null(strstr(txt, "warning: mfu_exceeds_one"));
	assert_non_null(strstr(json, "\"warnings\":[\"mfu_exceeds_one\"]"));
	assert_null(strstr(txt, "achieved"));
	assert_null(strstr(txt, "throughput"));
	free(txt);
	free(json);
	tlc_mfu_free(m);
}

static void test_denominator_refused(void **state)
{
	fx_env *e = *state;
	static const tlc_mfu_denominator bad[] = { TLC_MFU_KERNEL_UNION_SECONDS,
		TLC_MFU_DEVICE_BUSY_SECONDS, TLC_MFU_INSTRUMENTED_HOST_SECONDS, TLC_MFU_OTHER_SECONDS };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		tlc_mfu_options o = opts(0.5);
		o.denominator = bad[i];
		tlc_mfu *m = NULL;
		assert_int_equal(tlc_mfu_compute(&m, e->ev, &o), TLC_EREFUSED);
		assert_string_equal(tlc_error_last()->code, "mfu_denominator_invalid");
		assert_non_null(strstr(tlc_error_last()->remedy, "--step-seconds"));
		assert_null(m);
	}
}

static void test_step_seconds_invalid(void **state)
{
	fx_env *e = *state;
	const double bad[] = { 0.0, -1.0, NAN, INFINITY };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		tlc_mfu_options o = opts(bad[i]);
		tlc_mfu *m = NULL;
		assert_int_equal(tlc_mfu_compute(&m, e->ev, &o), TLC_EINVAL);
		assert_string_equal(tlc_error_last()->code, "mfu_step_seconds_invalid");
	}
	tlc_mfu *m = NULL; /* no options at all: the step time is missing */
	assert_int_equal(tlc_mfu_compute(&m, e->ev, NULL), TLC_EINVAL);
	assert_string_equal(tlc_error_last()->code, "mfu_step_seconds_invalid");
}

static void test_peak_missing(void **state)
{
	fx_env *e = *state;
	tlc_mfu_options o = opts(1.0);
	o.ceilings.device = "v100-sxm2"; /* no bf16 peak on V100 */
	tlc_mfu *m = NULL;
	assert_int_equal(tlc_mfu_compute(&m, e->ev, &o), TLC_EREFUSED);
	assert_string_equal(tlc_error_last()->code, "mfu_mode_peak_missing");
	assert_non_null(strstr(tlc_error_last()->message, "forward"));
	assert_non_null(strstr(tlc_error_last()->message, "bf16"));
	o.ceilings.dtype = "fp16"; /* forcing a dtype the device quotes works */
	assert_int_equal(tlc_mfu_compute(&m, e->ev, &o), 0);
	/* (528384 + 524288) / 125e12 / 1 s */
	assert_true(fabs(tlc_mfu_get_summary(m)->mfu - 1052672.0 / 125e12) < 1e-24);
	tlc_mfu_free(m);
}

static void test_six_nd(void **state)
{
	fx_env *e = *state;
	tlc_mfu_options o = opts(1.0);
	o.params = 1000;
	o.tokens = 8;
	tlc_mfu *m = NULL;
	assert_int_equal(tlc_mfu_compute(&m, e->ev, &o), 0);
	const tlc_mfu_summary *r = tlc_mfu_get_summary(m);
	assert_true(r->has_6nd);
	assert_string_equal(r->six_nd, "48000");              /* 6 * 1000 * 8 */
	assert_string_equal(r->counted_fwd_bwd, "1052672");   /* 528384 + 524288 */
	assert_true(fabs(r->ratio_6nd - 1052672.0 / 48000.0) < 1e-12);
	char *txt = NULL;
	FX_CAPTURE(txt, tlc_write_mfu(out, m, TLC_FORMAT_TEXT));
	assert_non_null(strstr(txt, "6ND comparator: 6 x N 1000 x D 8 = 48,000 FLOPs"));
	free(txt);
	tlc_mfu_free(m);
}

/* A forward-only input (inference, or a log captured without backward)
 * has no 6ND comparator: 6ND approximates a training step's forward (2ND)
 * and backward (4ND) FLOPs, so comparing forward FLOPs with it is
 * meaningless (issue 28: resnet50's forward log printed 54x 6ND). */
static void test_six_nd_forward_only(void **state)
{
	(void)state;
	fx_env *e = fx_env_new("NVIDIA H100 80GB HBM3", ops, 2); /* ops 0 and 1: forward */
	tlc_mfu_options o = opts(1.0);
	o.params = 1000;
	o.tokens = 8;
	tlc_mfu *m = NULL;
	assert_int_equal(tlc_mfu_compute(&m, e->ev, &o), 0);
	const tlc_mfu_summary *r = tlc_mfu_get_summary(m);
	assert_false(r->has_6nd);
	assert_int_equal(r->params, 1000);
	char *txt = NULL;
	FX_CAPTURE(txt, tlc_write_mfu(out, m, TLC_FORMAT_TEXT));
	assert_null(strstr(txt, "x 6ND"));
	assert_non_null(strstr(txt, "6ND comparator: not applicable: the input has no backward"));
	free(txt);
	char *js = NULL;
	FX_CAPTURE(js, tlc_write_mfu(out, m, TLC_FORMAT_JSON));
	assert_non_null(strstr(js, "\"six_nd\": null"));
	assert_non_null(strstr(js, "\"six_nd_unavailable\": \"not applicable"));
	free(js);
	tlc_mfu_free(m);
	fx_env_teardown((void **)&e);
}

/* Kineto traces spell dtypes as c10::BFloat16, c10::Half, float, ...: the
 * phase dtype still comes out right. */
static void test_trace_dtype_spellings(void **state)
{
	(void)state;
	static const struct { const char *name; tlc_dtype dt; tlc_peak_dtype want; } sp[] = {
		{ "c10::BFloat16", TLC_DTYPE_BFLOAT16, TLC_PEAK_BF16 },
		{ "c10::Half", TLC_DTYPE_FLOAT16, TLC_PEAK_FP16 },
		{ "c10::Float8_e4m3fn", TLC_DTYPE_FLOAT8_E4M3FN, TLC_PEAK_FP8 },
		{ "float", TLC_DTYPE_FLOAT32, TLC_PEAK_FP32 },
		{ "double", TLC_DTYPE_FLOAT64, TLC_PEAK_FP64 },
	};
	for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) {
		fx_op op = { 0, "t::gemm", TLC_PHASE_FORWARD, "mm", "M", 0, 8, 8, 8, sp[i].dt, 0, 0,
		             sp[i].name };
		tlc_engine *eng = fx_engine();
		tlc_eval *ev = fx_eval(eng, "NVIDIA H100 80GB HBM3");
		fx_push_all(ev, &op, 1);
		tlc_mfu_options o = opts(1.0);
		tlc_mfu *m = NULL;
		assert_int_equal(tlc_mfu_compute(&m, ev, &o), 0);
		assert_int_equal(tlc_mfu_get_summary(m)->phase[TLC_PHASE_FORWARD].dtype, sp[i].want);
		tlc_mfu_free(m);
		tlc_eval_free(ev);
		tlc_engine_free(eng);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mfu_per_phase_peaks, setup, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_mfu_user_peak_and_exceeds_one, setup, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_denominator_refused, setup, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_step_seconds_invalid, setup, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_peak_missing, setup, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_six_nd, setup, fx_env_teardown),
		cmocka_unit_test(test_six_nd_forward_only),
		cmocka_unit_test(test_trace_dtype_spellings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
