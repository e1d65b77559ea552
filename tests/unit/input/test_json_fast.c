/* The op-log boundary of the SIMD fast path (engine/input/json/json_fast.h,
 * tlc_json_fast__parse then tlc_json_fast__op) on its own: which lines its
 * record builder takes, and what it builds from them; which it declines
 * (the reader then reads them through the events or with yajl, which is
 * where their errors come from: tests/cli/json_fast_same.sh and test_oplog's
 * test_fast_same_records compare both paths on the same lines, among them
 * tests/fixtures/oplog/fast/od_*, the traps of a parser that validates
 * only what it reads, such as simdjson On-Demand).
 *
 * The expectations are read off the JSON texts below by hand: the fields
 * and values each line spells, and for each declined line the reason yajl
 * or the events would give (docs/oplog-v1.md). Without simdjson the
 * builder declines everything and the test is skipped (77). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tlcost/tlcost.h"
#include "json_fast.h"

/* the record's memory: a bump arena, reset per line */
static unsigned char arena[1 << 16] __attribute__((aligned(16)));
static size_t used;

static void *t_alloc(void *ctx, size_t n)
{
	(void)ctx;
	n = (n + 15) & ~(size_t)15;
	if (n > sizeof arena - used)
		return NULL;
	void *p = arena + used;
	used += n;
	return p;
}

static void t_dtype(void *ctx, const char *s, size_t n, tlc_tensor *t)
{
	(void)ctx;
	assert_int_equal(strlen(s), n); /* NUL-terminated where it lies */
	t->dtype_name = s;
	t->dtype = tlc_dtype_parse(s);
}

static const tlc_json_op_sink sink = { NULL, t_alloc, t_dtype, 64, NULL, NULL };

/* tlc_json_fast__op on text; the text must come back unmodified. */
static int op_of(tlc_json_fast *j, const char *text, tlc_op *op)
{
	size_t n = strlen(text);
	char *copy = malloc(n + 1);
	assert_non_null(copy);
	memcpy(copy, text, n + 1);
	used = 0;
	int rc = tlc_json_fast__parse(j, (const unsigned char *)copy, n, n);
	if (rc == TLC_JSON_FAST_OK)
		rc = tlc_json_fast__op(j, &sink, op);
	assert_string_equal(copy, text);
	free(copy);
	return rc;
}

static tlc_json_fast *fast_or_skip(void)
{
	tlc_json_fast *j = tlc_json_fast__new();
	if (!j) {
		print_message("no SIMD fast path in this build: skipped\n");
		exit(77);
	}
	return j;
}

static void test_plain_record(void **state)
{
	(void)state;
	tlc_json_fast *j = fast_or_skip();
	tlc_op op;
	const char *line =
		"{\"id\":7,\"op\":\"aten::mm\",\"overload\":\"default\",\"phase\":\"backward\","
		"\"args\":[{\"shape\":[2,3],\"dtype\":\"float32\",\"stride\":[3,1],\"device\":\"cuda:0\"},"
		"{\"shape\":[3,4],\"dtype\":\"float32\",\"numel\":12},null,true,-0,1.5,\"inf\",\"s\","
		"[1,[2]]],\"kwargs\":{\"alpha\":2},\"outputs\":[{\"shape\":[2,4],\"dtype\":\"float32\"}],"
		"\"host_ns\":5,\"start_ns\":-3,\"thread\":9,"
		"\"extra\":{\"a\":[1e300,18446744073709551615,null,\"x\",false]}}\n";
	assert_int_equal(op_of(j, line, &op), TLC_JSON_FAST_OK);
	assert_int_equal(op.id, 7);
	assert_string_equal(op.name, "aten::mm");
	assert_string_equal(op.overload, "default");
	assert_int_equal(op.phase, TLC_PHASE_BACKWARD);
	assert_null(op.module);
	assert_int_equal(op.correlation, 7); /* not given: the id */
	assert_int_equal(op.flags, TLC_OP_HAS_OUTPUTS | TLC_OP_HAS_HOST_NS | TLC_OP_HAS_START_NS |
	                               TLC_OP_HAS_THREAD);
	assert_int_equal(op.host_ns, 5);
	assert_int_equal(op.start_ns, -3);
	assert_int_equal(op.thread, 9);
	assert_int_equal(op.nargs, 9);
	const tlc_tensor *t = &op.args[0].u.tensor;
	assert_int_equal(op.args[0].kind, TLC_VALUE_TENSOR);
	assert_int_equal(t->ndim, 2);
	assert_int_equal(t->shape[0], 2);
	assert_int_equal(t->shape[1], 3);
	assert_int_equal(t->stride[0], 3);
	assert_int_equal(t->stride[1], 1);
	assert_string_equal(t->dtype_name, "float32");
	assert_int_equal(t->dtype, TLC_DTYPE_FLOAT32);
	assert_string_equal(t->device, "cuda:0");
	assert_int_equal(op.args[1].u.tensor.shape[1], 4);
	assert_null(op.args[1].u.tensor.stride);
	assert_int_equal(op.args[2].kind, TLC_VALUE_NONE);
	assert_int_equal(op.args[3].kind, TLC_VALUE_BOOL);
	assert_int_equal(op.args[3].u.boolean, 1);
	assert_int_equal(op.args[4].kind, TLC_VALUE_INT); /* -0: the integer 0, as yajl reads it */
	assert_int_equal(op.args[4].u.integer, 0);
	assert_int_equal(op.args[5].kind, TLC_VALUE_FLOAT);
	assert_true(op.args[5].u.real == 1.5);
	assert_int_equal(op.args[6].kind, TLC_VALUE_FLOAT);
	assert_true(isinf(op.args[6].u.real) && op.args[6].u.real > 0);
	assert_int_equal(op.args[7].kind, TLC_VALUE_STRING);
	assert_string_equal(op.args[7].u.string, "s");
	assert_int_equal(op.args[8].kind, TLC_VALUE_LIST);
	assert_int_equal(op.args[8].u.list.n, 2);
	assert_int_equal(op.args[8].u.list.items[0].u.integer, 1);
	assert_int_equal(op.args[8].u.list.items[1].kind, TLC_VALUE_LIST);
	assert_int_equal(op.args[8].u.list.items[1].u.list.items[0].u.integer, 2);
	assert_int_equal(op.nkwargs, 1);
	assert_string_equal(op.kwargs[0].name, "alpha");
	assert_int_equal(op.kwargs[0].value.u.integer, 2);
	assert_int_equal(op.noutputs, 1);
	assert_int_equal(op.outputs[0].u.tensor.shape[1], 4);
	tlc_json_fast__free(j);
}

/* Whitespace everywhere JSON allows it; keys that merely start like known
 * ones are ignored; numbers at the edges of int64 and of the 18 digits
 * read without simdjson's number parser. */
static void test_spaces_and_edges(void **state)
{
	(void)state;
	tlc_json_fast *j = fast_or_skip();
	tlc_op op;
	const char *line = " { \"i\" : 1 , \"id\" : 1 ,\t\"o\":\"x\", \"op\" : \"y z\" , \"arg\" : [ 5 ] ,"
	                   " \"args\" : [ { \"shape\" : [ 2 , 3 ] , \"shapes\" : [ ] , \"dtype\" : "
	                   "\"f\" } , [ ] , 999999999999999999 , 1234567890123456789 ,"
	                   " -9223372036854775808 , 1.00000000000000011102230246251565404236316680908203125"
	                   " ] , \"kwargs\" : { \"k\" : 1 , \"k\" : 2 } , \"correlation\" : -4 }\r\n";
	assert_int_equal(op_of(j, line, &op), TLC_JSON_FAST_OK);
	assert_int_equal(op.id, 1);
	assert_string_equal(op.name, "y z");
	assert_int_equal(op.correlation, -4);
	assert_int_equal(op.nargs, 6);
	assert_int_equal(op.args[0].u.tensor.ndim, 2);
	assert_int_equal(op.args[0].u.tensor.shape[1], 3);
	assert_string_equal(op.args[0].u.tensor.dtype_name, "f");
	assert_int_equal(op.args[1].kind, TLC_VALUE_LIST);
	assert_int_equal(op.args[1].u.list.n, 0);
	assert_int_equal(op.args[2].u.integer, 999999999999999999LL);
	assert_int_equal(op.args[3].u.integer, 1234567890123456789LL);
	assert_true(op.args[4].u.integer == INT64_MIN);
	/* more than 19 significant digits: the double nearest, 1 (as strtod) */
	assert_int_equal(op.args[5].kind, TLC_VALUE_FLOAT);
	assert_true(op.args[5].u.real == 1.0);
	assert_int_equal(op.nkwargs, 2); /* a repeated kwarg stays twice, as the events keep it */
	assert_string_equal(op.kwargs[0].name, "k");
	assert_int_equal(op.kwargs[1].value.u.integer, 2);
	/* shape entries: -0 is the integer 0 (yajl reads it so, and 0 is not
	 * negative); 19 digits still fit int64 */
	assert_int_equal(op_of(j, "{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[-0,1234567890123456789]}]}",
	                       &op), TLC_JSON_FAST_OK);
	assert_int_equal(op.args[0].u.tensor.ndim, 2);
	assert_int_equal(op.args[0].u.tensor.shape[0], 0);
	assert_int_equal(op.args[0].u.tensor.shape[1], 1234567890123456789LL);
	tlc_json_fast__free(j);
}

/* Lines the builder must not take. Each comment says what yajl or the
 * events make of it (an error, or a record the builder does not build). */
static const char *const declined[] = {
	/* values On-Demand would not check unless read: invalid in an ignored field */
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":tru}",           /* literal */
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":{\"a\":[1,nul]}}", /* nested literal */
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":falsey}",
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":012}",          /* leading zero */
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":-}",
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":1.}",
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":+1}",
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":{\"a\":1 \"b\":2}}", /* missing comma */
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":{\"a\" 1}}",      /* missing colon */
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":[1,2}}",          /* brackets that do not match */
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":[1,2,]}",         /* trailing comma */
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":\"a\xff\"}",      /* invalid UTF-8 */
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":1e400}",          /* yajl: inf; simdjson: out of range */
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":18446744073709551616}", /* yajl: big; simdjson: refused */
	/* what follows the object */
	"{\"id\":0,\"op\":\"x\",\"args\":[]} x",
	"{\"id\":0,\"op\":\"x\",\"args\":[]}}",
	"{\"id\":0,\"op\":\"x\",\"args\":[]},",
	"{\"id\":0,\"op\":\"x\",\"args\":[]}{\"id\":1,\"op\":\"x\",\"args\":[]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[]",                        /* unclosed */
	"{\"id\":0,\"op\":\"x\"y,\"args\":[]}",                      /* garbage after a string */
	/* a string followed by ':' where a ',' must be: On-Demand skips such a
	 * string, not consumed, as a key (found by fuzz_oplog in an On-Demand
	 * builder, tests/fuzz/regress/oplog-ondemand-string-colon.jsonl) */
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"kwargs\":{\"t\":\"m\":[3],\"u\":1}}",
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"e\":{\"a\":\"b\":1}}",
	"{\"id\":0,\"op\":\"x\":1,\"args\":[]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[\"a\":1]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[2],\"dtype\":\"f\":1}]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[\"a\":1]}]}",
	/* numbers yajl reads as big integers or doubles where an integer must be */
	"{\"id\":0,\"op\":\"x\",\"args\":[9223372036854775808]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[18446744073709551616]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[-9223372036854775809]}",
	"{\"id\":9223372036854775808,\"op\":\"x\",\"args\":[]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[truex]}",
	/* shapes and strides */
	"{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[2,3},\"dtype\":\"f\"}]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[[2],3]}]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[2,,3]}]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[2e0]}]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[-1]}]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[2],\"stride\":[01]}]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[2],\"stride\":[1,1]}]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[2],\"shape\":[3]}]}",
	"{\"id\":0,\"op\":\"x\",\"args\":[{\"dtype\":\"f\"}]}",       /* no shape */
	"{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[2],\"numel\":-1}]}",
	/* records the events read (other kinds, extensions, repeated fields) */
	"{\"kind\":\"kernel\",\"start_ns\":1,\"end_ns\":2,\"name\":\"k\"}",
	"{\"id\":0,\"op\":\"x\",\"args\":[null],\"unrecorded\":[0]}",
	"{\"id\":0,\"id\":1,\"op\":\"x\",\"args\":[]}",
	"{\"id\":0,\"op\":\"x\"}",
	"{\"id\":0,\"op\":\"x\",\"args\":[],\"phase\":\"sideways\"}",
	"{\"id\":-1,\"op\":\"x\",\"args\":[]}",
	"{\"id\":0,\"op\":1,\"args\":[]}",
	"{\"format\":\"tlcost-oplog\",\"version\":1}",
	"[1]",
	"",
};

static void test_declined(void **state)
{
	(void)state;
	tlc_json_fast *j = fast_or_skip();
	tlc_op op;
	for (size_t i = 0; i < sizeof declined / sizeof declined[0]; i++)
		if (op_of(j, declined[i], &op) != TLC_JSON_FAST_DECLINED)
			fail_msg("taken, but must be declined: %s", declined[i]);
	/* nesting: 64 frames are the reader's bound (record = 1, args = 2) */
	char deep[512];
	int n = snprintf(deep, sizeof deep, "{\"id\":0,\"op\":\"x\",\"args\":[");
	for (int d = 0; d < 62; d++)
		deep[n++] = '[';
	for (int d = 0; d < 62; d++)
		deep[n++] = ']';
	snprintf(deep + n, sizeof deep - n, "]}");
	assert_int_equal(op_of(j, deep, &op), TLC_JSON_FAST_OK); /* 2 + 62 = 64 frames */
	n = snprintf(deep, sizeof deep, "{\"id\":0,\"op\":\"x\",\"args\":[");
	for (int d = 0; d < 63; d++)
		deep[n++] = '[';
	for (int d = 0; d < 63; d++)
		deep[n++] = ']';
	snprintf(deep + n, sizeof deep - n, "]}");
	assert_int_equal(op_of(j, deep, &op), TLC_JSON_FAST_DECLINED);
	/* a text longer than TLC_JSON_FAST_MAX_TEXT */
	size_t big = TLC_JSON_FAST_MAX_TEXT + 1;
	char *huge = malloc(big + 1);
	assert_non_null(huge);
	memset(huge, ' ', big);
	memcpy(huge, "{\"id\":0,\"op\":\"x\",\"args\":[]}", 27);
	huge[big] = '\0';
	assert_int_equal(op_of(j, huge, &op), TLC_JSON_FAST_DECLINED);
	free(huge);
	/* and after all of that, a plain line is still taken */
	assert_int_equal(op_of(j, "{\"id\":3,\"op\":\"x\",\"args\":[]}", &op), TLC_JSON_FAST_OK);
	assert_int_equal(op.id, 3);
	assert_null(op.args);
	tlc_json_fast__free(j);
}

/* The record's memory refused: declined, never a crash. */
static void test_no_memory(void **state)
{
	(void)state;
	tlc_json_fast *j = fast_or_skip();
	tlc_op op;
	used = sizeof arena; /* full: every allocation is refused */
	const char *line = "{\"id\":0,\"op\":\"x\",\"args\":[{\"shape\":[2],\"dtype\":\"f\"}]}";
	static const tlc_json_op_sink none = { NULL, t_alloc, t_dtype, 64, NULL, NULL };
	int rc = tlc_json_fast__parse(j, (const unsigned char *)line, strlen(line), strlen(line));
	assert_int_equal(rc, TLC_JSON_FAST_OK);
	rc = tlc_json_fast__op(j, &none, &op);
	assert_int_equal(rc, TLC_JSON_FAST_DECLINED);
	tlc_json_fast__free(j);
}

/* ---- lines parsed as one batch (tlc_json_fast__batch) ----
 * A line read from the batch is not parsed again (json_fast.h): a line
 * overwritten after __batch still reads as it was when the batch read it,
 * while a line parsed alone reads as it is now. That tells the two ways
 * apart; the expected ids are those the lines below spell. */

/* __parse then __op of the line at buf[from..from+n): its id, or -1 when
 * declined. */
static int64_t id_at(tlc_json_fast *j, char *buf, size_t from, size_t n, size_t cap)
{
	tlc_op op;
	used = 0;
	if (tlc_json_fast__parse(j, (const unsigned char *)buf + from, n, cap - from) != TLC_JSON_FAST_OK)
		return -1;
	if (tlc_json_fast__op(j, &sink, &op) != TLC_JSON_FAST_OK)
		return -1;
	return (int64_t)op.id;
}

#define LINE(id) "{\"id\":" #id ",\"op\":\"x\",\"args\":[]}\n"

/* buf: the lines one after the other, then spaces; at[i]: where line i starts */
static size_t lay_out(char *buf, size_t cap, const char *const *lines, size_t n, size_t *at)
{
	size_t len = 0;
	memset(buf, ' ', cap);
	for (size_t i = 0; i < n; i++) {
		at[i] = len;
		memcpy(buf + len, lines[i], strlen(lines[i]));
		len += strlen(lines[i]);
	}
	at[n] = len;
	return len;
}

static void test_batch(void **state)
{
	(void)state;
	tlc_json_fast *j = fast_or_skip();
	static char buf[4096];
	static const char *const lines[] = {
		LINE(1), LINE(2), "  " LINE(3),
		"{\"id\":4,\"op\":\"x\",\"args\":[]}{}\n", /* two texts on a line */
		"{\"id\":5,\"op\":\"x\",\n", "\"args\":[]}\n", /* one text over two lines */
		LINE(6), LINE(7)
	};
	size_t at[9], n = lay_out(buf, sizeof buf, lines, 8, at);
#define ID(i) id_at(j, buf, at[i], at[(i) + 1] - at[i], sizeof buf)
	assert_int_equal(tlc_json_fast__batch(j, (const unsigned char *)buf, n, sizeof buf),
	                 TLC_JSON_FAST_OK);
	buf[at[0] + 6] = '9'; /* line 1 now says id 9, after the batch read it: still 1 */
	assert_int_equal(ID(0), 1);
	assert_int_equal(ID(1), 2);
	assert_int_equal(ID(2), 3); /* leading spaces */
	assert_int_equal(ID(3), -1); /* declined, alone too */
	assert_int_equal(ID(4), -1);
	assert_int_equal(ID(5), -1);
	buf[at[6] + 6] = '8'; /* line 6 says 8 now: read from the batch, still 6 */
	assert_int_equal(ID(6), 6);
	/* an earlier line asked again: parsed alone, as it is now (id 9) */
	assert_int_equal(ID(0), 9);
	/* a batch ended by a call of length 0: its bytes are read afresh */
	assert_int_equal(tlc_json_fast__batch(j, (const unsigned char *)buf, 0, sizeof buf),
	                 TLC_JSON_FAST_DECLINED);
	buf[at[7] + 6] = '5'; /* line 7 says 5 */
	assert_int_equal(ID(7), 5);
	/* no padding after the batch, or longer than the window: no batch */
	assert_int_equal(tlc_json_fast__batch(j, (const unsigned char *)buf, n, n + 63),
	                 TLC_JSON_FAST_DECLINED);
	assert_int_equal(tlc_json_fast__batch(j, (const unsigned char *)buf, TLC_JSON_FAST_BATCH + 1,
	                                      TLC_JSON_FAST_BATCH + 65),
	                 TLC_JSON_FAST_DECLINED);
	tlc_json_fast__free(j);
}

/* A batch whose stage 1 fails (a raw control byte inside a string: the
 * line ends inside it) reads nothing; each line is then parsed alone. */
static void test_batch_refused(void **state)
{
	(void)state;
	tlc_json_fast *j = fast_or_skip();
	static char buf[4096];
	static const char *const lines[] = { LINE(1), "{\"id\":2,\"op\":\"x\n", LINE(3) };
	size_t at[4], n = lay_out(buf, sizeof buf, lines, 3, at);
	(void)tlc_json_fast__batch(j, (const unsigned char *)buf, n, sizeof buf);
	buf[at[0] + 6] = '7'; /* parsed alone, as it is now */
	assert_int_equal(ID(0), 7);
	assert_int_equal(ID(1), -1);
	assert_int_equal(ID(2), 3);
#undef ID
	tlc_json_fast__free(j);
}

/* The reader's bump region (sink cur/end): what fits is carved from it,
 * 8-byte rounded, the rest comes through alloc. The line needs its args
 * (2 values) and two shapes of 2 entries (16 bytes each). */
static void test_region(void **state)
{
	(void)state;
	tlc_json_fast *j = fast_or_skip();
	static unsigned char region[4096] __attribute__((aligned(16)));
	unsigned char *cur = region, *end = region + sizeof region;
	tlc_json_op_sink s = { NULL, t_alloc, t_dtype, 64, &cur, &end };
	const char *line = "{\"id\":3,\"op\":\"aten::add\",\"args\":[{\"shape\":[2,3],\"dtype\":"
	                   "\"float32\"},{\"shape\":[2,3],\"dtype\":\"float32\"}]}";
	tlc_op op;
	used = 0;
	assert_int_equal(tlc_json_fast__parse(j, (const unsigned char *)line, strlen(line), strlen(line)),
	                 TLC_JSON_FAST_OK);
	assert_int_equal(tlc_json_fast__op(j, &s, &op), TLC_JSON_FAST_OK);
	assert_int_equal(used, 0); /* nothing through alloc */
	assert_int_equal(op.nargs, 2);
	assert_true((const unsigned char *)op.args >= region &&
	            (const unsigned char *)(op.args + 2) <= cur);
	assert_int_equal(op.args[1].u.tensor.ndim, 2);
	assert_int_equal(op.args[1].u.tensor.shape[0], 2);
	assert_int_equal(op.args[1].u.tensor.shape[1], 3);
	assert_int_equal((size_t)(cur - region) % 8, 0);
	/* a region too small for anything: all through alloc, region untouched */
	unsigned char *small = region + 4;
	cur = small;
	end = small + 4;
	assert_int_equal(tlc_json_fast__op(j, &s, &op), TLC_JSON_FAST_OK);
	assert_ptr_equal(cur, small);
	assert_true(used > 0);
	assert_int_equal(op.args[0].u.tensor.shape[1], 3);
	tlc_json_fast__free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_record),
		cmocka_unit_test(test_spaces_and_edges),
		cmocka_unit_test(test_declined),
		cmocka_unit_test(test_no_memory),
		cmocka_unit_test(test_batch),
		cmocka_unit_test(test_batch_refused),
		cmocka_unit_test(test_region),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
