/* Op log v1 reader: a good log read plain, gzip, from a file and from
 * memory gives identical records; every error of the spec is raised with its
 * code, line and column; hostile input (deep nesting, huge numbers, huge
 * lines, failing allocations) gives typed errors. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <zlib.h>
#include "tlcost/tlcost.h"
#include "../fixture.h"
#include "alloc.h"
#include "instream.h"
#include "oplog.h"

/* ---- helpers ---- */

#define fixture(name) fx_fixture("oplog", name)

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	unsigned char *p = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			p = realloc(p, cap);
			assert_non_null(p);
		}
		size_t got = fread(p + n, 1, cap - n, f);
		if (got == 0)
			break;
		n += got;
	}
	fclose(f);
	*len = n;
	return p;
}

/* Canonical text of every op, indexed by id, so that the order in which the
 * eval reports ops does not matter. */
#define MAX_IDS 16
typedef struct seen {
	char text[MAX_IDS][2048];
	int count;
	size_t big_list; /* length of the first argument when it is a list */
} seen;

static void put(char *b, size_t cap, const char *fmt, ...)
{
	size_t len = strlen(b);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b + len, cap - len, fmt, ap);
	va_end(ap);
}

static void put_value(char *b, size_t cap, const tlc_value *v)
{
	switch (v->kind) {
	case TLC_VALUE_NONE: put(b, cap, "N"); break;
	case TLC_VALUE_UNRECORDED: put(b, cap, "U"); break;
	case TLC_VALUE_BOOL: put(b, cap, "b%d", v->u.boolean); break;
	case TLC_VALUE_INT: put(b, cap, "i%lld", (long long)v->u.integer); break;
	case TLC_VALUE_FLOAT: put(b, cap, "f%g", v->u.real); break;
	case TLC_VALUE_STRING: put(b, cap, "s'%s'", v->u.string); break;
	case TLC_VALUE_TENSOR: {
		const tlc_tensor *t = &v->u.tensor;
		put(b, cap, "T[");
		for (size_t i = 0; i < t->ndim; i++)
			put(b, cap, "%s%lld", i ? "," : "", (long long)t->shape[i]);
		put(b, cap, "]%s#%d", t->dtype_name ? t->dtype_name : "-", (int)t->dtype);
		if (t->stride) {
			put(b, cap, "/s[");
			for (size_t i = 0; i < t->ndim; i++)
				put(b, cap, "%s%lld", i ? "," : "", (long long)t->stride[i]);
			put(b, cap, "]");
		}
		if (t->device)
			put(b, cap, "@%s", t->device);
		break;
	}
	case TLC_VALUE_LIST:
		put(b, cap, "L[");
		for (size_t i = 0; i < v->u.list.n; i++) {
			if (i)
				put(b, cap, ",");
			put_value(b, cap, &v->u.list.items[i]);
		}
		put(b, cap, "]");
		break;
	}
}

static void put_opt(char *b, size_t cap, const char *name, int has, int64_t v)
{
	if (has)
		put(b, cap, " %s=%lld", name, (long long)v);
}

static void on_op(const tlc_op *op, const tlc_op_row *row, void *payload)
{
	(void)row;
	seen *s = payload;
	s->count++;
	if (op->nargs && op->args[0].kind == TLC_VALUE_LIST)
		s->big_list = op->args[0].u.list.n;
	if (op->id < 0 || op->id >= MAX_IDS)
		return;
	char *b = s->text[op->id];
	size_t cap = sizeof s->text[0];
	b[0] = '\0';
	put(b, cap, "%s ov=%s ph=%d mod=%s mt=%s", op->name, op->overload ? op->overload : "-",
	    (int)op->phase, op->module ? op->module : "-", op->module_type ? op->module_type : "-");
	put_opt(b, cap, "mc", op->flags & TLC_OP_HAS_MODULE_CALL, op->module_call);
	put_opt(b, cap, "parent", op->flags & TLC_OP_HAS_PARENT, op->parent);
	put_opt(b, cap, "host", op->flags & TLC_OP_HAS_HOST_NS, op->host_ns);
	put_opt(b, cap, "start", op->flags & TLC_OP_HAS_START_NS, op->start_ns);
	put_opt(b, cap, "thread", op->flags & TLC_OP_HAS_THREAD, op->thread);
	put(b, cap, " corr=%lld args=(", (long long)op->correlation);
	for (size_t i = 0; i < op->nargs; i++) {
		if (i)
			put(b, cap, ",");
		put_value(b, cap, &op->args[i]);
	}
	put(b, cap, ") kw=(");
	for (size_t i = 0; i < op->nkwargs; i++) {
		put(b, cap, "%s%s:", i ? "," : "", op->kwargs[i].name);
		put_value(b, cap, &op->kwargs[i].value);
	}
	put(b, cap, ")");
	if (op->flags & TLC_OP_HAS_OUTPUTS) {
		put(b, cap, " out=(");
		for (size_t i = 0; i < op->noutputs; i++) {
			if (i)
				put(b, cap, ",");
			put_value(b, cap, &op->outputs[i]);
		}
		put(b, cap, ")");
	}
}

typedef struct ctx {
	tlc_engine *eng;
	tlc_eval *ev;
	seen s;
} ctx;

static void ctx_open(ctx *c, const tlc_allocator *alloc)
{
	memset(c, 0, sizeof *c);
	tlc_engine_options eo = { sizeof eo, TLC_ENGINE_NO_BUILTINS, alloc };
	assert_int_equal(tlc_engine_new(&c->eng, &eo), 0);
	tlc_eval_options o = { sizeof o, 0, on_op, &c->s };
	assert_int_equal(tlc_eval_new(&c->ev, c->eng, &o), 0);
}

static void ctx_close(ctx *c)
{
	tlc_eval_free(c->ev);
	tlc_engine_free(c->eng);
}

/* ---- the good log ---- */

/* Expected records of good.jsonl, written from the file by hand.
 * dtype enum numbers follow plugin.h: FLOAT64=1 FLOAT32=2 FLOAT16=3
 * BFLOAT16=4 INT64=9 BOOL=14 OTHER=15. Phases: forward=0 backward=1
 * optimizer=2 other=3. correlation defaults to id unless given (op 1). */
static const char *const expect_ops[] = {
	/* 0 */ "aten::linear ov=- ph=0 mod=fc mt=Linear mc=0 host=1500 start=100 thread=7 corr=0 "
	        "args=(T[8,16]float32#2/s[16,1]@cpu,T[4,16]float32#2,N) kw=() out=(T[8,4]float32#2)",
	/* 1 */ "aten::addmm ov=default ph=0 mod=fc mt=- parent=0 corr=99 "
	        "args=(T[4]bfloat16#4,T[8,16]float32#2,T[16,4]my_dtype#15) "
	        "kw=(beta:i1,alpha:f2.5,flag:b0,name:s'x',pad:L[i1,L[i2,i3]],none:N) "
	        "out=(T[8,4]float32#2)",
	/* 2 */ "aten::add ov=Tensor ph=1 mod= mt=- corr=2 "
	        "args=(T[]float64#1,i3,f-0.2,finf,f-inf,fnan,b1,s'h\xc3\xa9llo',L[],L[L[i1,i2],L[i3]],"
	        "T[0,5]bool#14) kw=() out=()",
	/* 3 */ "mylib::fused_gelu ov=- ph=2 mod=- mt=- host=5 corr=3 args=() kw=()",
	/* 4 */ "aten::view ov=- ph=0 mod=- mt=- parent=5 thread=-3 corr=4 "
	        "args=(T[2,3]float16#3,L[i6]) kw=()",
	/* 5 */ "aten::reshape ov=- ph=3 mod=- mt=- corr=5 args=(T[6]int64#9,L[i-1]) kw=()",
};

static void check_good(ctx *c)
{
	assert_int_equal(tlc_eval_finish(c->ev), 0);
	assert_int_equal(c->s.count, 6);
	for (size_t i = 0; i < sizeof expect_ops / sizeof expect_ops[0]; i++)
		assert_string_equal(c->s.text[i], expect_ops[i]);
	tlc_coverage cov = TLC_COVERAGE_INIT;
	assert_int_equal(tlc_eval_coverage(&cov, c->ev), 0);
	assert_int_equal(cov.rows, 6);
	assert_int_equal(cov.skipped, 1);        /* the "marker" record */
	assert_int_equal(cov.device_records, 4); /* kernel, memcpy, memset, runtime */
	const tlc_input_info *info = tlc_eval_info(c->ev);
	assert_string_equal(info->format, "tlcost-oplog");
	assert_string_equal(info->producer, "hand 1.0");
	assert_string_equal(info->model, "tiny");
	assert_string_equal(info->device, "cpu");
	assert_int_equal(info->params, 1234);
	assert_int_equal(info->tokens, 8);
	/* re-serialised: same tokens, the \n escape written as \u000a */
	assert_string_equal(info->meta_json,
	                    "{\"note\":\"a \\\"quoted\\\" \\\\ value\\u000a\","
	                    "\"list\":[1,2.5e0,true,null,{\"k\":\"v\"}],\"empty\":{},\"arr\":[]}");
}

/* ---- the fast path's records are yajl's ---- */

/* Every record of these logs, read with the SIMD fast path off
 * (TLCOST_JSON_FAST=0: yajl alone, the reference) and on, serialises the
 * same through on_op (every field, value, tensor, list and kwarg), and the
 * read ends the same. fast/op_shapes.jsonl holds the shapes the fast
 * path's record builder (tlc_json_fast__op) takes or declines: nulls for
 * absent fields, an explicit kind, tensor variants, kwargs of every value
 * kind, ignored fields of every kind, repeated fields, held parents, the
 * deepest nesting allowed, -0. */
static void read_with(const char *fast, const char *name, ctx *c, int *rc)
{
	setenv("TLCOST_JSON_FAST", fast, 1);
	ctx_open(c, NULL);
	*rc = tlc_oplog_read(c->ev, fixture(name));
	if (*rc == 0)
		*rc = tlc_eval_finish(c->ev);
	unsetenv("TLCOST_JSON_FAST");
}

static void test_fast_same_records(void **state)
{
	(void)state;
	static const char *const logs[] = {
		"good.jsonl", "fast/op_shapes.jsonl", "fast/kwargs.jsonl", "fast/dup_keys.jsonl",
		"fast/float_forms.jsonl", "fast/int_limits.jsonl", "fast/kind_late.jsonl",
		"fast/nested_unknown.jsonl", "fast/empty_key.jsonl", "fast/deep_dims65.jsonl",
		"fast/deep_unknown65.jsonl", "fast/deep_tensor_skip65.jsonl", "fast/od_accept.jsonl",
	};
	for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
		ctx *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
		assert_non_null(a);
		assert_non_null(b);
		int ra, rb;
		read_with("0", logs[i], a, &ra);
		read_with("1", logs[i], b, &rb);
		if (ra != rb || a->s.count != b->s.count)
			fail_msg("%s: yajl rc %d count %d, fast rc %d count %d", logs[i], ra, a->s.count,
			         rb, b->s.count);
		for (size_t k = 0; k < MAX_IDS; k++)
			if (strcmp(a->s.text[k], b->s.text[k]) != 0)
				fail_msg("%s: op %zu\nyajl: %s\nfast: %s", logs[i], k, a->s.text[k],
				         b->s.text[k]);
		ctx_close(a);
		ctx_close(b);
		free(a);
		free(b);
	}
}

static void test_good_file(void **state)
{
	(void)state;
	ctx c;
	ctx_open(&c, NULL);
	assert_int_equal(tlc_oplog_read(c.ev, fixture("good.jsonl")), 0);
	check_good(&c);
	ctx_close(&c);
}

static void test_good_gzip_file(void **state)
{
	(void)state;
	ctx c;
	ctx_open(&c, NULL);
	assert_int_equal(tlc_oplog_read(c.ev, fixture("good.jsonl.gz")), 0);
	check_good(&c);
	ctx_close(&c);
}

static void test_good_mem(void **state)
{
	(void)state;
	size_t n;
	unsigned char *p = slurp(fixture("good.jsonl"), &n);
	ctx c;
	ctx_open(&c, NULL);
	assert_int_equal(tlc_oplog_read_mem(c.ev, p, n, "good"), 0);
	check_good(&c);
	ctx_close(&c);
	free(p);
}

static void test_good_gzip_mem(void **state)
{
	(void)state;
	size_t n;
	unsigned char *p = slurp(fixture("good.jsonl.gz"), &n);
	ctx c;
	ctx_open(&c, NULL);
	assert_int_equal(tlc_oplog_read_mem(c.ev, p, n, "good.gz"), 0);
	check_good(&c);
	ctx_close(&c);
	free(p);
}

/* Two gzip members back to back are one stream (as `cat a.gz b.gz`). */
static void test_gzip_concatenated(void **state)
{
	(void)state;
	const char *part1 = "{\"format\":\"tlcost-oplog\",\"version\":1}\n{\"id\":0,\"op\":\"a::b\",";
	const char *part2 = "\"args\":[]}\n{\"id\":1,\"op\":\"a::c\",\"args\":[]}\n";
	unsigned char buf[1024];
	size_t len = 0;
	const char *parts[] = { part1, part2 };
	for (int i = 0; i < 2; i++) {
		z_stream z;
		memset(&z, 0, sizeof z);
		assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
		z.next_in = (Bytef *)(uintptr_t)parts[i];
		z.avail_in = (uInt)strlen(parts[i]);
		z.next_out = buf + len;
		z.avail_out = (uInt)(sizeof buf - len);
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		len = sizeof buf - z.avail_out;
		deflateEnd(&z);
	}
	ctx c;
	ctx_open(&c, NULL);
	assert_int_equal(tlc_oplog_read_mem(c.ev, buf, len, "cat.gz"), 0);
	assert_int_equal(tlc_eval_finish(c.ev), 0);
	assert_int_equal(c.s.count, 2);
	/* the same bytes cut short: the stream ends inside the second member's
	 * trailer, after the 3 lines were decompressed */
	ctx_close(&c);
	ctx_open(&c, NULL);
	assert_int_not_equal(tlc_oplog_read_mem(c.ev, buf, len - 6, "cut.gz"), 0);
	assert_string_equal(tlc_error_last()->code, "oplog_truncated");
	assert_int_equal(tlc_error_last()->line, 3);
	ctx_close(&c);
}

/* "-" reads standard input; errors then name "<stdin>". */
static void test_stdin(void **state)
{
	(void)state;
	int saved = dup(0);
	assert_true(saved >= 0);
	int fd = open(fixture("good.jsonl.gz"), O_RDONLY);
	assert_true(fd >= 0 && dup2(fd, 0) == 0);
	close(fd);
	ctx c;
	ctx_open(&c, NULL);
	assert_int_equal(tlc_oplog_read(c.ev, "-"), 0);
	check_good(&c);
	ctx_close(&c);
	fd = open(fixture("bad/negative_id.jsonl"), O_RDONLY);
	assert_true(fd >= 0 && dup2(fd, 0) == 0);
	close(fd);
	ctx_open(&c, NULL);
	assert_true(tlc_oplog_read(c.ev, "-") < 0);
	assert_string_equal(tlc_error_last()->file, "<stdin>");
	assert_int_equal(tlc_error_last()->line, 2);
	ctx_close(&c);
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
}

/* A UTF-8 byte order mark before the header is skipped; columns count from
 * after it. */
static void test_bom(void **state)
{
	(void)state;
	const char log[] = "\xef\xbb\xbf{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	                   "{\"id\":0,\"op\":\"a::b\",\"args\":[]}\n";
	ctx c;
	ctx_open(&c, NULL);
	assert_int_equal(tlc_oplog_read_mem(c.ev, log, sizeof log - 1, "bom"), 0);
	assert_int_equal(tlc_eval_finish(c.ev), 0);
	assert_int_equal(c.s.count, 1);
	ctx_close(&c);
	const char bad[] = "\xef\xbb\xbf{\"format\":2}\n";
	ctx_open(&c, NULL);
	assert_true(tlc_oplog_read_mem(c.ev, bad, sizeof bad - 1, "bom") < 0);
	/* header problems are reported at line 1, column 1 */
	assert_string_equal(tlc_error_last()->code, "oplog_header_invalid");
	assert_int_equal(tlc_error_last()->line, 1);
	assert_int_equal(tlc_error_last()->column, 1);
	ctx_close(&c);
}

/* Nested empty lists before any other value (the value stack is still
 * unallocated then; found by fuzzing as a null-pointer offset). */
static void test_empty_lists(void **state)
{
	(void)state;
	const char log[] = "{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	                   "{\"id\":0,\"op\":\"a::b\",\"args\":[[[]]],\"kwargs\":{\"k\":[]}}\n";
	ctx c;
	ctx_open(&c, NULL);
	assert_int_equal(tlc_oplog_read_mem(c.ev, log, sizeof log - 1, "lists"), 0);
	assert_int_equal(tlc_eval_finish(c.ev), 0);
	assert_string_equal(c.s.text[0], "a::b ov=- ph=0 mod=- mt=- corr=0 args=(L[L[]]) kw=(k:L[])");
	ctx_close(&c);
}

/* The device profiler's statement (docs/oplog-v1.md, "device_profiler"):
 * read, not skipped; failed_call and message joined as "call: message";
 * unknown fields (cupti_result, counts, nested objects) ignored; the last
 * statement wins; "status" on an op record is just an unknown op field. */
static void read_profiler(ctx *c, const char *lines)
{
	char log[2048];
	snprintf(log, sizeof log, "{\"format\":\"tlcost-oplog\",\"version\":1}\n%s", lines);
	ctx_open(c, NULL);
	if (tlc_oplog_read_mem(c->ev, log, strlen(log), "prof") < 0)
		fail_msg("%s: %s", tlc_error_last()->code, tlc_error_last()->message);
	assert_int_equal(tlc_eval_finish(c->ev), 0);
}

static void test_device_profiler(void **state)
{
	(void)state;
	ctx c;
	read_profiler(&c, "{\"id\":0,\"op\":\"a::b\",\"args\":[],\"status\":\"weird\",\"message\":7}\n"
	                  "{\"kind\":\"device_profiler\",\"source\":\"cupti\",\"status\":\"unavailable\","
	                  "\"failed_call\":\"cuptiActivityEnable(CUPTI_ACTIVITY_KIND_KERNEL)\","
	                  "\"cupti_result\":999,\"message\":\"CUPTI_ERROR_UNKNOWN\","
	                  "\"extra\":{\"a\":[1,{\"b\":null}]}}\n");
	const tlc_profiler_status *p = tlc_eval_profiler_status(c.ev);
	assert_int_equal(p->state, TLC_PROFILER_UNAVAILABLE);
	assert_string_equal(p->source, "cupti");
	assert_string_equal(p->message,
	                    "cuptiActivityEnable(CUPTI_ACTIVITY_KIND_KERNEL): CUPTI_ERROR_UNKNOWN");
	tlc_coverage cov = TLC_COVERAGE_INIT;
	assert_int_equal(tlc_eval_coverage(&cov, c.ev), 0);
	assert_int_equal(cov.rows, 1);
	assert_int_equal(cov.skipped, 0);        /* read, not skipped */
	assert_int_equal(cov.device_records, 0); /* never a record, never a launch */
	ctx_close(&c);

	static const struct { const char *line, *source, *message; tlc_profiler_state st; } t[] = {
		{ "{\"kind\":\"device_profiler\",\"status\":\"empty\"}\n", NULL, NULL,
		  TLC_PROFILER_EMPTY },
		{ "{\"kind\":\"device_profiler\",\"source\":\"cupti\",\"status\":\"partial\","
		  "\"lower_bound\":true,\"dropped\":12}\n", "cupti", NULL, TLC_PROFILER_PARTIAL },
		{ "{\"status\":\"complete\",\"kind\":\"device_profiler\",\"kernels\":3}\n", NULL, NULL,
		  TLC_PROFILER_COMPLETE },
		{ "{\"kind\":\"device_profiler\",\"status\":\"unavailable\",\"failed_call\":\"dlopen\"}\n",
		  NULL, "dlopen", TLC_PROFILER_UNAVAILABLE },
		{ "{\"kind\":\"device_profiler\",\"status\":\"unavailable\",\"message\":\"no GPU\"}\n",
		  NULL, "no GPU", TLC_PROFILER_UNAVAILABLE },
		/* the last statement wins */
		{ "{\"kind\":\"device_profiler\",\"status\":\"empty\"}\n"
		  "{\"kind\":\"device_profiler\",\"source\":\"x\",\"status\":\"complete\"}\n", "x", NULL,
		  TLC_PROFILER_COMPLETE },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		read_profiler(&c, t[i].line);
		p = tlc_eval_profiler_status(c.ev);
		assert_int_equal(p->state, t[i].st);
		if (t[i].source)
			assert_string_equal(p->source, t[i].source);
		else
			assert_null(p->source);
		if (t[i].message)
			assert_string_equal(p->message, t[i].message);
		else
			assert_null(p->message);
		ctx_close(&c);
	}
	/* no statement: unknown */
	read_profiler(&c, "{\"kind\":\"kernel\",\"name\":\"k\",\"start_ns\":0,\"end_ns\":1}\n");
	assert_int_equal(tlc_eval_profiler_status(c.ev)->state, TLC_PROFILER_UNKNOWN);
	ctx_close(&c);
}

/* ---- one bad file per error ---- */

typedef struct bad_case {
	const char *file;
	const char *code;
	uint64_t line, column;
	const char *in_message; /* a word the message must contain */
} bad_case;

/* Columns are 1-based: for a bad token, the column of its last byte (yajl
 * stops right after it); for a problem with the whole record (a missing
 * field, the header), 1; for a record that ends too early, one past the last
 * byte. Each was counted from the fixture text:
 *   parse_error     '}' where a value must be: 34 chars precede it -> 35
 *   two_values      the second '{' follows a 30-char object and a space -> 32
 *   split_record    '{"id":0,' is 8 bytes, the line ends at its '\n' -> 9
 *   field_type      '{"id":"7"' : the string "7" ends at byte 9
 *   negative_shape  '...[{"shape":[2,-3' : -3 ends at byte 48
 *   negative_id     '{"id":-1' : byte 8
 *   huge_int        '{"id":0,"op":"aten::relu","args":[' is 34 bytes, 20 digits -> 54
 *   deep_nesting    record and args are 2 levels; the 63rd '[' after args'
 *                   '[' (byte 34) would be level 65 > 64 -> byte 97
 *   tensor_no_shape the tensor '{"dtype":"float32"}' ends at byte 34+19 = 53
 *   device_type     '...,"device":"cuda:0"' ends at byte 45
 *   duplicate_id    detected when the 36-byte record closes -> 36
 *   truncated       the last line has 46 bytes and no end -> 47 */
static const bad_case bad_cases[] = {
	{ "parse_error.jsonl", "oplog_parse_error", 2, 35, "JSON" },
	{ "not_object.jsonl", "oplog_parse_error", 3, 1, "not a JSON object" },
	{ "two_values.jsonl", "oplog_parse_error", 2, 32, "more than one" },
	{ "split_record.jsonl", "oplog_parse_error", 2, 9, "one line" },
	{ "header_missing.jsonl", "oplog_header_invalid", 1, 1, "format" },
	{ "header_format.jsonl", "oplog_header_invalid", 1, 1, "tlcost-trace" },
	{ "version.jsonl", "oplog_version_unsupported", 1, 1, "version 2" },
	{ "empty.jsonl", "oplog_header_invalid", 1, 1, "empty" },
	{ "field_missing.jsonl", "oplog_field_invalid", 2, 1, "op" },
	{ "field_type.jsonl", "oplog_field_invalid", 3, 9, "id" },
	{ "negative_shape.jsonl", "oplog_field_invalid", 2, 48, "args[0].shape[1]" },
	{ "negative_id.jsonl", "oplog_field_invalid", 2, 8, "id" },
	{ "huge_int.jsonl", "oplog_field_invalid", 2, 54, "args[0]" },
	{ "deep_nesting.jsonl", "oplog_field_invalid", 2, 97, "nesting" },
	{ "tensor_no_shape.jsonl", "oplog_field_invalid", 2, 53, "shape" },
	{ "device_type.jsonl", "oplog_field_invalid", 2, 45, "device" },
	{ "phase.jsonl", "oplog_field_invalid", 2, 1, "sideways" },
	/* device_profiler: '{"kind":"device_profiler","source":"cupti","status":"broken"'
	 * ends at byte 60; a status before "kind" is checked when the record
	 * closes (column 1); '{"kind":"device_profiler","status":3' : byte 36 */
	{ "profiler_status.jsonl", "oplog_field_invalid", 2, 60, "broken" },
	{ "profiler_status_late.jsonl", "oplog_field_invalid", 2, 1, "Complete" },
	{ "profiler_status_type.jsonl", "oplog_field_invalid", 2, 36, "status" },
	{ "profiler_no_status.jsonl", "oplog_field_invalid", 2, 1, "status" },
	{ "duplicate_id.jsonl", "oplog_duplicate_id", 3, 36, "0" },
	{ "truncated.jsonl", "oplog_truncated", 3, 47, "nothing after line 3" },
	/* a one-line object cut (60 bytes, no newline) before it said either
	 * "format":"tlcost-oplog" or "traceEvents": both are named; a header cut
	 * after its format (30 bytes) is an op log's */
	{ "trace_cut_early.json", "input_truncated", 1, 61, "traceEvents" },
	{ "header_cut.jsonl", "oplog_truncated", 1, 31, "nothing after line 1" },
};

static void test_bad_files(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		const bad_case *bc = &bad_cases[i];
		ctx c;
		ctx_open(&c, NULL);
		char name[256];
		snprintf(name, sizeof name, "bad/%s", bc->file);
		const char *path = fixture(name);
		int rc = tlc_oplog_read(c.ev, path);
		const tlc_error *e = tlc_error_last();
		print_message("%s: rc=%d %s %llu:%llu %s\n", bc->file, rc, e->code,
		              (unsigned long long)e->line, (unsigned long long)e->column, e->message);
		assert_true(rc < 0);
		assert_int_equal(rc, e->klass);
		assert_string_equal(e->code, bc->code);
		assert_non_null(e->file);
		assert_string_equal(e->file, path);
		assert_int_equal(e->line, bc->line);
		assert_int_equal(e->column, bc->column);
		assert_non_null(strstr(e->message, bc->in_message));
		assert_true(e->remedy && e->remedy[0]);
		ctx_close(&c);
	}
}

/* The reader accepts these; tlc_eval_finish then finds the bad parents. */
static void test_parent_errors(void **state)
{
	(void)state;
	const char *files[] = { "bad/parent_unknown.jsonl", "bad/parent_cycle.jsonl" };
	/* the error is raised at finish, positioned at the earliest held record:
	 * line 2 in both files (op 0 naming parent 7; op 1 of the 1<->2 cycle) */
	for (size_t i = 0; i < 2; i++) {
		ctx c;
		ctx_open(&c, NULL);
		assert_int_equal(tlc_oplog_read(c.ev, fixture(files[i])), 0);
		assert_true(tlc_eval_finish(c.ev) < 0);
		assert_string_equal(tlc_error_last()->code, "oplog_parent_unknown");
		assert_int_equal(tlc_error_last()->line, 2);
		assert_non_null(tlc_error_last()->file);
		assert_non_null(strstr(tlc_error_last()->file, files[i] + 4));
		ctx_close(&c);
	}
}

static void test_io_error(void **state)
{
	(void)state;
	ctx c;
	ctx_open(&c, NULL);
	assert_int_equal(tlc_oplog_read(c.ev, "/nonexistent/x.jsonl"), TLC_EIO);
	assert_string_equal(tlc_error_last()->code, "io_error");
	assert_string_equal(tlc_error_last()->file, "/nonexistent/x.jsonl");
	assert_true(tlc_error_last()->remedy[0] != '\0');
	/* a directory opens but cannot be read */
	assert_int_equal(tlc_oplog_read(c.ev, "/"), TLC_EIO);
	assert_string_equal(tlc_error_last()->code, "io_error");
	ctx_close(&c);
}

static void test_corrupt_gzip(void **state)
{
	(void)state;
	size_t n;
	unsigned char *p = slurp(fixture("good.jsonl.gz"), &n);
	p[n / 2] ^= 0xff; /* flip a byte in the deflate data */
	p[n / 2 + 1] ^= 0x55;
	ctx c;
	ctx_open(&c, NULL);
	int rc = tlc_oplog_read_mem(c.ev, p, n, "bad.gz");
	assert_true(rc < 0);
	/* either inflate rejects the block or the CRC check fails */
	assert_string_equal(tlc_error_last()->code, "gzip_corrupt");
	ctx_close(&c);
	free(p);
}

/* ---- size limits ---- */

static char *big_log(size_t nints, size_t *len)
{
	const char *head = "{\"format\":\"tlcost-oplog\",\"version\":1}\n"
	                   "{\"id\":0,\"op\":\"a::big\",\"args\":[[";
	const char *tail = "]]}\n";
	size_t cap = strlen(head) + nints * 8 + strlen(tail) + 1;
	char *s = malloc(cap);
	assert_non_null(s);
	size_t n = (size_t)sprintf(s, "%s", head);
	for (size_t i = 0; i < nints; i++)
		n += (size_t)sprintf(s + n, "%s%zu", i ? "," : "", i % 100000);
	n += (size_t)sprintf(s + n, "%s", tail);
	*len = n;
	return s;
}

/* A record line of several megabytes reads fine (no fixed line buffer). */
static void test_huge_line(void **state)
{
	(void)state;
	size_t len;
	char *s = big_log(1000000, &len);
	assert_true(len > 5 * 1024 * 1024);
	ctx c;
	ctx_open(&c, NULL);
	assert_int_equal(tlc_oplog_read_mem(c.ev, s, len, "big"), 0);
	assert_int_equal(tlc_eval_finish(c.ev), 0);
	assert_int_equal(c.s.big_list, 1000000);
	ctx_close(&c);
	free(s);
}

/* Above the line limit: a typed error, not unbounded memory. */
static void test_line_limit(void **state)
{
	(void)state;
	size_t len;
	char *s = big_log(1000, &len);
	ctx c;
	ctx_open(&c, NULL);
	tlc_instream *in;
	assert_int_equal(tlc_instream__open_mem(&in, tlc_alloc__default(), s, len, "lim"), 0);
	assert_int_equal(tlc_oplog__read_stream(c.ev, in, 1024), TLC_EINPUT);
	assert_string_equal(tlc_error_last()->code, "oplog_line_too_long");
	assert_int_equal(tlc_error_last()->line, 2);
	tlc_instream__close(in);
	ctx_close(&c);
	free(s);
}

/* ---- allocation failures ---- */

typedef struct failing {
	long count, fail_at;
} failing;

static void *f_malloc(size_t n, void *p)
{
	failing *f = p;
	return ++f->count == f->fail_at ? NULL : malloc(n);
}

static void *f_realloc(void *q, size_t n, void *p)
{
	failing *f = p;
	return ++f->count == f->fail_at ? NULL : realloc(q, n);
}

static void f_free(void *q, void *p)
{
	(void)p;
	free(q);
}

/* Failing each allocation in turn gives out_of_memory or success, never a
 * crash or a leak (run under valgrind). */
static void test_alloc_failures(void **state)
{
	(void)state;
	size_t n;
	unsigned char *gz = slurp(fixture("good.jsonl.gz"), &n);
	int succeeded = 0;
	for (long k = 1; k < 5000 && !succeeded; k++) {
		failing f = { 0, 0 };
		tlc_allocator a = { f_malloc, f_realloc, f_free, &f };
		ctx c;
		ctx_open(&c, &a);
		f.fail_at = f.count + k;
		int rc = tlc_oplog_read_mem(c.ev, gz, n, "good.gz");
		if (rc == 0) {
			succeeded = f.count < f.fail_at;
		} else {
			assert_int_equal(rc, TLC_ENOMEM);
			assert_string_equal(tlc_error_last()->code, "out_of_memory");
		}
		ctx_close(&c);
	}
	assert_true(succeeded);
	free(gz);
}

/* ---- format detection ---- */

static void test_input_detects_oplog(void **state)
{
	(void)state;
	ctx c;
	ctx_open(&c, NULL);
	assert_int_equal(tlc_input_read(c.ev, fixture("good.jsonl.gz")), 0);
	check_good(&c);
	ctx_close(&c);
	/* a broken op log header still goes to the op log reader */
	ctx_open(&c, NULL);
	assert_true(tlc_input_read(c.ev, fixture("bad/version.jsonl")) < 0);
	assert_string_equal(tlc_error_last()->code, "oplog_version_unsupported");
	ctx_close(&c);
}

/* Traces (a bare array, or an object with traceEvents, usually over many
 * lines) go to the trace reader: whatever it says, it is not the op log
 * reader's complaint. */
static void test_input_detects_trace(void **state)
{
	(void)state;
	const char *docs[] = {
		"[]",
		"{\"schemaVersion\":1,\"traceEvents\":[]}",
		"{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n  ]\n}\n",
	};
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		char path[] = "/tmp/tlc_test_oplog_XXXXXX";
		int fd = mkstemp(path);
		assert_true(fd >= 0);
		FILE *f = fdopen(fd, "w");
		assert_non_null(f);
		fputs(docs[i], f);
		fclose(f);
		ctx c;
		ctx_open(&c, NULL);
		int rc = tlc_input_read(c.ev, path);
		if (rc < 0)
			assert_null(strstr(tlc_error_last()->code, "oplog_"));
		ctx_close(&c);
		remove(path);
	}
}

/* Sniffed (tlc_input_read), the cut one-line object is no more an op log
 * than a trace: the error says both, not oplog_truncated. */
static void test_sniff_cut_object(void **state)
{
	(void)state;
	ctx c;
	ctx_open(&c, NULL);
	assert_true(tlc_input_read(c.ev, fixture("bad/trace_cut_early.json")) < 0);
	assert_string_equal(tlc_error_last()->code, "input_truncated");
	assert_non_null(strstr(tlc_error_last()->message, "op log header"));
	assert_non_null(strstr(tlc_error_last()->message, "\"traceEvents\""));
	ctx_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_file),
		cmocka_unit_test(test_sniff_cut_object),
		cmocka_unit_test(test_good_gzip_file),
		cmocka_unit_test(test_good_mem),
		cmocka_unit_test(test_good_gzip_mem),
		cmocka_unit_test(test_gzip_concatenated),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_bom),
		cmocka_unit_test(test_empty_lists),
		cmocka_unit_test(test_device_profiler),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_parent_errors),
		cmocka_unit_test(test_io_error),
		cmocka_unit_test(test_corrupt_gzip),
		cmocka_unit_test(test_huge_line),
		cmocka_unit_test(test_line_limit),
		cmocka_unit_test(test_alloc_failures),
		cmocka_unit_test(test_input_detects_oplog),
		cmocka_unit_test(test_input_detects_trace),
		cmocka_unit_test(test_fast_same_records),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
