/* Roofline: reasons, hypotheses, cache-resident exclusion, aggregate
 * intensity as sum over sum, device presets and matching, user device
 * files, the SVG's required parts (contract section 6). Expected numbers
 * are derived by hand from the fixture rules (tests/unit/report_fixture.h). */
#include <math.h>
#include <unistd.h>
#include "../report_fixture.h"

/*   0 gemm 64x64x64 f32: macs 262144 -> 524288 FLOPs; bytes 2*64*64*4 read +
 *     64*64*4 written = 49152; intensity 10.667
 *   1 pw 64x64 f32: 4096 FLOPs; 16384 + 16384 = 32768 bytes; intensity 0.125
 *   2 view: zero_by_rule, no traffic            -> zero_logical_traffic
 *   3 t::mystery: no rule                       -> no_rule
 *   4 pw without args: missing_args             -> missing_shape_dtype
 *   5 pw 2x2 of dtype "weird": bytes unknown    -> missing_shape_dtype
 * aggregate = (524288 + 4096) / (49152 + 32768) = 528384 / 81920 = 6.45 */
static const fx_op ops[] = {
	{ 0, "t::gemm", TLC_PHASE_FORWARD, "mm", "M", 0, 64, 64, 64, 0, 0, 0, NULL },
	{ 1, "t::pw", TLC_PHASE_FORWARD, "act", "A", 0, 64, 64, 0, 0, 0, 0, NULL },
	{ 2, "t::view", TLC_PHASE_FORWARD, "v", "V", 0, 4, 4, 0, 0, 0, 0, NULL },
	{ 3, "t::mystery", TLC_PHASE_FORWARD, "u", "U", 0, 4, 4, 0, 0, 0, 0, NULL },
	{ 4, "t::pw", TLC_PHASE_FORWARD, "act", "A", 0, 4, 4, 0, 0, 1, 0, NULL },
	{ 5, "t::pw", TLC_PHASE_FORWARD, "act", "A", 0, 2, 2, 0, TLC_DTYPE_OTHER, 0, 0, NULL },
};

static int setup(void **state)
{
	*state = fx_env_new("cpu", ops, sizeof ops / sizeof ops[0]);
	return 0;
}

/* User ceilings: 100 FLOP/s and 20 B/s, ridge 5 FLOP/B. */
static tlc_roofline *build(const tlc_eval *ev, int64_t cache)
{
	tlc_roofline_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.phase = -1;
	o.cache_bytes = cache;
	o.ceilings.peak_flops = 100;
	o.ceilings.peak_bw = 20;
	tlc_roofline *rl = NULL;
	assert_int_equal(tlc_roofline_build(&rl, ev, &o), 0);
	return rl;
}

static void test_reasons_and_verdicts(void **state)
{
	fx_env *e = *state;
	tlc_roofline *rl = build(e->ev, -1); /* exclude nothing */
	const tlc_roofline_summary *s = tlc_roofline_get_summary(rl);
	assert_int_equal(s->rows, 6);
	assert_int_equal(s->by_reason[TLC_ROOF_COVERED], 2);
	assert_int_equal(s->by_reason[TLC_ROOF_NO_RULE], 1);
	assert_int_equal(s->by_reason[TLC_ROOF_ZERO_LOGICAL_TRAFFIC], 1);
	assert_int_equal(s->by_reason[TLC_ROOF_MISSING_SHAPE_DTYPE], 2);
	static const tlc_roof_reason want[] = { TLC_ROOF_COVERED, TLC_ROOF_COVERED,
		TLC_ROOF_ZERO_LOGICAL_TRAFFIC, TLC_ROOF_NO_RULE, TLC_ROOF_MISSING_SHAPE_DTYPE,
		TLC_ROOF_MISSING_SHAPE_DTYPE };
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(tlc_roofline_row_at(rl, i)->reason, want[i]);
	const tlc_roofline_row *g = tlc_roofline_row_at(rl, 0), *p = tlc_roofline_row_at(rl, 1);
	assert_int_equal(g->verdict, TLC_ROOF_COMPUTE_BOUND_HYPOTHESIS);
	assert_int_equal(p->verdict, TLC_ROOF_MEMORY_BOUND_HYPOTHESIS);
	assert_string_equal(g->flops, "524288");
	assert_string_equal(g->bytes, "49152");
	assert_true(fabs(g->intensity - 524288.0 / 49152.0) < 1e-12);
	assert_true(fabs(g->bound_flops_per_s - 100.0) < 1e-9);      /* compute roof */
	assert_true(fabs(p->bound_flops_per_s - 20.0 * 0.125) < 1e-9); /* memory roof */
	assert_int_equal(s->memory_bound, 1);
	assert_int_equal(s->compute_bound, 1);
	assert_int_equal(s->cache_resident_excluded, 0);
	assert_string_equal(s->covered_flops, "528384");
	assert_string_equal(s->covered_bytes, "81920");
	assert_true(fabs(s->aggregate_intensity - 6.45) < 1e-12);
	/* a mean of ratios would be (10.667 + 0.125) / 2 = 5.396: not what we want */
	assert_true(fabs(s->aggregate_intensity - (524288.0 / 49152 + 0.125) / 2) > 1);
	assert_string_equal(s->device_from, "user_ceilings");
	tlc_roofline_free(rl);
}

static void test_cache_exclusion(void **state)
{
	fx_env *e = *state;
	tlc_roofline *rl = build(e->ev, 0); /* default 4 MiB: both covered ops fit */
	const tlc_roofline_summary *s = tlc_roofline_get_summary(rl);
	assert_int_equal(s->cache_bytes, 4u * 1024 * 1024);
	assert_int_equal(s->memory_bound + s->compute_bound, 0);
	assert_int_equal(s->cache_resident_excluded, 2);
	assert_int_equal(s->by_reason[TLC_ROOF_COVERED], 2); /* still listed */
	assert_true(tlc_roofline_row_at(rl, 0)->cache_resident);
	tlc_roofline_free(rl);
	rl = build(e->ev, 40000); /* gemm 49152 B stays, pw 32768 B is excluded */
	s = tlc_roofline_get_summary(rl);
	assert_int_equal(s->compute_bound, 1);
	assert_int_equal(s->memory_bound, 0);
	assert_int_equal(s->cache_resident_excluded, 1);
	tlc_roofline_free(rl);
}

static void test_device_matching(void **state)
{
	(void)state;
	static const struct { const char *in, *id; } m[] = {
		{ "NVIDIA H100 80GB HBM3", "h100-sxm" }, { "NVIDIA H100 PCIe", "h100-pcie" },
		{ "Tesla V100-SXM2-32GB", "v100-sxm2" }, { "NVIDIA A100-SXM4-80GB", "a100-sxm-80gb" },
		{ "NVIDIA A100-SXM4-40GB", "a100-sxm-40gb" }, { "NVIDIA H200", "h200-sxm" },
		{ "NVIDIA B200", "b200" }, { "NVIDIA L4", "l4" }, { "AMD Instinct MI300X", "mi300x" },
		{ "h100-pcie", "h100-pcie" }, { "NVIDIA H100 SXM5 80GB", "h100-sxm" },
	};
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
		const tlc_device_preset *p = NULL;
		assert_int_equal(tlc_devices_find(&p, NULL, m[i].in), 0);
		assert_string_equal(p->id, m[i].id);
	}
	const tlc_device_preset *p = NULL;
	assert_int_equal(tlc_devices_find(&p, NULL, "NVIDIA L40S"), TLC_ENOTFOUND);
	assert_string_equal(tlc_error_last()->code, "device_unknown");
	assert_int_equal(tlc_devices_find(&p, NULL, "cpu"), TLC_ENOTFOUND);
}

static void test_presets_complete(void **state)
{
	(void)state;
	tlc_devices *d = NULL;
	assert_int_equal(tlc_devices_new(&d), 0);
	assert_int_equal(tlc_devices_count(d), 9);
	for (size_t i = 0; i < tlc_devices_count(d); i++) {
		const tlc_device_preset *p = tlc_devices_at(d, i);
		assert_true(p->mem_bw > 0);
		assert_true(p->peak_flops[TLC_PEAK_FP32] > 0);
		assert_true(p->peak_flops[TLC_PEAK_FP16] > p->peak_flops[TLC_PEAK_FP32]);
		assert_true(strlen(p->source) > 10);
		assert_true(strlen(p->date) >= 4);
	}
	tlc_devices_free(d);
}

static void test_device_from_input_and_dtype(void **state)
{
	(void)state;
	static const fx_op bf[] = {
		{ 0, "t::gemm", TLC_PHASE_FORWARD, "mm", "M", 0, 64, 64, 64, TLC_DTYPE_BFLOAT16, 0, 0, NULL },
		{ 1, "t::pw", TLC_PHASE_FORWARD, "act", "A", 0, 64, 64, 0, 0, 0, 0, NULL },
	};
	tlc_engine *eng = fx_engine();
	tlc_eval *ev = fx_eval(eng, "NVIDIA H100 80GB HBM3");
	fx_push_all(ev, bf, 2);
	tlc_roofline_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.phase = -1;
	tlc_roofline *rl = NULL;
	assert_int_equal(tlc_roofline_build(&rl, ev, &o), 0);
	const tlc_roofline_summary *s = tlc_roofline_get_summary(rl);
	assert_string_equal(s->device->id, "h100-sxm");
	assert_string_equal(s->device_from, "input");
	assert_int_equal(tlc_roofline_row_at(rl, 0)->peak_dtype, TLC_PEAK_BF16);
	assert_int_equal(tlc_roofline_row_at(rl, 1)->peak_dtype, TLC_PEAK_FP32);
	tlc_roofline_free(rl);
	o.ceilings.dtype = "tf32";
	o.ceilings.device = "a100-sxm-80gb";
	assert_int_equal(tlc_roofline_build(&rl, ev, &o), 0);
	s = tlc_roofline_get_summary(rl);
	assert_string_equal(s->device->id, "a100-sxm-80gb");
	assert_string_equal(s->device_from, "option");
	assert_int_equal(tlc_roofline_row_at(rl, 1)->peak_dtype, TLC_PEAK_TF32);
	tlc_roofline_free(rl);
	o.ceilings.dtype = NULL;
	o.ceilings.device = "v100-sxm2"; /* quotes no bf16 peak: the bf16 gemm gets no verdict */
	assert_int_equal(tlc_roofline_build(&rl, ev, &o), 0);
	s = tlc_roofline_get_summary(rl);
	assert_int_equal(s->no_peak, 1);
	assert_int_equal(tlc_roofline_row_at(rl, 0)->verdict, TLC_ROOF_NO_VERDICT);
	assert_int_equal(tlc_roofline_row_at(rl, 0)->reason, TLC_ROOF_COVERED);
	assert_int_equal(tlc_roofline_row_at(rl, 1)->peak_dtype, TLC_PEAK_FP32);
	assert_int_equal(tlc_roofline_row_at(rl, 1)->verdict, TLC_ROOF_MEMORY_BOUND_HYPOTHESIS);
	tlc_roofline_free(rl);
	o.ceilings.dtype = "fp7";
	assert_int_equal(tlc_roofline_build(&rl, ev, &o), TLC_EINVAL);
	assert_string_equal(tlc_error_last()->code, "dtype_unknown");
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_refusals(void **state)
{
	fx_env *e = *state; /* its input names device "cpu" */
	tlc_roofline_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	tlc_roofline *rl = NULL;
	assert_int_equal(tlc_roofline_build(&rl, e->ev, &o), TLC_ENOTFOUND);
	assert_string_equal(tlc_error_last()->code, "roofline_device_missing");
	assert_non_null(strstr(tlc_error_last()->message, "cpu"));
	o.ceilings.peak_flops = 1e12; /* bandwidth missing */
	assert_int_equal(tlc_roofline_build(&rl, e->ev, &o), TLC_EINVAL);
	assert_string_equal(tlc_error_last()->code, "ceilings_invalid");
	o.ceilings.peak_bw = NAN;
	assert_int_equal(tlc_roofline_build(&rl, e->ev, &o), TLC_EINVAL);
	o.ceilings.peak_flops = 0;
	o.ceilings.peak_bw = 0;
	o.ceilings.device = "tpu-v9";
	assert_int_equal(tlc_roofline_build(&rl, e->ev, &o), TLC_ENOTFOUND);
	assert_string_equal(tlc_error_last()->code, "device_unknown");
	assert_null(rl);
}

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/tlc_devices_XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_device_file(void **state)
{
	(void)state;
	tlc_devices *d = NULL;
	assert_int_equal(tlc_devices_new(&d), 0);
	char *good = write_tmp("# mine\n[device my-acc]\nname = My Accelerator\nmatch = myacc\n"
	                       "mem_bw = 1e12\nbf16 = 2e14\nbasis = measured_achievable\n"
	                       "source = our bench\ndate = 2026-01\n");
	assert_int_equal(tlc_devices_load(d, good), 0);
	assert_int_equal(tlc_devices_count(d), 10);
	const tlc_device_preset *p = NULL;
	assert_int_equal(tlc_devices_find(&p, d, "MyAcc rev 2"), 0);
	assert_string_equal(p->id, "my-acc");
	assert_int_equal(p->basis, TLC_BASIS_MEASURED_ACHIEVABLE);
	assert_true(p->peak_flops[TLC_PEAK_BF16] == 2e14);
	char *tie = write_tmp("[device our-h100]\nmatch = h100 hbm3\nmem_bw = 3e12\nbf16 = 7e14\n");
	assert_int_equal(tlc_devices_load(d, tie), 0); /* same pattern as the preset: user wins */
	assert_int_equal(tlc_devices_find(&p, d, "NVIDIA H100 80GB HBM3"), 0);
	assert_string_equal(p->id, "our-h100");
	assert_int_equal(tlc_devices_find(&p, NULL, "NVIDIA H100 80GB HBM3"), 0);
	assert_string_equal(p->id, "h100-sxm"); /* built-ins alone are unchanged */
	unlink(tie);
	free(tie);
	static const struct { const char *text; uint64_t line, col; } bad[] = {
		{ "[device x]\nmem_bw = -3\nfp32 = 1e12\n", 2, 10 },
		{ "[device y]\nfp32 = 1e12\n", 1, 1 },
		{ "fp32 = 1\n", 1, 1 },
		{ "[device z]\nmem_bw = 1e12\nfp32 = 1e12\ncolour = red\n", 4, 1 },
		{ "[gpu w]\n", 1, 1 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *path = write_tmp(bad[i].text);
		assert_true(tlc_devices_load(d, path) < 0);
		const tlc_error *err = tlc_error_last();
		assert_string_equal(err->code, "devices_file_invalid");
		assert_int_equal(err->line, bad[i].line);
		assert_int_equal(err->column, bad[i].col);
		assert_string_equal(err->file, path);
		assert_true(strlen(err->remedy) > 0);
		unlink(path);
		free(path);
	}
	assert_int_equal(tlc_devices_load(d, "/nonexistent/devices.txt"), TLC_EIO);
	unlink(good);
	free(good);
	tlc_devices_free(d);
}

static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_svg_parts(void **state)
{
	fx_env *e = *state;
	tlc_roofline *rl = build(e->ev, 0);
	char *svg = NULL;
	FX_CAPTURE(svg, tlc_write_roofline_svg(out, rl));
	assert_int_equal(count_of(svg, "class=\"op\""), 2); /* one per covered op */
	assert_int_equal(count_of(svg, "id=\"ceiling-memory\""), 1);
	assert_int_equal(count_of(svg, "id=\"ceiling-compute-fp32\""), 1);
	assert_non_null(strstr(svg, "HYPOTHESES from ideal traffic"));
	assert_non_null(strstr(svg, "</svg>"));
	free(svg);
	char *json = NULL;
	FX_CAPTURE_JSON(json, tlc_write_roofline(out, rl, TLC_FORMAT_JSON, 0));
	assert_non_null(strstr(json, "\"covered_flops\":528384"));
	assert_non_null(strstr(json, "\"hypothesis\":true"));
	free(json);
	tlc_roofline_free(rl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reasons_and_verdicts, setup, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_cache_exclusion, setup, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, fx_env_teardown),
		cmocka_unit_test_setup_teardown(test_svg_parts, setup, fx_env_teardown),
		cmocka_unit_test(test_device_matching),
		cmocka_unit_test(test_presets_complete),
		cmocka_unit_test(test_device_from_input_and_dtype),
		cmocka_unit_test(test_device_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
