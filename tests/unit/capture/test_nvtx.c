/* libtlcost-nvtx without a GPU. tests/nvtx/ranges.sh runs this binary once
 * per NVTX setting of the process (NVTX reads NVTX_INJECTION64_PATH once, at
 * the first NVTX call, so each setting needs its own process):
 *
 *   test_nvtx inject           under tests/nvtx/inject.la, which records
 *                              every push/pop with its thread and name
 *   test_nvtx refuse-unset     NVTX_INJECTION64_PATH unset
 *   test_nvtx refuse-missing   it names a file that does not exist
 *   test_nvtx refuse-init      the library's InitializeInjectionNvtx2 fails
 *   test_nvtx refuse-noranges  the library takes marks but not push/pop
 *   test_nvtx refuse-unbuilt   built without the NVTX3 headers
 *   test_nvtx features         prints "nvtx3" or "none"
 *
 * Expected ranges are written out by hand below from the NVTX naming
 * contract (tlcost::<op>#<call_id>, tlcost::internal::<what>) and the op
 * nesting each test performs; they are compared with what the injection
 * library saw, never with anything libtlcost-nvtx reports about itself. */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tlcost/nvtx.h"
#ifdef TLC_HAVE_CUPTI
#include "tlcost/cupti.h"
#endif
#include "../../nvtx/inject.h"

/* ------------------------------------------------------------------ */
/* The recorder inside the injection library                            */
/* ------------------------------------------------------------------ */

static struct {
	void *handle;
	tlc_test_nvtx_count_fn count;
	tlc_test_nvtx_at_fn at;
	tlc_test_nvtx_reset_fn reset;
} rec;

/* NVTX loaded the library privately; reach its recorder by its path. */
static int bind_recorder(void)
{
	const char *path = getenv("NVTX_INJECTION64_PATH");

	if (!path || !(rec.handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD)))
		return -1;
	rec.count = (tlc_test_nvtx_count_fn)dlsym(rec.handle, "tlc_test_nvtx_count");
	rec.at = (tlc_test_nvtx_at_fn)dlsym(rec.handle, "tlc_test_nvtx_at");
	rec.reset = (tlc_test_nvtx_reset_fn)dlsym(rec.handle, "tlc_test_nvtx_reset");
	return rec.count && rec.at && rec.reset ? 0 : -1;
}

/* One event as a line: "push L NAME", "pop L", "underflow", "other CALL NAME". */
static void event_line(char *out, size_t size, const tlc_test_nvtx_event *e)
{
	switch (e->kind) {
	case TLC_TEST_NVTX_PUSH:
		snprintf(out, size, "push %d %s", e->level, e->name);
		break;
	case TLC_TEST_NVTX_POP:
		snprintf(out, size, "pop %d", e->level);
		break;
	case TLC_TEST_NVTX_UNDERFLOW:
		snprintf(out, size, "underflow");
		break;
	default:
		snprintf(out, size, "other %s %s", e->call, e->name);
	}
}

/* The events of one thread (or of all, when thread is NULL) equal want. */
static void expect_events(const pthread_t *thread, const char *const *want, size_t nwant)
{
	char line[600];
	size_t got = 0;

	for (size_t i = 0; i < rec.count(); i++) {
		const tlc_test_nvtx_event *e = rec.at(i);

		if (thread && !pthread_equal(e->thread, *thread))
			continue;
		event_line(line, sizeof line, e);
		if (got >= nwant)
			fail_msg("event %zu '%s' beyond the %zu expected", got, line, nwant);
		if (strcmp(line, want[got]) != 0)
			fail_msg("event %zu is '%s', want '%s'", got, line, want[got]);
		got++;
	}
	if (got != nwant)
		fail_msg("%zu events, want %zu (next wanted: '%s')", got, nwant, want[got]);
}

#define EXPECT(...)                                                            \
	do {                                                                   \
		static const char *const want_[] = { __VA_ARGS__ };            \
		expect_events(NULL, want_, sizeof want_ / sizeof want_[0]);    \
	} while (0)

static tlc_nvtx *started(void)
{
	tlc_nvtx *n = NULL;

	assert_int_equal(tlc_nvtx_new(&n), 0);
	assert_int_equal(tlc_nvtx_start(n), 0);
	assert_true(tlc_nvtx_started(n));
	return n;
}

static int setup_recorder(void **state)
{
	tlc_nvtx *n = NULL;

	(void)state;
	/* the first start runs NVTX's injection search, which loads it */
	if (tlc_nvtx_new(&n) != 0 || tlc_nvtx_start(n) != 0) {
		fprintf(stderr, "inject: no tool attached: %s\n",
		        n ? tlc_nvtx_error_get(n)->message : "no memory");
		tlc_nvtx_free(n);
		return -1;
	}
	tlc_nvtx_free(n);
	return bind_recorder();
}

static int reset_recorder(void **state)
{
	(void)state;
	rec.reset();
	return 0;
}

/* ------------------------------------------------------------------ */
/* Op ranges                                                            */
/* ------------------------------------------------------------------ */

/* Twenty calls of one op are twenty ranges, told apart by call id; each
 * op got exactly one push and one pop, and nothing else was emitted. */
static void test_each_call_one_range(void **state)
{
	tlc_nvtx *n = started();
	char want[20][64];
	const char *wantp[40];

	(void)state;
	for (int i = 0; i < 20; i++) {
		assert_int_equal(tlc_nvtx_op_enter(n, "aten::conv2d", 100 + i), 0);
		assert_int_equal(tlc_nvtx_op_exit(n, 100 + i), 0);
	}
	for (int i = 0; i < 20; i++) {
		snprintf(want[i], sizeof want[i], "push 0 tlcost::aten::conv2d#%d", 100 + i);
		wantp[2 * i] = want[i];
		wantp[2 * i + 1] = "pop 0";
	}
	expect_events(NULL, wantp, 40);
	tlc_nvtx_free(n);
}

/* linear(0) { addmm(1) { mm(2) } relu(3) } gelu(4): the push levels and
 * pop order mirror that tree. */
static void test_nesting_matches_ops(void **state)
{
	tlc_nvtx *n = started();

	(void)state;
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::linear", 0), 0);
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::addmm", 1), 0);
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::mm", 2), 0);
	assert_int_equal(tlc_nvtx_op_exit(n, 2), 0);
	assert_int_equal(tlc_nvtx_op_exit(n, 1), 0);
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::relu", 3), 0);
	assert_int_equal(tlc_nvtx_op_exit(n, 3), 0);
	assert_int_equal(tlc_nvtx_op_exit(n, 0), 0);
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::gelu", 4), 0);
	assert_int_equal(tlc_nvtx_op_exit(n, 4), 0);
	EXPECT("push 0 tlcost::aten::linear#0", "push 1 tlcost::aten::addmm#1",
	       "push 2 tlcost::aten::mm#2", "pop 2", "pop 1", "push 1 tlcost::aten::relu#3",
	       "pop 1", "pop 0", "push 0 tlcost::aten::gelu#4", "pop 0");
	tlc_nvtx_free(n);
}

static void test_internal_ranges(void **state)
{
	tlc_nvtx *n = started();

	(void)state;
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::mm", 7), 0);
	assert_int_equal(tlc_nvtx_internal_enter(n, "write_log"), 0);
	assert_int_equal(tlc_nvtx_internal_exit(n, "write_log"), 0);
	assert_int_equal(tlc_nvtx_op_exit(n, 7), 0);
	EXPECT("push 0 tlcost::aten::mm#7", "push 1 tlcost::internal::write_log", "pop 1",
	       "pop 0");
	tlc_nvtx_free(n);
}

/* An exit out of order is refused and pops nothing; the right ones go on. */
static void test_mismatch(void **state)
{
	tlc_nvtx *n = started();

	(void)state;
	assert_int_equal(tlc_nvtx_op_exit(n, 3), TLC_EINVAL);
	assert_string_equal(tlc_nvtx_error_get(n)->code, "nvtx_op_mismatch");
	assert_non_null(strstr(tlc_nvtx_error_get(n)->message, "is nothing"));
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::linear", 0), 0);
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::mm", 1), 0);
	assert_int_equal(tlc_nvtx_op_exit(n, 0), TLC_EINVAL);
	assert_string_equal(tlc_nvtx_error_get(n)->code, "nvtx_op_mismatch");
	assert_non_null(strstr(tlc_nvtx_error_get(n)->message, "op call 1"));
	assert_true(tlc_nvtx_error_get(n)->remedy[0] != '\0');
	/* an internal exit may not close an op, nor the wrong internal range */
	assert_int_equal(tlc_nvtx_internal_exit(n, "cupti_flush"), TLC_EINVAL);
	assert_int_equal(tlc_nvtx_internal_enter(n, "cupti_flush"), 0);
	assert_int_equal(tlc_nvtx_internal_exit(n, "cupti_build"), TLC_EINVAL);
	assert_int_equal(tlc_nvtx_op_exit(n, 1), TLC_EINVAL);
	assert_int_equal(tlc_nvtx_internal_exit(n, "cupti_flush"), 0);
	assert_int_equal(tlc_nvtx_op_exit(n, 1), 0);
	assert_int_equal(tlc_nvtx_op_exit(n, 0), 0);
	EXPECT("push 0 tlcost::aten::linear#0", "push 1 tlcost::aten::mm#1",
	       "push 2 tlcost::internal::cupti_flush", "pop 2", "pop 1", "pop 0");
	tlc_nvtx_free(n);
}

static void test_invalid_and_state(void **state)
{
	tlc_nvtx *n = NULL;

	(void)state;
	assert_int_equal(tlc_nvtx_new(&n), 0);
	assert_string_equal(tlc_nvtx_error_get(n)->code, "ok");
	assert_false(tlc_nvtx_started(n));
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::mm", 0), TLC_ESTATE);
	assert_string_equal(tlc_nvtx_error_get(n)->code, "nvtx_state");
	assert_int_equal(tlc_nvtx_op_exit(n, 0), TLC_ESTATE);
	assert_int_equal(tlc_nvtx_internal_enter(n, "x"), TLC_ESTATE);
	assert_int_equal(tlc_nvtx_internal_exit(n, "x"), TLC_ESTATE);
	assert_int_equal(tlc_nvtx_start(n), 0);
	assert_int_equal(tlc_nvtx_start(n), TLC_ESTATE);
	assert_string_equal(tlc_nvtx_error_get(n)->code, "nvtx_state");
	assert_int_equal(tlc_nvtx_op_enter(n, NULL, 0), TLC_EINVAL);
	assert_string_equal(tlc_nvtx_error_get(n)->code, "nvtx_op_invalid");
	assert_int_equal(tlc_nvtx_op_enter(n, "", 0), TLC_EINVAL);
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::mm", -1), TLC_EINVAL);
	assert_string_equal(tlc_nvtx_error_get(n)->code, "nvtx_op_invalid");
	assert_int_equal(tlc_nvtx_internal_enter(n, ""), TLC_EINVAL);
	assert_int_equal(tlc_nvtx_internal_exit(n, NULL), TLC_EINVAL);
	assert_int_equal(rec.count(), 0);
	tlc_nvtx_free(n);
}

/* A name longer than the inline buffer is emitted whole. */
static void test_long_name(void **state)
{
	tlc_nvtx *n = started();
	char op[400], want[600];

	(void)state;
	memset(op, 'x', sizeof op - 1);
	op[sizeof op - 1] = '\0';
	snprintf(want, sizeof want, "push 0 tlcost::%s#123456789012", op);
	assert_int_equal(tlc_nvtx_op_enter(n, op, 123456789012LL), 0);
	assert_int_equal(tlc_nvtx_op_exit(n, 123456789012LL), 0);
	{
		const char *w[] = { want, "pop 0" };

		expect_events(NULL, w, 2);
	}
	tlc_nvtx_free(n);
}

/* Off: a NULL emitter is accepted everywhere and emits nothing; so does an
 * emitter that was never started (its calls fail, typed). */
static void test_off_emits_nothing(void **state)
{
	tlc_nvtx *idle = NULL;

	(void)state;
	assert_int_equal(tlc_nvtx_op_enter(NULL, "aten::mm", 0), 0);
	assert_int_equal(tlc_nvtx_internal_enter(NULL, "cupti_flush"), 0);
	assert_int_equal(tlc_nvtx_internal_exit(NULL, "cupti_flush"), 0);
	assert_int_equal(tlc_nvtx_op_exit(NULL, 0), 0);
	assert_false(tlc_nvtx_started(NULL));
	tlc_nvtx_free(NULL);
	assert_int_equal(tlc_nvtx_new(&idle), 0);
	assert_int_equal(tlc_nvtx_op_enter(idle, "aten::mm", 0), TLC_ESTATE);
	tlc_nvtx_free(idle);
	assert_int_equal(rec.count(), 0);
}

/* An op that raised never exited: free ends its ranges, innermost first. */
static void test_free_ends_open_ranges(void **state)
{
	tlc_nvtx *n = started();

	(void)state;
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::linear", 0), 0);
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::mm", 1), 0);
	tlc_nvtx_free(n);
	EXPECT("push 0 tlcost::aten::linear#0", "push 1 tlcost::aten::mm#1", "pop 1", "pop 0");
}

/* ------------------------------------------------------------------ */
/* Threads                                                              */
/* ------------------------------------------------------------------ */

#define ROUNDS 200

typedef struct worker {
	tlc_nvtx *n;
	int64_t base;
	pthread_t self;
	int failures;
} worker;

static void *work(void *arg)
{
	worker *w = arg;

	w->self = pthread_self();
	for (int r = 0; r < ROUNDS; r++) {
		w->failures += tlc_nvtx_op_enter(w->n, "aten::linear", w->base) != 0;
		w->failures += tlc_nvtx_op_enter(w->n, "aten::mm", w->base + 1) != 0;
		w->failures += tlc_nvtx_op_exit(w->n, w->base + 1) != 0;
		w->failures += tlc_nvtx_op_exit(w->n, w->base) != 0;
	}
	return NULL;
}

static void expect_worker(const worker *w)
{
	char a[64], b[64];
	const char *one[4] = { a, b, "pop 1", "pop 0" };
	const char **want = malloc(4 * ROUNDS * sizeof *want);

	assert_non_null(want);
	snprintf(a, sizeof a, "push 0 tlcost::aten::linear#%lld", (long long)w->base);
	snprintf(b, sizeof b, "push 1 tlcost::aten::mm#%lld", (long long)(w->base + 1));
	for (int r = 0; r < ROUNDS; r++)
		memcpy(&want[4 * r], one, sizeof one);
	expect_events(&w->self, want, 4 * ROUNDS);
	free(want);
}

/* Two threads nest their own ops on one emitter at the same time: each
 * thread's ranges nest as its own ops do. */
static void test_threads_nest_independently(void **state)
{
	tlc_nvtx *n = started();
	worker w[2];
	pthread_t t[2];

	(void)state;
	memset(w, 0, sizeof w);
	w[0].n = w[1].n = n;
	w[0].base = 10;
	w[1].base = 20;
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	assert_int_equal(w[0].failures + w[1].failures, 0);
	assert_int_equal(rec.count(), 2 * 4 * ROUNDS);
	expect_worker(&w[0]);
	expect_worker(&w[1]);
	tlc_nvtx_free(n);
}

static void *exit_elsewhere(void *arg)
{
	return (void *)(intptr_t)tlc_nvtx_op_exit(arg, 5);
}

/* A range belongs to the thread that entered it. */
static void test_exit_on_other_thread_refused(void **state)
{
	tlc_nvtx *n = started();
	pthread_t t;
	void *rc;

	(void)state;
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::mm", 5), 0);
	assert_int_equal(pthread_create(&t, NULL, exit_elsewhere, n), 0);
	assert_int_equal(pthread_join(t, &rc), 0);
	assert_int_equal((int)(intptr_t)rc, TLC_EINVAL);
	assert_string_equal(tlc_nvtx_error_get(n)->code, "nvtx_op_mismatch");
	assert_int_equal(tlc_nvtx_op_exit(n, 5), 0);
	EXPECT("push 0 tlcost::aten::mm#5", "pop 0");
	tlc_nvtx_free(n);
}

/* ------------------------------------------------------------------ */
/* The CUPTI session's ranges                                           */
/* ------------------------------------------------------------------ */

#ifdef TLC_HAVE_CUPTI
static tlc_cupti_session *cupti_with(tlc_nvtx *n)
{
	tlc_cupti_options o;
	tlc_cupti_session *s = NULL;

	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.nvtx = n;
	assert_int_equal(tlc_cupti_session_new(&s, &o), 0);
	return s;
}

/* Ops entered through the session get their ranges, also where CUPTI
 * cannot record (this machine has no GPU: the session is unavailable). */
static void test_cupti_named_ops(void **state)
{
	tlc_nvtx *n = started();
	tlc_cupti_session *s = cupti_with(n);
	int rc = tlc_cupti_start(s);

	(void)state;
	if (rc != TLC_EUNAVAILABLE) { /* a GPU: tests/gpu/e2e.cu covers it */
		tlc_cupti_session_free(s);
		tlc_nvtx_free(n);
		skip();
	}
	assert_int_equal(tlc_cupti_op_enter_named(s, 0, "aten::linear"), 0);
	assert_int_equal(tlc_cupti_op_enter_named(s, 1, "aten::mm"), 0);
	assert_int_equal(tlc_cupti_op_exit_named(s, 1), 0);
	assert_int_equal(tlc_cupti_op_exit_named(s, 0), 0);
	assert_int_equal(tlc_cupti_op_enter_named(s, 2, ""), TLC_EINVAL);
	assert_string_equal(tlc_cupti_session_error(s)->code, "cupti_op_invalid");
	assert_int_equal(tlc_cupti_op_enter_named(s, 2, NULL), TLC_EINVAL);
	/* a mismatched named exit carries the emitter's detail */
	assert_int_equal(tlc_cupti_op_exit_named(s, 9), TLC_EINVAL);
	assert_string_equal(tlc_cupti_session_error(s)->code, "nvtx_op_mismatch");
	assert_true(tlc_cupti_session_error(s)->remedy[0] != '\0');
	EXPECT("push 0 tlcost::aten::linear#0", "push 1 tlcost::aten::mm#1", "pop 1", "pop 0");
	assert_int_equal(tlc_cupti_stop(s), 0);
	tlc_cupti_session_free(s);
	tlc_nvtx_free(n);
}

/* The session's own work is under tlcost::internal::, one range per
 * buffer parsed, one for pairing at stop, one for writing the log. */
static void test_cupti_internal_ranges(void **state)
{
	tlc_nvtx *n = started();
	tlc_cupti_session *s = cupti_with(n);
	_Alignas(8) uint8_t empty[8];
	FILE *log = tmpfile();

	(void)state;
	assert_non_null(log);
	assert_int_equal(tlc_cupti_ingest(s, empty, 0, 0), 0);
	assert_int_equal(tlc_cupti_ingest(s, empty, 0, 0), 0);
	assert_int_equal(tlc_cupti_stop(s), 0);
	assert_int_equal(tlc_cupti_write_oplog(log, s), 0);
	EXPECT("push 0 tlcost::internal::cupti_buffer", "pop 0",
	       "push 0 tlcost::internal::cupti_buffer", "pop 0",
	       "push 0 tlcost::internal::cupti_build", "pop 0",
	       "push 0 tlcost::internal::cupti_write_oplog", "pop 0");
	fclose(log);
	tlc_cupti_session_free(s);
	tlc_nvtx_free(n);
}

/* Without an emitter the session emits nothing at all, named ops included. */
static void test_cupti_off_emits_nothing(void **state)
{
	tlc_cupti_session *s = cupti_with(NULL);
	tlc_cupti_session *replay = cupti_with(NULL);
	_Alignas(8) uint8_t empty[8];
	FILE *log = tmpfile();

	(void)state;
	assert_non_null(log);
	tlc_cupti_start(s);
	assert_int_equal(tlc_cupti_op_enter_named(s, 0, "aten::mm"), 0);
	assert_int_equal(tlc_cupti_op_exit_named(s, 0), 0);
	assert_int_equal(tlc_cupti_stop(s), 0);
	assert_int_equal(tlc_cupti_ingest(replay, empty, 0, 0), 0);
	assert_int_equal(tlc_cupti_stop(replay), 0);
	assert_int_equal(tlc_cupti_write_oplog(log, replay), 0);
	assert_int_equal(rec.count(), 0);
	fclose(log);
	tlc_cupti_session_free(s);
	tlc_cupti_session_free(replay);
}

static void test_cupti_refuses_unstarted_emitter(void **state)
{
	tlc_nvtx *n = NULL;
	tlc_cupti_options o;
	tlc_cupti_session *s = NULL;

	(void)state;
	assert_int_equal(tlc_nvtx_new(&n), 0);
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.nvtx = n;
	assert_int_equal(tlc_cupti_session_new(&s, &o), TLC_EINVAL);
	assert_null(s);
	/* an options struct of the layout before the nvtx field: no emitter */
	o.size = offsetof(tlc_cupti_options, nvtx);
	assert_int_equal(tlc_cupti_session_new(&s, &o), 0);
	tlc_cupti_session_free(s);
	tlc_nvtx_free(n);
}
/* ---- a RUNNING session, on the stand-in libcupti (tests/nvtx/fake_cupti.c) ---- */

static const char *fake_cupti(void)
{
	return getenv("TLC_TEST_FAKE_CUPTI");
}

/* Ids the calling thread still has on the fake's correlation stack. */
static size_t fake_depth(void)
{
	void *h = dlopen(fake_cupti(), RTLD_NOW | RTLD_NOLOAD);
	size_t (*fn)(void) = h ? (size_t (*)(void))dlsym(h, "tlc_test_fake_cupti_depth") : NULL;
	size_t d = fn ? fn() : (size_t)-1;

	if (h)
		dlclose(h);
	return d;
}

static tlc_cupti_session *running_with(tlc_nvtx *n)
{
	tlc_cupti_options o;
	tlc_cupti_session *s = NULL;

	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.library_path = fake_cupti();
	o.nvtx = n;
	assert_int_equal(tlc_cupti_session_new(&s, &o), 0);
	if (tlc_cupti_start(s) != 0)
		fail_msg("start on the fake libcupti: %s", tlc_cupti_session_error(s)->message);
	return s;
}

#define NEED_FAKE()                                                         \
	do {                                                                \
		if (!fake_cupti()) {                                        \
			print_message("TLC_TEST_FAKE_CUPTI unset\n");       \
			skip();                                             \
		}                                                           \
	} while (0)

/* Named ops on a running session: NVTX ranges nested as the ops, CUPTI's
 * stack balanced, then stop's own work under tlcost::internal::. */
static void test_cupti_running_named_ops(void **state)
{
	tlc_nvtx *n;
	tlc_cupti_session *s;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	(void)state;
	NEED_FAKE();
	n = started();
	s = running_with(n);
	assert_int_equal(tlc_cupti_op_enter_named(s, 0, "aten::linear"), 0);
	assert_int_equal(tlc_cupti_op_enter_named(s, 1, "aten::mm"), 0);
	assert_int_equal(fake_depth(), 2);
	assert_int_equal(tlc_cupti_op_exit_named(s, 1), 0);
	assert_int_equal(tlc_cupti_op_exit_named(s, 0), 0);
	assert_int_equal(fake_depth(), 0);
	assert_int_equal(tlc_cupti_stop(s), 0);
	assert_int_equal(tlc_cupti_ops_left_open(s), 0);
	assert_int_equal(tlc_cupti_get_summary(&m, s), 0);
	assert_int_equal(m.status, TLC_CUPTI_EMPTY); /* the fake records nothing */
	EXPECT("push 0 tlcost::aten::linear#0", "push 1 tlcost::aten::mm#1", "pop 1", "pop 0",
	       "push 0 tlcost::internal::cupti_flush", "pop 0",
	       "push 0 tlcost::internal::cupti_build", "pop 0");
	tlc_cupti_session_free(s);
	tlc_nvtx_free(n);
}

/* Ops an exception left open: stop pops their ids off this thread's CUPTI
 * stack and ends their NVTX ranges, innermost first, and counts them. */
static void test_cupti_ops_left_open(void **state)
{
	tlc_nvtx *n;
	tlc_cupti_session *s;

	(void)state;
	NEED_FAKE();
	n = started();
	s = running_with(n);
	assert_int_equal(tlc_cupti_op_enter_named(s, 5, "aten::div"), 0);
	assert_int_equal(tlc_cupti_op_enter(s, 6), 0); /* no NVTX range */
	assert_int_equal(fake_depth(), 2);
	assert_int_equal(tlc_cupti_stop(s), 0);
	assert_int_equal(tlc_cupti_ops_left_open(s), 2);
	assert_int_equal(fake_depth(), 0);
	EXPECT("push 0 tlcost::aten::div#5", "pop 0", "push 0 tlcost::internal::cupti_flush",
	       "pop 0", "push 0 tlcost::internal::cupti_build", "pop 0");
	tlc_cupti_session_free(s);
	tlc_nvtx_free(n);
}

/* Exits out of order and without an enter, and a second running session,
 * are refused typed. */
static void test_cupti_running_errors(void **state)
{
	tlc_cupti_session *s, *other = NULL;
	tlc_cupti_options o;

	(void)state;
	NEED_FAKE();
	s = running_with(NULL);
	assert_int_equal(tlc_cupti_op_exit(s, 3), TLC_ERROR);
	assert_string_equal(tlc_cupti_session_error(s)->code, "cupti_call_failed");
	assert_non_null(strstr(tlc_cupti_session_error(s)->message, "CUPTI_ERROR_QUEUE_EMPTY"));
	assert_int_equal(tlc_cupti_op_enter(s, 1), 0);
	assert_int_equal(tlc_cupti_op_enter(s, 2), 0);
	assert_int_equal(tlc_cupti_op_exit(s, 1), TLC_EINVAL);
	assert_string_equal(tlc_cupti_session_error(s)->code, "cupti_op_mismatch");
	assert_non_null(strstr(tlc_cupti_session_error(s)->message, "popped op 2"));
	assert_int_equal(tlc_cupti_op_exit(s, 1), 0); /* what is left is op 1 */
	assert_int_equal(fake_depth(), 0);
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.library_path = fake_cupti();
	assert_int_equal(tlc_cupti_session_new(&other, &o), 0);
	assert_int_equal(tlc_cupti_start(other), TLC_ESTATE);
	assert_string_equal(tlc_cupti_session_error(other)->code, "cupti_session_busy");
	tlc_cupti_session_free(other);
	assert_int_equal(tlc_cupti_stop(s), 0);
	assert_int_equal(tlc_cupti_ops_left_open(s), 0);
	assert_int_equal(rec.count(), 0); /* no emitter: nothing emitted */
	tlc_cupti_session_free(s);
}
#endif

static int run_inject(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_each_call_one_range, reset_recorder),
		cmocka_unit_test_setup(test_nesting_matches_ops, reset_recorder),
		cmocka_unit_test_setup(test_internal_ranges, reset_recorder),
		cmocka_unit_test_setup(test_mismatch, reset_recorder),
		cmocka_unit_test_setup(test_invalid_and_state, reset_recorder),
		cmocka_unit_test_setup(test_long_name, reset_recorder),
		cmocka_unit_test_setup(test_off_emits_nothing, reset_recorder),
		cmocka_unit_test_setup(test_free_ends_open_ranges, reset_recorder),
		cmocka_unit_test_setup(test_threads_nest_independently, reset_recorder),
		cmocka_unit_test_setup(test_exit_on_other_thread_refused, reset_recorder),
#ifdef TLC_HAVE_CUPTI
		cmocka_unit_test_setup(test_cupti_named_ops, reset_recorder),
		cmocka_unit_test_setup(test_cupti_internal_ranges, reset_recorder),
		cmocka_unit_test_setup(test_cupti_off_emits_nothing, reset_recorder),
		cmocka_unit_test_setup(test_cupti_refuses_unstarted_emitter, reset_recorder),
		cmocka_unit_test_setup(test_cupti_running_named_ops, reset_recorder),
		cmocka_unit_test_setup(test_cupti_ops_left_open, reset_recorder),
		cmocka_unit_test_setup(test_cupti_running_errors, reset_recorder),
#endif
	};

	return cmocka_run_group_tests_name("nvtx_inject", tests, setup_recorder, NULL);
}

/* ------------------------------------------------------------------ */
/* Refusals: nothing to emit to                                         */
/* ------------------------------------------------------------------ */

static const char *want_cause; /* a phrase the refusal's message must hold */

static void test_refusal(void **state)
{
	tlc_nvtx *n = NULL;
	const tlc_nvtx_error *e;

	(void)state;
	assert_int_equal(tlc_nvtx_new(&n), 0);
	assert_int_equal(tlc_nvtx_start(n), TLC_EUNAVAILABLE);
	e = tlc_nvtx_error_get(n);
	assert_int_equal(e->klass, TLC_EUNAVAILABLE);
	assert_string_equal(e->code, "emit_nvtx_unavailable");
	if (!strstr(e->message, want_cause))
		fail_msg("refusal '%s' does not say '%s'", e->message, want_cause);
	assert_true(strlen(e->remedy) > 0);
	assert_false(tlc_nvtx_started(n));
	/* refused means refused: ranges are not silently dropped either */
	assert_int_equal(tlc_nvtx_op_enter(n, "aten::mm", 0), TLC_ESTATE);
	assert_string_equal(tlc_nvtx_error_get(n)->code, "nvtx_state");
	/* asking again gives the same answer */
	assert_int_equal(tlc_nvtx_start(n), TLC_EUNAVAILABLE);
	tlc_nvtx_free(n);
}

/* Under a tool that takes marks but not ranges the library is loaded and
 * recorded nothing from us. */
static void test_refusal_emitted_nothing(void **state)
{
	(void)state;
	assert_int_equal(bind_recorder(), 0);
	assert_int_equal(rec.count(), 0);
}

static int run_refusal(const char *mode)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_refusal) };
	const struct CMUnitTest loaded_tests[] = {
		cmocka_unit_test(test_refusal),
		cmocka_unit_test(test_refusal_emitted_nothing),
	};
	const char *path = getenv("NVTX_INJECTION64_PATH");
	static char missing[600];

	if (!strcmp(mode, "refuse-unset"))
		want_cause = "NVTX_INJECTION64_PATH is not set";
	else if (!strcmp(mode, "refuse-missing") || !strcmp(mode, "refuse-init")) {
		snprintf(missing, sizeof missing, "names '%s', which is not loaded", path ? path : "");
		want_cause = missing;
	} else if (!strcmp(mode, "refuse-noranges"))
		want_cause = "does not take nvtxRangePushA and nvtxRangePop";
	else if (!strcmp(mode, "refuse-unbuilt"))
		want_cause = "built without the NVTX3 headers";
	else
		return fprintf(stderr, "test_nvtx: unknown mode '%s'\n", mode), 2;
	if (!strcmp(mode, "refuse-noranges"))
		return cmocka_run_group_tests_name("nvtx_refuse_noranges", loaded_tests, NULL, NULL);
	return cmocka_run_group_tests_name("nvtx_refuse", tests, NULL, NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "inject";

	if (!strcmp(mode, "features")) {
#ifdef TLC_HAVE_NVTX3
		puts("nvtx3");
#else
		puts("none");
#endif
		return 0;
	}
	if (!strcmp(mode, "inject"))
		return run_inject();
	return run_refusal(mode);
}
