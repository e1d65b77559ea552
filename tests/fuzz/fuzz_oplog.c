/* libFuzzer target: the op log v1 reader and everything behind it.
 *
 * The reader has two parsers: the SIMD fast path (engine/input/json_fast.h)
 * and yajl, which reads whatever the fast path declines. Each input is also
 * read with the fast path off (TLCOST_JSON_FAST=0) and on: the outcome (the
 * error's class, code, position and message, or the flops JSON) must be
 * byte-identical, or the target aborts. */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What a user would see of reading data: the flops JSON or the error. */
static char *outcome(const uint8_t *data, size_t size, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	tlc_eval *ev;
	if (!f || tlc_eval_new(&ev, fuzz_engine(), NULL) < 0)
		abort();
	int rc = tlc_oplog_read_mem(ev, data, size, "fuzz-input");
	if (rc == 0)
		rc = tlc_eval_finish(ev);
	if (rc == 0)
		rc = tlc_write_flops(f, ev, TLC_FORMAT_JSON);
	if (rc < 0) {
		const tlc_error *e = tlc_error_last();
		fprintf(f, "error %d %s %llu:%llu %s", e->klass, e->code, (unsigned long long)e->line,
		        (unsigned long long)e->column, e->message);
	}
	tlc_eval_free(ev);
	fclose(f);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_run(tlc_oplog_read_mem, data, size);

	size_t na, nb;
	setenv("TLCOST_JSON_FAST", "0", 1);
	char *a = outcome(data, size, &na);
	unsetenv("TLCOST_JSON_FAST");
	char *b = outcome(data, size, &nb);
	if (na != nb || memcmp(a, b, na) != 0) {
		fprintf(stderr, "fuzz_oplog: yajl and the fast path differ:\n--- yajl\n%s\n--- fast\n%s\n",
		        a, b);
		abort();
	}
	free(a);
	free(b);
	return 0;
}
