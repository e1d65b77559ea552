/* The steps report's C API (include/tlcost/steps.h): a two-device step whose
 * buckets were derived by hand (as in tests/cli/steps_cli.sh), the bucket names,
 * the accessors' argument checks and the refusal without device records.
 * Trace times are microseconds; the report is in nanoseconds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"
#include "../fixture.h"

/* ProfilerStep#7 [0,10); device 0: gemm [2,6) without a runtime call;
 * device 1: a reduce kernel [1,3) launched at 0 (pending [0,1)) and an NCCL
 * kernel [5,9). By hand: device 0 gemm 4, host-bound [0,2)+[6,10) = 6;
 * device 1 reduction 2, exposed communication 4, queued 1, host-bound
 * [3,5)+[9,10) = 3. */
static const char two_dev[] =
	"{\"traceEvents\": ["
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#7\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1,\"args\":{\"correlation\":5}},"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"reduce_kernel_b\",\"pid\":1,\"tid\":3,\"ts\":1,\"dur\":2,\"args\":{\"device\":1,\"stream\":3,\"correlation\":5}},"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm_a\",\"pid\":0,\"tid\":3,\"ts\":2,\"dur\":4,\"args\":{\"device\":0,\"stream\":3,\"correlation\":6}},"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_x\",\"pid\":1,\"tid\":4,\"ts\":5,\"dur\":4,\"args\":{\"device\":1,\"stream\":4,\"correlation\":7}}"
	"]}";

static void load(fx *f, const char *json)
{
	fx_read_trace(f, json, 1);
	fx_ok(tlc_join_run(&f->j, f->ev, NULL), "tlc_join_run");
}

static void two_devices(void **state)
{
	fx *f = *state;
	load(f, two_dev);
	assert_int_equal(tlc_steps_build(&f->s, f->ev, f->j), 0);
	assert_int_equal(tlc_steps_count(f->s), 2);
	assert_int_equal(tlc_steps_marked(f->s), 1);
	static const int64_t want[2][TLC_STEPS_BUCKET_COUNT] = {
		{ 4000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6000 },
		{ 0, 0, 0, 0, 0, 2000, 0, 4000, 0, 1000, 3000 },
	};
	for (size_t i = 0; i < 2; i++) {
		tlc_steps_row r;
		memset(&r, 0, sizeof r);
		r.size = sizeof r;
		assert_int_equal(tlc_steps_get(&r, f->s, i), 0);
		assert_int_equal(r.size, sizeof r);
		assert_int_equal(r.step, 7);
		assert_int_equal(r.device, (int64_t)i);
		assert_int_equal(r.start_ns, 0);
		assert_int_equal(r.wall_ns, 10000);
		assert_int_equal(r.residual_ns, 0);
		for (int k = 0; k < TLC_STEPS_BUCKET_COUNT; k++)
			assert_int_equal(r.buckets[k], want[i][k]);
	}
	FILE *out = tmpfile();
	assert_non_null(out);
	assert_int_equal(tlc_write_steps(out, f->s, TLC_FORMAT_JSON), 0);
	assert_int_equal(tlc_write_steps(out, f->s, TLC_FORMAT_CSV), 0);
	assert_int_equal(tlc_write_steps(out, f->s, TLC_FORMAT_TEXT), 0);
	fclose(out);
}

static void names(void **state)
{
	(void)state;
	assert_string_equal(tlc_steps_bucket_name(TLC_STEPS_GEMM), "gemm");
	assert_string_equal(tlc_steps_bucket_name(TLC_STEPS_EXPOSED_COMM), "exposed_communication");
	assert_string_equal(tlc_steps_bucket_name(TLC_STEPS_IDLE_HOST_BOUND), "idle_host_bound");
	assert_null(tlc_steps_bucket_name(TLC_STEPS_BUCKET_COUNT));
	assert_null(tlc_steps_bucket_name((tlc_steps_bucket)-1));
}

static void bad_arguments(void **state)
{
	fx *f = *state;
	load(f, two_dev);
	assert_int_equal(tlc_steps_build(NULL, f->ev, f->j), TLC_EINVAL);
	assert_int_equal(tlc_steps_build(&f->s, NULL, f->j), TLC_EINVAL);
	assert_int_equal(tlc_steps_build(&f->s, f->ev, f->j), 0);
	tlc_steps_row r;
	memset(&r, 0, sizeof r);
	r.size = sizeof r - 1;
	assert_int_equal(tlc_steps_get(&r, f->s, 0), TLC_EINVAL);
	assert_string_equal(tlc_error_last()->code, "invalid_argument");
	r.size = sizeof r;
	assert_int_equal(tlc_steps_get(&r, f->s, 2), TLC_EINVAL);
	assert_int_equal(tlc_steps_get(NULL, f->s, 0), TLC_EINVAL);
	assert_int_equal(tlc_write_steps(NULL, f->s, TLC_FORMAT_TEXT), TLC_EINVAL);
	assert_int_equal(tlc_steps_count(NULL), 0);
	tlc_steps_free(NULL);
}

static void no_device_records(void **state)
{
	fx *f = *state;
	load(f, "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\","
	        "\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}]}");
	assert_int_equal(tlc_steps_build(&f->s, f->ev, f->j), TLC_ENOTFOUND);
	assert_string_equal(tlc_error_last()->code, "steps_no_device_records");
	assert_null(f->s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(two_devices, fx_setup, fx_teardown),
		cmocka_unit_test(names),
		cmocka_unit_test_setup_teardown(bad_arguments, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(no_device_records, fx_setup, fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
