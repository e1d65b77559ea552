/* ABI hygiene and threads: the runtime version query agrees with the one
 * version in configure.ac; caller-allocated structs are versioned by their
 * size field; one engine shared by evaluations on several threads.
 * Expected totals are worked by hand: aten::mm of [8,16] x [16,4] is
 * M*K*N = 512 multiply-adds = 1024 FLOPs at fma=2. */
#include "config.h"
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tlcost/tlcost.h"

static void test_version(void **state)
{
	(void)state;
	int maj = -1, min = -1, pat = -1, emaj, emin, epat;
	const char *v = tlc_version(&maj, &min, &pat);
	assert_string_equal(v, PACKAGE_VERSION); /* AC_INIT of configure.ac */
	assert_string_equal(v, TLC_VERSION_STRING);
	assert_int_equal(sscanf(PACKAGE_VERSION, "%d.%d.%d", &emaj, &emin, &epat), 3);
	assert_int_equal(maj, emaj);
	assert_int_equal(min, emin);
	assert_int_equal(pat, epat);
	assert_int_equal(TLC_VERSION_NUMBER, (emaj << 16) | (emin << 8) | epat);
	assert_non_null(tlc_version(NULL, NULL, NULL));
}

typedef struct mm_op {
	tlc_op op;
	tlc_value args[2];
} mm_op;

static const int64_t A[] = { 8, 16 }, B[] = { 16, 4 };

static void mk_mm(mm_op *m, int64_t id)
{
	memset(m, 0, sizeof *m);
	for (int i = 0; i < 2; i++) {
		m->args[i].kind = TLC_VALUE_TENSOR;
		m->args[i].u.tensor.ndim = 2;
		m->args[i].u.tensor.shape = i ? B : A;
		m->args[i].u.tensor.dtype = TLC_DTYPE_FLOAT32;
	}
	m->op.size = sizeof m->op;
	m->op.id = id;
	m->op.name = "aten::mm";
	m->op.module = "";
	m->op.nargs = 2;
	m->op.args = m->args;
	m->op.correlation = id;
}

static void test_coverage_size(void **state)
{
	(void)state;
	tlc_engine *eng;
	tlc_eval *ev;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	mm_op m;
	mk_mm(&m, 1);
	assert_int_equal(tlc_eval_push_op(ev, &m.op), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);

	tlc_coverage c;
	memset(&c, 0xff, sizeof c);
	c.size = 0; /* a caller that did not say which layout it has */
	assert_int_equal(tlc_eval_coverage(&c, ev), TLC_EINVAL);
	assert_string_equal(tlc_error_last()->code, "invalid_argument");
	assert_int_equal(c.rows, UINT64_MAX); /* nothing written */

	tlc_coverage d = TLC_COVERAGE_INIT;
	assert_int_equal(tlc_eval_coverage(&d, ev), 0);
	assert_int_equal(d.size, sizeof d);
	assert_int_equal(d.rows, 1);
	assert_int_equal(d.by_class[TLC_CLASS_KNOWN], 1);
	assert_int_equal(d.by_class[TLC_CLASS_UNKNOWN], 0);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static void test_input_info_size(void **state)
{
	(void)state;
	tlc_engine *eng;
	tlc_eval *ev;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	tlc_input_info bad;
	memset(&bad, 0, sizeof bad);
	bad.model = "m";
	assert_int_equal(tlc_eval_set_info(ev, &bad), TLC_EINVAL);
	assert_string_equal(tlc_error_last()->code, "invalid_argument");

	tlc_input_info info = TLC_INPUT_INFO_INIT;
	info.model = "m";
	assert_int_equal(tlc_eval_set_info(ev, &info), 0);
	const tlc_input_info *got = tlc_eval_info(ev);
	assert_int_equal(got->size, sizeof *got);
	assert_string_equal(got->model, "m");
	assert_string_equal(got->format, "api");
	assert_int_equal(got->params, -1); /* absent */
	assert_int_equal(got->tokens, -1);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

/* Every code tlc_eval_push_op documents (include/tlcost/eval.h). */
static void expect_push(tlc_eval *ev, const tlc_op *op, int klass, const char *code)
{
	assert_int_equal(tlc_eval_push_op(ev, op), klass);
	assert_string_equal(tlc_error_last()->code, code);
}

static void test_push_op_codes(void **state)
{
	(void)state;
	tlc_engine *eng;
	tlc_eval *ev;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	assert_int_equal(tlc_eval_new(&ev, eng, NULL), 0);
	mm_op m;
	mk_mm(&m, 1);
	expect_push(NULL, &m.op, TLC_EINVAL, "invalid_argument");
	expect_push(ev, NULL, TLC_EINVAL, "invalid_argument");
	m.op.size = 8;
	expect_push(ev, &m.op, TLC_EINPUT, "oplog_field_invalid");
	mk_mm(&m, -1);
	expect_push(ev, &m.op, TLC_EINPUT, "oplog_field_invalid");
	mk_mm(&m, 1);
	m.op.name = "";
	expect_push(ev, &m.op, TLC_EINPUT, "oplog_field_invalid");
	mk_mm(&m, 1);
	static const int64_t neg[] = { 8, -16 };
	m.args[0].u.tensor.shape = neg;
	expect_push(ev, &m.op, TLC_EINPUT, "oplog_field_invalid");
	mk_mm(&m, 1);
	m.op.flags |= TLC_OP_HAS_PARENT;
	m.op.parent = 1;
	expect_push(ev, &m.op, TLC_EINPUT, "oplog_parent_unknown");
	mk_mm(&m, 2);
	assert_int_equal(tlc_eval_push_op(ev, &m.op), 0);
	expect_push(ev, &m.op, TLC_EINPUT, "oplog_duplicate_id");
	mk_mm(&m, 3);
	m.op.name = "mylib::no_rule"; /* unknown is not an error */
	assert_int_equal(tlc_eval_push_op(ev, &m.op), 0);
	assert_int_equal(tlc_eval_finish(ev), 0);
	mk_mm(&m, 4);
	expect_push(ev, &m.op, TLC_ESTATE, "eval_finished");
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

/* rule_duplicate names both providers, says when one registered twice, and
 * gives a rule-file author `override` rather than a C flag. */
static void test_rule_duplicate_messages(void **state)
{
	(void)state;
	tlc_engine *eng;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	tlc_rule_def def;
	memset(&def, 0, sizeof def);
	def.size = sizeof def;
	def.name = "aten::mm";
	def.kind = TLC_RULE_ZERO;
	def.note = "test";
	assert_int_equal(tlc_engine_register_rule(eng, &def), TLC_EEXISTS);
	const tlc_error *e = tlc_error_last();
	assert_string_equal(e->code, "rule_duplicate");
	assert_string_equal(e->message, "api cannot register aten::mm: builtin:matmul registered it first");
	assert_non_null(strstr(e->remedy, "TLC_RULE_OVERRIDE"));

	def.name = "t::twice";
	assert_int_equal(tlc_engine_register_rule(eng, &def), 0);
	assert_int_equal(tlc_engine_register_rule(eng, &def), TLC_EEXISTS);
	assert_non_null(strstr(tlc_error_last()->message, "registered twice by the same plugin"));

	char path[] = "/tmp/tlc_dup_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("rule aten::mm\n  other = 1\nend\n", f);
	fclose(f);
	assert_int_equal(tlc_engine_load_rules_file(eng, path), TLC_EEXISTS);
	e = tlc_error_last();
	assert_string_equal(e->code, "rule_duplicate");
	assert_non_null(strstr(e->message, "builtin:matmul registered it first"));
	assert_non_null(strstr(e->message, "rules:"));
	assert_non_null(strstr(e->remedy, "`override`"));
	assert_null(strstr(e->remedy, "TLC_RULE_OVERRIDE"));
	unlink(path);
	tlc_engine_free(eng);
}

/* ---- one engine, one eval per thread ---- */

#define NTHREADS 4
#define NOPS 2000

typedef struct job {
	tlc_engine *eng;
	int ok;
	char total[32];
	char err_code[64];
} job;

static void *worker(void *p)
{
	job *j = p;
	tlc_eval *ev;
	if (tlc_eval_new(&ev, j->eng, NULL) < 0)
		return NULL;
	mm_op m;
	for (int64_t i = 0; i < NOPS; i++) {
		mk_mm(&m, i);
		if (tlc_eval_push_op(ev, &m.op) < 0)
			goto out;
	}
	/* an error on this thread is seen by this thread only */
	mk_mm(&m, 0);
	if (tlc_eval_push_op(ev, &m.op) == 0)
		goto out;
	snprintf(j->err_code, sizeof j->err_code, "%s", tlc_error_last()->code);
	char *s;
	if (tlc_eval_finish(ev) < 0 || tlc_eval_total_str(&s, ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS) < 0)
		goto out;
	snprintf(j->total, sizeof j->total, "%s", s);
	tlc_free(s);
	j->ok = 1;
out:
	tlc_eval_free(ev);
	return NULL;
}

static void test_threads_share_engine(void **state)
{
	(void)state;
	tlc_engine *eng;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	pthread_t t[NTHREADS];
	job jobs[NTHREADS];
	memset(jobs, 0, sizeof jobs);
	for (int i = 0; i < NTHREADS; i++) {
		jobs[i].eng = eng;
		assert_int_equal(pthread_create(&t[i], NULL, worker, &jobs[i]), 0);
	}
	for (int i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	tlc_error_clear();
	assert_string_equal(tlc_error_last()->code, "ok"); /* the workers' errors stayed there */
	for (int i = 0; i < NTHREADS; i++) {
		assert_true(jobs[i].ok);
		assert_string_equal(jobs[i].total, "2048000"); /* 2000 x 1024 */
		assert_string_equal(jobs[i].err_code, "oplog_duplicate_id");
	}
	tlc_engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_coverage_size),
		cmocka_unit_test(test_input_info_size),
		cmocka_unit_test(test_push_op_codes),
		cmocka_unit_test(test_rule_duplicate_messages),
		cmocka_unit_test(test_threads_share_engine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
