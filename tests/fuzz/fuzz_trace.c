/* libFuzzer target: the Kineto trace reader and everything behind it.
 *
 * The reader has two parsers for the events of the traceEvents array: the
 * SIMD fast path (engine/input/json_fast.h, trace section) and yajl, which
 * reads the rest of the document and every event the fast path declines.
 * Each input is also read with the fast path off (TLCOST_JSON_FAST=0), on,
 * and on with a small window (TLCOST_TRACE_WINDOW, from the input's last
 * byte: windows that cut events, tokens and separators anywhere): the
 * outcome (the error's class, code, position and message, or the flops and
 * join JSON) must be byte-identical, or the target aborts. */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What a user would see of reading data: the flops and join JSON or the
 * error. */
static char *outcome(const uint8_t *data, size_t size, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	tlc_eval *ev;
	if (!f || tlc_eval_new(&ev, fuzz_engine(), &o) < 0)
		abort();
	int rc = tlc_trace_read_mem(ev, data, size, "fuzz-input");
	if (rc == 0)
		rc = tlc_eval_finish(ev);
	if (rc == 0)
		rc = tlc_write_flops(f, ev, TLC_FORMAT_JSON);
	tlc_join *j = NULL;
	if (rc == 0 && (rc = tlc_join_run(&j, ev, NULL)) == 0)
		rc = tlc_write_join(f, j, ev, TLC_FORMAT_JSON);
	if (rc < 0) {
		const tlc_error *e = tlc_error_last();
		fprintf(f, "error %d %s %llu:%llu %s", e->klass, e->code, (unsigned long long)e->line,
		        (unsigned long long)e->column, e->message);
	}
	tlc_join_free(j);
	tlc_eval_free(ev);
	fclose(f);
	return buf;
}

static void same(const char *what, const char *a, size_t na, const char *b, size_t nb)
{
	if (na != nb || memcmp(a, b, na) != 0) {
		fprintf(stderr, "fuzz_trace: yajl and the fast path (%s) differ:\n--- yajl\n%s\n"
		        "--- fast\n%s\n", what, a, b);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_run(tlc_trace_read_mem, data, size);

	size_t na, nb, nc;
	char window[16];
	snprintf(window, sizeof window, "%u", size ? 1u + data[size - 1] % 97u : 1u);
	setenv("TLCOST_JSON_FAST", "0", 1);
	char *a = outcome(data, size, &na);
	unsetenv("TLCOST_JSON_FAST");
	char *b = outcome(data, size, &nb);
	setenv("TLCOST_TRACE_WINDOW", window, 1);
	char *c = outcome(data, size, &nc);
	unsetenv("TLCOST_TRACE_WINDOW");
	same("whole", a, na, b, nb);
	same("window", a, na, c, nc);
	free(a);
	free(b);
	free(c);
	return 0;
}
