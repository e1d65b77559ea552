/* The annotated trace's second pass (engine/report/annotate_write.c) when
 * the bytes it reads are not the ones the first pass evaluated: the model
 * is built from one trace and the copy reads another. Each such case is
 * annotate_input_changed (never a guess, a crash or a silent skip); the
 * same trace copies (rc 0) with one insertion per op event. */
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
#include "annotate.h"
#include "eval.h"

#define OP(ts, id) \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":" #ts \
	",\"dur\":2,\"args\":{\"External id\":" #id ",\"Input Dims\":[[2,2],[2,2]]," \
	"\"Input type\":[\"float\",\"float\"]}}"
#define KERNEL "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":50,\"dur\":1}"

static const char evaluated[] = "{\"traceEvents\":[" OP(1, 1) "," KERNEL "," OP(5, 2) "," OP(9, 3) "]}";

typedef struct tcase {
	const char *name;
	const char *second; /* what the second pass reads */
	int rc;             /* 0 or TLC_EINPUT (annotate_input_changed) */
} tcase;

static const tcase cases[] = {
	{ "same bytes", evaluated, 0 },
	{ "an op event gone", "{\"traceEvents\":[" OP(1, 1) "," KERNEL "," OP(9, 3) "]}", TLC_EINPUT },
	{ "ends early", "{\"traceEvents\":[" OP(1, 1) "," KERNEL "," OP(5, 2), TLC_EINPUT },
	{ "no event array", "{\"otherEvents\":[" OP(1, 1) "]}", TLC_EINPUT },
	{ "fewer events", "{\"traceEvents\":[" OP(1, 1) "]}", TLC_EINPUT },
	{ "a stray bracket", "{\"traceEvents\":[]}]}", TLC_EINPUT },
};

static char *write_temp(const char *text)
{
	const char *dir = getenv("TMPDIR");
	char *path = malloc(256);
	assert_non_null(path);
	snprintf(path, 256, "%s/tlc-annotate-test-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	size_t n = strlen(text);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
	return path;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

static void test_second_pass(void **state)
{
	(void)state;
	tlc_engine *eng;
	assert_int_equal(tlc_engine_new(&eng, NULL), 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const tcase *c = &cases[i];
		tlc_eval_options eo = { sizeof eo, 1, NULL, NULL };
		tlc_eval *ev;
		assert_int_equal(tlc_eval_new(&ev, eng, &eo), 0);
		tlc_eval__want_source_keys(ev);
		assert_int_equal(tlc_trace_read_mem(ev, evaluated, sizeof evaluated - 1, "t"), 0);
		assert_int_equal(tlc_eval_finish(ev), 0);
		tlc_annot_model m;
		assert_int_equal(tlc_annotate__model_build(&m, ev), 0);
		assert_int_equal(m.nitems, 3);
		char *path = write_temp(c->second);
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);
		assert_non_null(out);
		tlc_annotate_summary s = TLC_ANNOTATE_SUMMARY_INIT;
		int rc = tlc_annotate__copy(out, 0, path, &m, &s);
		fclose(out);
		if (rc != c->rc)
			fail_msg("%s: rc %d, expected %d", c->name, rc, c->rc);
		if (rc < 0) {
			assert_string_equal(tlc_error_last()->code, "annotate_input_changed");
		} else {
			assert_int_equal(s.events, 4);
			assert_int_equal(s.ops, 3);
			assert_int_equal(count(buf, "\"tlcost.class\":\"known\""), 3);
			/* 2*2*2 = 8 MACs per mm, 16 FLOPs */
			assert_int_equal(count(buf, "\"tlcost.flops\":16,"), 3);
		}
		free(buf);
		unlink(path);
		free(path);
		tlc_annotate__model_free(&m);
		tlc_eval_free(ev);
	}
	tlc_engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_second_pass),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
