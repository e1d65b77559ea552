/* The shared cmocka fixture of the unit tests (tests/unit/LAYER/test_NAME.c): an engine and
 * what a test builds on it (an evaluation, a join, a steps report), freed
 * together by fx_teardown; an evaluation read from a trace text; the path of
 * a file under tests/fixtures/. Every helper is static inline, so a test
 * uses what it needs and nothing warns about the rest. Tests pass
 * fx_setup / fx_setup_eval and fx_teardown to cmocka_unit_test_setup_teardown
 * (or cmocka_run_group_tests) and read the fixture as `fx *f = *state`. */
#ifndef TLC_TESTS_UNIT_FIXTURE_H
#define TLC_TESTS_UNIT_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"

typedef struct fx {
	tlc_engine *eng;
	tlc_eval *ev;  /* made by fx_setup_eval or fx_read_trace */
	tlc_join *j;   /* made by the test (tlc_join_run), freed here */
	tlc_steps *s;  /* made by the test (tlc_steps_build), freed here */
} fx;

/* cmocka teardown: frees whatever the test made, then the engine. */
static inline int fx_teardown(void **state)
{
	fx *f = *state;
	tlc_steps_free(f->s);
	tlc_join_free(f->j);
	tlc_eval_free(f->ev);
	tlc_engine_free(f->eng);
	free(f);
	return 0;
}

/* cmocka setup: an engine with the built-in rules and nothing else. */
static inline int fx_setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	*state = f;
	if (tlc_engine_new(&f->eng, NULL) < 0) {
		fx_teardown(state);
		return -1;
	}
	return 0;
}

/* cmocka setup: an engine and an empty evaluation that keeps its op rows. */
static inline int fx_setup_eval(void **state)
{
	if (fx_setup(state) < 0)
		return -1;
	fx *f = *state;
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	if (tlc_eval_new(&f->ev, f->eng, &o) < 0) {
		fx_teardown(state);
		return -1;
	}
	return 0;
}

/* Fails the test with the typed error's code and message when rc < 0. */
static inline void fx_ok(int rc, const char *what)
{
	if (rc < 0)
		fail_msg("%s: %s: %s", what, tlc_error_last()->code, tlc_error_last()->message);
}

/* A new evaluation of the Kineto trace text json ("t.json"), finished; keep
 * its op rows when keep is 1. Any error fails the test, naming its code. */
static inline void fx_read_trace(fx *f, const char *json, int keep)
{
	tlc_eval_options o = { sizeof o, keep, NULL, NULL };
	assert_int_equal(tlc_eval_new(&f->ev, f->eng, &o), 0);
	fx_ok(tlc_trace_read_mem(f->ev, json, strlen(json), "t.json"), "tlc_trace_read_mem");
	fx_ok(tlc_eval_finish(f->ev), "tlc_eval_finish");
}

/* A tensor argument of ndim dims (shape, not copied) and dtype dt. */
static inline tlc_value fx_tensor(size_t ndim, const int64_t *shape, tlc_dtype dt)
{
	tlc_value v;
	memset(&v, 0, sizeof v);
	v.kind = TLC_VALUE_TENSOR;
	v.u.tensor.ndim = ndim;
	v.u.tensor.shape = shape;
	v.u.tensor.dtype = dt;
	return v;
}

/* A list argument of the n values items (not copied). */
static inline tlc_value fx_list(size_t n, const tlc_value *items)
{
	tlc_value v;
	memset(&v, 0, sizeof v);
	v.kind = TLC_VALUE_LIST;
	v.u.list.n = n;
	v.u.list.items = items;
	return v;
}

/* "$top_srcdir/tests/fixtures/DIR/NAME" ("." without top_srcdir). The
 * result lives until the fourth call after this one. */
static inline const char *fx_fixture(const char *dir, const char *name)
{
	const char *top = getenv("top_srcdir");
	static char buf[4][1024];
	static int which;
	char *b = buf[which++ & 3];
	snprintf(b, sizeof buf[0], "%s/tests/fixtures/%s/%s", top && *top ? top : ".", dir, name);
	return b;
}

#endif
