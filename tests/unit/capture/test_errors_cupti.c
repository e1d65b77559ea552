/* Error codes of libtlcost-cupti (docs/errors.md) reachable without a GPU:
 * a replayed session (tlc_cupti_ingest of a hand-built activity buffer, as
 * tests/unit/capture/test_cupti.c does) whose records an evaluation cannot take
 * (cupti_push_failed), an op log written to a full device
 * (cupti_write_failed), and a negative op correlation (cupti_op_invalid).
 * Each comes back as the class returned and the session's typed error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cupti.h>
#include "tlcost/cupti.h"

static void assert_session_error(const tlc_cupti_session *s, int rc, int klass, const char *code)
{
	const tlc_cupti_error *e = tlc_cupti_session_error(s);
	assert_int_equal(rc, klass);
	assert_string_equal(e->code, code);
	assert_true(e->message && e->message[0]);
	assert_true(e->remedy && e->remedy[0]);
}

/* A stopped replay session holding one kernel record. */
static tlc_cupti_session *one_kernel_session(void)
{
	static _Alignas(8) uint8_t data[sizeof(CUpti_ActivityKernel10)];
	CUpti_ActivityKernel10 k;
	memset(&k, 0, sizeof k);
	k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
	k.name = "k";
	k.start = 1000;
	k.end = 2000;
	k.correlationId = 5;
	memcpy(data, &k, sizeof k);
	tlc_cupti_session *s = NULL;
	assert_int_equal(tlc_cupti_session_new(&s, NULL), 0);
	assert_int_equal(tlc_cupti_ingest(s, data, sizeof data, 0), 0);
	assert_int_equal(tlc_cupti_stop(s), 0);
	assert_int_equal(tlc_cupti_record_count(s), 1);
	return s;
}

/* An allocator that refuses everything once `armed` is set. */
typedef struct gate {
	int armed;
} gate;

static void *g_malloc(size_t n, void *p)
{
	return ((gate *)p)->armed ? NULL : malloc(n);
}

static void *g_realloc(void *q, size_t n, void *p)
{
	return ((gate *)p)->armed ? NULL : realloc(q, n);
}

static void g_free(void *q, void *p)
{
	(void)p;
	free(q);
}

static void test_push_failed(void **state)
{
	(void)state;
	gate g = { 0 };
	tlc_allocator a = { g_malloc, g_realloc, g_free, &g };
	tlc_engine_options eo = { sizeof eo, TLC_ENGINE_NO_BUILTINS, &a };
	tlc_engine *eng = NULL;
	tlc_eval *ev = NULL;
	assert_int_equal(tlc_engine_new(&eng, &eo), 0);
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	tlc_cupti_session *s = one_kernel_session();
	g.armed = 1; /* the evaluation cannot grow its device-record array */
	int rc = tlc_cupti_push_eval(ev, s);
	g.armed = 0;
	assert_session_error(s, rc, TLC_ENOMEM, "cupti_push_failed");
	/* the evaluation's own detail says why */
	assert_string_equal(tlc_error_last()->code, "out_of_memory");
	/* with memory the same records go in */
	assert_int_equal(tlc_cupti_push_eval(ev, s), 0);
	tlc_cupti_session_free(s);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_write_failed(void **state)
{
	(void)state;
	FILE *full = fopen("/dev/full", "w");
	if (!full)
		skip();
	tlc_cupti_session *s = one_kernel_session();
	assert_session_error(s, tlc_cupti_write_oplog(full, s), TLC_EIO, "cupti_write_failed");
	fclose(full);
	tlc_cupti_session_free(s);
}

/* Whether CUPTI runs (GPU) or not (unavailable: ops go on without device
 * time), a negative correlation id is refused. */
static void test_op_invalid(void **state)
{
	(void)state;
	tlc_cupti_session *s = NULL;
	assert_int_equal(tlc_cupti_session_new(&s, NULL), 0);
	int rc = tlc_cupti_start(s);
	assert_true(rc == 0 || rc == TLC_EUNAVAILABLE);
	assert_session_error(s, tlc_cupti_op_enter(s, -1), TLC_EINVAL, "cupti_op_invalid");
	assert_session_error(s, tlc_cupti_op_exit(s, -7), TLC_EINVAL, "cupti_op_invalid");
	assert_int_equal(tlc_cupti_stop(s), 0);
	tlc_cupti_session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_push_failed),
		cmocka_unit_test(test_write_failed),
		cmocka_unit_test(test_op_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
