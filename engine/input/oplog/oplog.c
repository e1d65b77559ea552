/* Op log v1 reader (the contract: spec/oplog-v1.md): streaming JSON Lines,
 * plain or gzip.
 *
 * Design. One yajl handle (multiple values allowed) parses the byte stream
 * directly; the reader cuts the stream at '\n' only to know line numbers and
 * to check that every line holds exactly one object. yajl callbacks build
 * the record in place: scalars into per-field slots, argument values on
 * value stacks that are reused from record to record, and everything that
 * the tlc_op points to in an arena that is reset per record. So memory is
 * bounded by the largest record, not by the number of records, and there is
 * no malloc per op in the steady state.
 *
 * Errors found inside a callback are kept pending (the callback returns 0 and
 * yajl stops); the column is known only once yajl_parse returns, from
 * yajl_get_bytes_consumed. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>
#include "alloc.h"
#include "error.h"
#include "eval.h"
#include "instream.h"
#include "oplog.h"
#include "json_fast.h"
#include "jsontext.h"

/* The event handlers are inlined into each yajl callback, where the event
 * type is a constant: each callback then has its own small dispatch on the
 * frame, which the branch predictor learns far better than one shared jump
 * over every event. */
#if defined(__GNUC__)
#define HOT_INLINE static inline __attribute__((always_inline))
#else
#define HOT_INLINE static inline
#endif

/* ---- fields ---- */

enum key {
	K_NONE = 0,
	/* records */
	K_KIND, K_ID, K_OP, K_OVERLOAD, K_PHASE, K_MODULE, K_MODULE_TYPE, K_MODULE_CALL,
	K_PARENT, K_ARGS, K_KWARGS, K_OUTPUTS, K_HOST_NS, K_START_NS, K_END_NS, K_THREAD,
	K_CORRELATION, K_NAME, K_DEVICE, K_STREAM, K_BYTES, K_EXTERNAL_ID,
	K_STATUS, K_SOURCE, K_MESSAGE, K_FAILED_CALL, /* device_profiler */
	K_GRAPH_ID, K_GRAPH_NODE, K_NODE, K_ORIGINAL, /* graph replays (CUPTI) */
	K_UNRECORDED, /* extension: args positions whose value was not recorded */
	K_ARGS_OBSERVED, /* extension: a profiler listed every argument */
	/* header */
	K_FORMAT, K_VERSION, K_PRODUCER, K_MODEL, K_PARAMS, K_TOKENS, K_META,
	/* tensor objects */
	T_SHAPE, T_DTYPE, T_STRIDE, T_DEVICE, T_NUMEL,
	K_COUNT
};

typedef struct keydef {
	const char *name;
	unsigned char len, key;
} keydef;

#define KD(s, k) { s, sizeof(s) - 1, k }
/* Key names, for messages (record_key and tensor_key below must agree with
 * these tables); the header's few keys are looked up by a scan of its
 * table. */
static const keydef record_keys[] = {
	KD("args", K_ARGS), KD("id", K_ID), KD("op", K_OP), KD("outputs", K_OUTPUTS),
	KD("module", K_MODULE), KD("module_type", K_MODULE_TYPE), KD("phase", K_PHASE),
	KD("overload", K_OVERLOAD), KD("host_ns", K_HOST_NS), KD("kwargs", K_KWARGS),
	KD("parent", K_PARENT), KD("module_call", K_MODULE_CALL), KD("start_ns", K_START_NS),
	KD("thread", K_THREAD), KD("correlation", K_CORRELATION), KD("kind", K_KIND),
	KD("end_ns", K_END_NS), KD("name", K_NAME), KD("device", K_DEVICE),
	KD("stream", K_STREAM), KD("bytes", K_BYTES), KD("external_id", K_EXTERNAL_ID),
	KD("status", K_STATUS), KD("source", K_SOURCE), KD("message", K_MESSAGE),
	KD("failed_call", K_FAILED_CALL), KD("unrecorded", K_UNRECORDED),
	KD("args_observed", K_ARGS_OBSERVED), KD("graph_id", K_GRAPH_ID),
	KD("graph_node", K_GRAPH_NODE), KD("node", K_NODE), KD("original", K_ORIGINAL),
};
static const keydef header_keys[] = {
	KD("format", K_FORMAT), KD("version", K_VERSION), KD("producer", K_PRODUCER),
	KD("model", K_MODEL), KD("device", K_DEVICE), KD("params", K_PARAMS),
	KD("tokens", K_TOKENS), KD("meta", K_META),
};
static const keydef tensor_keys[] = {
	KD("shape", T_SHAPE), KD("dtype", T_DTYPE), KD("stride", T_STRIDE),
	KD("device", T_DEVICE), KD("numel", T_NUMEL),
};

static const char *key_name(int k)
{
	static const keydef *const tabs[] = { record_keys, header_keys, tensor_keys };
	static const size_t ns[] = { sizeof record_keys / sizeof record_keys[0],
		                     sizeof header_keys / sizeof header_keys[0],
		                     sizeof tensor_keys / sizeof tensor_keys[0] };
	for (size_t t = 0; t < 3; t++)
		for (size_t i = 0; i < ns[t]; i++)
			if (tabs[t][i].key == k)
				return tabs[t][i].name;
	return "?";
}

static int lookup(const keydef *tab, size_t n, const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (tab[i].len == len && memcmp(tab[i].name, s, len) == 0)
			return tab[i].key;
	return K_NONE;
}

/* The record and tensor keys are looked up for every field of every record:
 * a switch on the length leaves one or two fixed-size compares. */
#define IS(lit) (memcmp(s, lit, sizeof(lit) - 1) == 0)
static int record_key(const unsigned char *s, size_t n)
{
	switch (n) {
	case 2: return IS("id") ? K_ID : IS("op") ? K_OP : K_NONE;
	case 4:
		return IS("args") ? K_ARGS : IS("kind") ? K_KIND : IS("name") ? K_NAME
		     : IS("node") ? K_NODE : K_NONE;
	case 5: return IS("phase") ? K_PHASE : IS("bytes") ? K_BYTES : K_NONE;
	case 6:
		return IS("module") ? K_MODULE : IS("parent") ? K_PARENT : IS("kwargs") ? K_KWARGS
		     : IS("thread") ? K_THREAD : IS("end_ns") ? K_END_NS : IS("device") ? K_DEVICE
		     : IS("stream") ? K_STREAM : IS("status") ? K_STATUS : IS("source") ? K_SOURCE
		     : K_NONE;
	case 7:
		return IS("outputs") ? K_OUTPUTS : IS("host_ns") ? K_HOST_NS
		     : IS("message") ? K_MESSAGE : K_NONE;
	case 8:
		return IS("overload") ? K_OVERLOAD : IS("start_ns") ? K_START_NS
		     : IS("graph_id") ? K_GRAPH_ID : IS("original") ? K_ORIGINAL : K_NONE;
	case 10:
		return IS("unrecorded") ? K_UNRECORDED : IS("graph_node") ? K_GRAPH_NODE : K_NONE;
	case 11:
		return IS("module_type") ? K_MODULE_TYPE : IS("module_call") ? K_MODULE_CALL
		     : IS("correlation") ? K_CORRELATION : IS("external_id") ? K_EXTERNAL_ID
		     : IS("failed_call") ? K_FAILED_CALL : K_NONE;
	case 13: return IS("args_observed") ? K_ARGS_OBSERVED : K_NONE;
	default: return K_NONE;
	}
}

static int tensor_key(const unsigned char *s, size_t n)
{
	if (n == 5)
		return IS("shape") ? T_SHAPE : IS("dtype") ? T_DTYPE : IS("numel") ? T_NUMEL : K_NONE;
	if (n == 6)
		return IS("stride") ? T_STRIDE : IS("device") ? T_DEVICE : K_NONE;
	return K_NONE;
}
#undef IS

/* ---- JSON events ---- */

enum jtype { J_NULL = 1, J_BOOL, J_INT, J_BIGINT, J_FLOAT, J_STR, J_MAP, J_ARRAY };

typedef struct jev {
	int t;
	int b;
	int64_t i;
	double d;
	const unsigned char *s; /* string bytes, or number text */
	size_t n;
} jev;

static const char *jtype_name(int t)
{
	switch (t) {
	case J_NULL: return "null";
	case J_BOOL: return "a boolean";
	case J_INT: return "an integer";
	case J_BIGINT: return "an integer out of the 64-bit range";
	case J_FLOAT: return "a non-integer number";
	case J_STR: return "a string";
	case J_MAP: return "an object";
	default: return "an array";
	}
}

/* ---- reader state ---- */

enum frame_kind {
	FR_RECORD, FR_ARGS, FR_OUTPUTS, FR_KWARGS, FR_LIST, FR_TENSOR, FR_DIMS, FR_SKIP,
	FR_META_MAP, FR_META_ARR
};

typedef struct frame {
	unsigned char kind, key, first;
	size_t vbase; /* value-stack height when the frame opened */
	size_t ibase; /* FR_DIMS: where its entries start in the int chunk */
} frame;

typedef struct slot {
	int t;
	int64_t i;
	const char *s; /* NUL-terminated arena copy */
} slot;

enum rec_kind { KD_UNSEEN = 0, KD_OP, KD_DEVICE, KD_PROFILER, KD_ANNOTATION, KD_GRAPH_NODE,
	        KD_OTHER };

#define DTYPE_CACHE 8
typedef struct dtype_entry {
	char name[24];
	size_t len;
	tlc_dtype dtype;
} dtype_entry;

typedef struct reader {
	tlc_eval *ev;
	const tlc_allocator *a;
	const char *file;
	yajl_handle y;
	tlc_arena arena;
	uint64_t max_line;
	int yajl_oom; /* an allocation of yajl's was refused */

	frame fr[TLC_OPLOG_MAX_DEPTH];
	int depth;

	/* the record being read */
	int is_header;
	int kind;
	tlc_device_kind dkind;
	uint64_t present; /* bit per enum key */
	slot slots[K_COUNT];
	size_t args_base, nargs, outputs_base, noutputs; /* on the value stack */
	const int64_t *unrec; /* the "unrecorded" positions (in the int chunks) */
	size_t nunrec;
	size_t nkwargs;                                  /* on the kwarg stack */
	const char *kwname;
	tlc_tensor tensor;
	int tensor_has_shape;
	size_t nstride;
	int meta_done;

	/* stacks reused across records */
	tlc_value *vals;
	size_t nvals, capvals;
	tlc_kwarg *kws;
	size_t nkws, capkws;
	unsigned char *bcur, *bend; /* see bump() */
	int64_t *ints; /* shape/stride entries: a chunk of the record's arena */
	size_t nints, capints;
	tlc_sb meta;
	dtype_entry dtypes[DTYPE_CACHE];
	int ndtypes;

	/* position */
	uint64_t line;     /* 1-based */
	uint64_t first_line; /* where the input's first line other than whitespace is */
	uint64_t line_len; /* bytes of this line fed before the current parse call */
	int line_objects;
	int seen_header;

	uint64_t max_held; /* records held for a later parent (0: no bound) */
	uint64_t max_held_bytes; /* bytes those records take (0: no bound) */
	/* pending error */
	int err;          /* klass of a pending error to set, 0 when none */
	int err_set;      /* the thread's error is already set: only locate it */
	int pushed;       /* the current record reached the evaluation (fast path:
	                     an error after that must not make yajl push it again) */
	const char *err_code;
	uint64_t err_col; /* explicit column, 0 = from the bytes consumed */
	char msg[480];

	tlc_jsontext text;   /* the strings of what yajl is handed (jsontext.h) */
	tlc_json_fast *fast; /* the SIMD fast path for whole lines, or NULL */
	int fast_escapes;    /* the line on the fast path has a backslash */
	const unsigned char *plain_from, *plain_to; /* bytes of the chunk without one */
	int strings_stay;    /* strings and keys of the events are NUL-terminated and
	                        stay until the line's record is pushed (fast path) */
} reader;

static const char *remedy_for(const char *code)
{
	if (!strcmp(code, "oplog_parse_error"))
		return "each line of an op log must be one complete JSON object: fix or "
		       "regenerate the file at the position shown";
	if (!strcmp(code, "oplog_header_invalid"))
		return "the first line must be an op log header such as "
		       "{\"format\":\"tlcost-oplog\",\"version\":1}: regenerate the file with a "
		       "writer of op log v1";
	if (!strcmp(code, "oplog_version_unsupported"))
		return "write the log as op log version 1, or use a tlcost release that "
		       "reads this version";
	if (!strcmp(code, "held_records_exceeded"))
		return "if the log is genuine, raise the limit with --max-held-records N (or "
		       "tlc_input_limits), or write parents before their children; otherwise the "
		       "log is hostile";
	if (!strcmp(code, "held_bytes_exceeded"))
		return "if the log is genuine, raise the limit with --max-held-bytes N (or "
		       "tlc_input_limits), or write parents before their children; otherwise the "
		       "log is hostile";
	if (!strcmp(code, "oplog_string_nul"))
		return "remove the \\u0000 from the string: a name or field that holds a NUL "
		       "cannot be carried whole (it would be cut at the NUL and counted under "
		       "another name); fix the writer of the log";
	if (!strcmp(code, "oplog_utf8_invalid"))
		return "write the log as UTF-8 (RFC 8259), and a \\u escape of a surrogate only as "
		       "a pair (\\ud83d\\ude00): fix the writer of the log; tlcost does not replace "
		       "what it cannot read, since a replaced name is another op";
	if (!strcmp(code, "oplog_line_too_long"))
		return "check that the file is an op log (one JSON object per line); split "
		       "huge records";
	return "fix the field at the position shown (the record fields are listed in "
	       "the op log v1 format page) or regenerate the log";
}

/* Records an error to raise once yajl returns. Returns 0 (stop parsing). */
static int fail(reader *r, int klass, const char *code, uint64_t col, const char *fmt, ...)
	TLC_PRINTF(5, 6);
static int fail(reader *r, int klass, const char *code, uint64_t col, const char *fmt, ...)
{
	if (r->err || r->err_set)
		return 0;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof r->msg, fmt, ap);
	va_end(ap);
	r->err = klass;
	r->err_code = code;
	r->err_col = col;
	return 0;
}

static int fail_oom(reader *r)
{
	tlc_error__oom();
	r->err_set = 1;
	return 0;
}

/* Where in the record we are, e.g. "args[1].shape[2]" or "kwargs.alpha". */
static void field_path(reader *r, char *buf, size_t cap)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int d = 0; d < r->depth && len < cap; d++) {
		const frame *f = &r->fr[d];
		size_t next = d + 1 < r->depth ? r->fr[d + 1].vbase : r->nvals;
		int n = 0;
		switch (f->kind) {
		case FR_TENSOR:
			if (f->key == K_NONE)
				break;
			/* fall through */
		case FR_RECORD:
			n = snprintf(buf + len, cap - len, "%s%s", d ? "." : "", key_name(f->key));
			break;
		case FR_ARGS:
		case FR_OUTPUTS:
		case FR_LIST:
			n = snprintf(buf + len, cap - len, "[%zu]", next - f->vbase);
			break;
		case FR_KWARGS:
			n = snprintf(buf + len, cap - len, ".%s", r->kwname ? r->kwname : "?");
			break;
		case FR_DIMS:
			n = snprintf(buf + len, cap - len, "[%zu]", r->nints - f->ibase);
			break;
		default:
			break;
		}
		if (n < 0)
			break;
		len += (size_t)n;
	}
}

static int field_fail(reader *r, uint64_t col, const char *fmt, ...) TLC_PRINTF(3, 4);
static int field_fail(reader *r, uint64_t col, const char *fmt, ...)
{
	char path[160], detail[300];
	field_path(r, path, sizeof path);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	return fail(r, TLC_EINPUT, "oplog_field_invalid", col, "field %s: %s", path, detail);
}

/* ---- stacks ---- */

/* The stacks grow rarely (to the largest record, then never): the
 * common case is a compare and a store. */
static int grow(reader *r, void **items, size_t *cap, size_t need, size_t elem)
{
	if (tlc_alloc__grow(r->a, items, cap, need, elem) < 0) {
		r->err_set = 1;
		return 0;
	}
	return 1;
}

static inline int push_val(reader *r, const tlc_value *v)
{
	if (r->nvals == r->capvals &&
	    !grow(r, (void **)&r->vals, &r->capvals, r->nvals + 1, sizeof *r->vals))
		return 0;
	r->vals[r->nvals++] = *v;
	return 1;
}

static int push_kw(reader *r, const tlc_value *v)
{
	if (r->nkws == r->capkws &&
	    tlc_alloc__grow(r->a, (void **)&r->kws, &r->capkws, r->nkws + 1, sizeof *r->kws) < 0) {
		r->err_set = 1;
		return 0;
	}
	r->kws[r->nkws].name = r->kwname;
	r->kws[r->nkws].value = *v;
	r->nkws++;
	return 1;
}

/* Shape and stride entries are written straight into arena chunks, so a
 * finished shape is used where it lies. Only one dims array is open at a
 * time (they do not nest): when a chunk fills, the open one moves to a new,
 * larger chunk and the finished ones stay where they are. */
static int new_int_chunk(reader *r)
{
	frame *f = &r->fr[r->depth - 1];
	size_t open = r->nints - f->ibase;
	size_t cap = open * 2 > 512 ? open * 2 : 512;
	int64_t *c = cap > SIZE_MAX / sizeof *c ? NULL : tlc_arena__alloc(&r->arena, cap * sizeof *c);
	if (!c)
		return fail_oom(r);
	if (open)
		memcpy(c, r->ints + f->ibase, open * sizeof *c);
	r->ints = c;
	r->capints = cap;
	r->nints = open;
	f->ibase = 0;
	return 1;
}

static inline int push_int(reader *r, int64_t x)
{
	if (r->nints == r->capints && !new_int_chunk(r))
		return 0;
	r->ints[r->nints++] = x;
	return 1;
}

/* Small allocations of the record (strings, list items) are carved from
 * an arena chunk inline: a record makes dozens of them. NULL on failure. */
#define BUMP_CHUNK 8192u
static void *bump_slow(reader *r, size_t n)
{
	size_t cap = n > BUMP_CHUNK ? n : BUMP_CHUNK;
	unsigned char *c = tlc_arena__alloc(&r->arena, cap);
	if (!c)
		return NULL;
	r->bcur = c + n;
	r->bend = c + cap;
	return c;
}

static inline void *bump(reader *r, size_t n)
{
	if (n > SIZE_MAX - 7)
		return NULL;
	n = (n + 7) & ~(size_t)7;
	if ((size_t)(r->bend - r->bcur) >= n) {
		void *p = r->bcur;
		r->bcur += n;
		return p;
	}
	return bump_slow(r, n);
}

/* Copies n elements to the record's memory (NULL for none). *ok = 0 on
 * failure. */
static void *arena_copy(reader *r, const void *src, size_t n, size_t elem, int *ok)
{
	if (n == 0)
		return NULL;
	void *d = n > SIZE_MAX / elem ? NULL : bump(r, n * elem);
	if (!d) {
		*ok = 0;
		return NULL;
	}
	memcpy(d, src, n * elem);
	return d;
}

static inline const char *arena_str(reader *r, const unsigned char *s, size_t n)
{
	if (r->strings_stay) /* the fast path's strings end in a NUL and outlive the record */
		return (const char *)s;
	char *d = n == SIZE_MAX ? NULL : bump(r, n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static int push_frame(reader *r, int kind, int key)
{
	if (r->depth >= TLC_OPLOG_MAX_DEPTH)
		return field_fail(r, 0, "nesting deeper than %d levels", TLC_OPLOG_MAX_DEPTH);
	frame *f = &r->fr[r->depth++];
	f->kind = (unsigned char)kind;
	f->key = (unsigned char)key;
	f->first = 1;
	f->vbase = r->nvals;
	f->ibase = r->nints;
	return 1;
}

/* ---- meta: the header's free-form object, re-serialised as JSON ---- */

static void meta_string(reader *r, const unsigned char *s, size_t n)
{
	tlc_sb *sb = &r->meta;
	size_t run = 0;
	tlc_sb__putc(sb, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		tlc_sb__append(sb, (const char *)s + run, i - run);
		run = i + 1;
		if (c == '"' || c == '\\') {
			tlc_sb__putc(sb, '\\');
			tlc_sb__putc(sb, (char)c);
		} else {
			tlc_sb__printf(sb, "\\u%04x", c);
		}
	}
	tlc_sb__append(sb, (const char *)s + run, n - run);
	tlc_sb__putc(sb, '"');
}

static int meta_value(reader *r, const jev *e)
{
	frame *f = &r->fr[r->depth - 1];
	if (f->kind == FR_META_ARR && !f->first)
		tlc_sb__putc(&r->meta, ',');
	f->first = 0;
	switch (e->t) {
	case J_NULL: tlc_sb__puts(&r->meta, "null"); break;
	case J_BOOL: tlc_sb__puts(&r->meta, e->b ? "true" : "false"); break;
	case J_STR: meta_string(r, e->s, e->n); break;
	case J_MAP: tlc_sb__putc(&r->meta, '{'); return push_frame(r, FR_META_MAP, 0);
	case J_ARRAY: tlc_sb__putc(&r->meta, '['); return push_frame(r, FR_META_ARR, 0);
	default: tlc_sb__append(&r->meta, (const char *)e->s, e->n); break;
	}
	return 1;
}

static void meta_key(reader *r, const unsigned char *s, size_t n)
{
	frame *f = &r->fr[r->depth - 1];
	if (!f->first)
		tlc_sb__putc(&r->meta, ',');
	f->first = 0;
	meta_string(r, s, n);
	tlc_sb__putc(&r->meta, ':');
}

/* ---- values inside args, kwargs, outputs ---- */

static int is_nonfinite(const jev *e, double *out)
{
	if (e->n == 3 && !memcmp(e->s, "inf", 3))
		*out = HUGE_VAL;
	else if (e->n == 4 && !memcmp(e->s, "-inf", 4))
		*out = -HUGE_VAL;
	else if (e->n == 3 && !memcmp(e->s, "nan", 3))
		*out = NAN;
	else
		return 0;
	return 1;
}

static inline int emit(reader *r, const tlc_value *v)
{
	if (r->fr[r->depth - 1].kind == FR_KWARGS)
		return push_kw(r, v);
	return push_val(r, v);
}

HOT_INLINE int value_event(reader *r, const jev *e)
{
	tlc_value v;
	memset(&v, 0, sizeof v);
	switch (e->t) {
	case J_NULL: v.kind = TLC_VALUE_NONE; break;
	case J_BOOL: v.kind = TLC_VALUE_BOOL; v.u.boolean = e->b; break;
	case J_INT: v.kind = TLC_VALUE_INT; v.u.integer = e->i; break;
	case J_BIGINT: return field_fail(r, 0, "integer out of the 64-bit range");
	case J_FLOAT: v.kind = TLC_VALUE_FLOAT; v.u.real = e->d; break;
	case J_STR:
		if (is_nonfinite(e, &v.u.real)) {
			v.kind = TLC_VALUE_FLOAT;
			break;
		}
		v.kind = TLC_VALUE_STRING;
		if (!(v.u.string = arena_str(r, e->s, e->n)))
			return fail_oom(r);
		break;
	case J_ARRAY: return push_frame(r, FR_LIST, 0);
	default:
		memset(&r->tensor, 0, sizeof r->tensor);
		r->tensor_has_shape = 0;
		r->nstride = 0;
		return push_frame(r, FR_TENSOR, K_NONE);
	}
	return emit(r, &v);
}

/* Sets the tensor's dtype. The first few distinct short names are kept
 * in the reader (never evicted, so earlier pointers stay valid): a log
 * repeats a handful of dtypes millions of times. */
static int dtype_set(reader *r, const unsigned char *s, size_t n, tlc_tensor *t)
{
	for (int i = 0; i < r->ndtypes; i++) {
		const dtype_entry *d = &r->dtypes[i];
		if (d->len == n && memcmp(d->name, s, n) == 0) {
			t->dtype_name = d->name;
			t->dtype = d->dtype;
			return 1;
		}
	}
	const char *name = arena_str(r, s, n);
	if (!name)
		return fail_oom(r);
	t->dtype_name = name;
	t->dtype = tlc_dtype_parse(name);
	if (r->ndtypes < DTYPE_CACHE && n < sizeof r->dtypes[0].name) {
		dtype_entry *d = &r->dtypes[r->ndtypes++];
		memcpy(d->name, s, n);
		d->name[n] = '\0';
		d->len = n;
		d->dtype = t->dtype;
		t->dtype_name = d->name;
	}
	return 1;
}

static int dtype_of(reader *r, const unsigned char *s, size_t n)
{
	return dtype_set(r, s, n, &r->tensor);
}

HOT_INLINE int tensor_event(reader *r, const jev *e)
{
	frame *f = &r->fr[r->depth - 1];
	switch (f->key) {
	case T_SHAPE:
	case T_STRIDE:
		if (e->t == J_ARRAY)
			return push_frame(r, FR_DIMS, f->key);
		if (e->t == J_NULL && f->key == T_STRIDE)
			return 1;
		return field_fail(r, 0, "expected an array of integers, found %s", jtype_name(e->t));
	case T_DTYPE:
	case T_DEVICE:
		if (e->t == J_NULL)
			return 1;
		if (e->t != J_STR)
			return field_fail(r, 0, "expected a string, found %s", jtype_name(e->t));
		if (f->key == T_DTYPE)
			return dtype_of(r, e->s, e->n);
		if (!(r->tensor.device = arena_str(r, e->s, e->n)))
			return fail_oom(r);
		return 1;
	case T_NUMEL:
		if (e->t == J_NULL || (e->t == J_INT && e->i >= 0))
			return 1;
		return field_fail(r, 0, "expected a non-negative integer, found %s",
		                  e->t == J_INT ? "a negative one" : jtype_name(e->t));
	default: /* unknown tensor field: ignored */
		if (e->t == J_MAP || e->t == J_ARRAY)
			return push_frame(r, FR_SKIP, 0);
		return 1;
	}
}

static int dims_event(reader *r, const jev *e)
{
	frame *f = &r->fr[r->depth - 1];
	if (e->t != J_INT)
		return field_fail(r, 0, "expected an integer, found %s", jtype_name(e->t));
	if (f->key == T_SHAPE && e->i < 0)
		return field_fail(r, 0, "negative shape entry %lld", (long long)e->i);
	return push_int(r, e->i);
}

static int end_dims(reader *r, const frame *f)
{
	size_t n = r->nints - f->ibase;
	const int64_t *d = n ? r->ints + f->ibase : NULL;
	if (f->key == K_UNRECORDED) {
		r->unrec = d;
		r->nunrec = n;
	} else if (f->key == T_SHAPE) {
		r->tensor.shape = d;
		r->tensor.ndim = n;
		r->tensor_has_shape = 1;
	} else {
		r->tensor.stride = d;
		r->nstride = n;
	}
	return 1;
}

/* Called with the tensor's frame still on the stack (for the error path). */
static int check_tensor(reader *r)
{
	r->fr[r->depth - 1].key = K_NONE;
	if (!r->tensor_has_shape)
		return field_fail(r, 0, "tensor object without \"shape\"");
	if (r->tensor.stride && r->nstride != r->tensor.ndim)
		return field_fail(r, 0, "stride has %zu entries but shape has %zu", r->nstride,
		                  r->tensor.ndim);
	return 1;
}

static int emit_tensor(reader *r)
{
	tlc_value v;
	memset(&v, 0, sizeof v);
	v.kind = TLC_VALUE_TENSOR;
	v.u.tensor = r->tensor;
	return emit(r, &v);
}

static int end_list(reader *r, const frame *f)
{
	int ok = 1;
	size_t n = r->nvals - f->vbase;
	tlc_value v;
	memset(&v, 0, sizeof v);
	v.kind = TLC_VALUE_LIST;
	v.u.list.n = n;
	v.u.list.items = n ? arena_copy(r, r->vals + f->vbase, n, sizeof *r->vals, &ok) : NULL;
	r->nvals = f->vbase;
	if (!ok)
		return fail_oom(r);
	return emit(r, &v);
}

/* ---- record fields ---- */

enum want { W_NONE = 0, W_INT, W_UINT, W_STR, W_ARRAY, W_MAP, W_BOOL };

/* Expected type of record field k given what is known of the record's kind;
 * W_NONE: not a field of this kind (ignored). An unseen kind counts as op, so
 * a typed op field is checked at once; the rest is checked at the end. */
static const unsigned char want_op[K_COUNT] = {
	[K_KIND] = W_STR, [K_ID] = W_UINT, [K_OP] = W_STR, [K_OVERLOAD] = W_STR,
	[K_PHASE] = W_STR, [K_MODULE] = W_STR, [K_MODULE_TYPE] = W_STR,
	[K_MODULE_CALL] = W_UINT, [K_PARENT] = W_UINT, [K_ARGS] = W_ARRAY, [K_KWARGS] = W_MAP,
	[K_OUTPUTS] = W_ARRAY, [K_HOST_NS] = W_UINT, [K_START_NS] = W_INT, [K_THREAD] = W_INT,
	[K_CORRELATION] = W_INT, [K_UNRECORDED] = W_ARRAY, [K_ARGS_OBSERVED] = W_BOOL,
};
static const unsigned char want_device[K_COUNT] = {
	[K_KIND] = W_STR, [K_START_NS] = W_INT, [K_END_NS] = W_INT, [K_THREAD] = W_INT,
	[K_CORRELATION] = W_INT, [K_NAME] = W_STR, [K_DEVICE] = W_INT, [K_STREAM] = W_INT,
	[K_BYTES] = W_UINT, [K_EXTERNAL_ID] = W_INT, [K_GRAPH_ID] = W_INT, [K_GRAPH_NODE] = W_UINT,
};
/* a CUDA graph node the collector saw made (docs/oplog-v1.md, "graph_node") */
static const unsigned char want_graph_node[K_COUNT] = {
	[K_KIND] = W_STR, [K_GRAPH_ID] = W_INT, [K_NODE] = W_UINT, [K_CORRELATION] = W_INT,
	[K_ORIGINAL] = W_UINT,
};
/* the device profiler's statement (docs/oplog-v1.md, "device_profiler") */
static const unsigned char want_profiler[K_COUNT] = {
	[K_KIND] = W_STR, [K_STATUS] = W_STR, [K_SOURCE] = W_STR, [K_MESSAGE] = W_STR,
	[K_FAILED_CALL] = W_STR,
};

/* a phase annotation (docs/oplog-v1.md, "annotation"): what `tlcost join
 * --save` writes of a trace's Optimizer.step# ranges */
static const unsigned char want_annotation[K_COUNT] = {
	[K_KIND] = W_STR, [K_PHASE] = W_STR, [K_THREAD] = W_INT, [K_START_NS] = W_INT,
	[K_END_NS] = W_INT,
};

static int want_record(int kind, int k)
{
	if (kind == KD_OP || kind == KD_UNSEEN)
		return want_op[k];
	if (kind == KD_DEVICE)
		return want_device[k];
	if (kind == KD_PROFILER)
		return want_profiler[k];
	if (kind == KD_ANNOTATION)
		return want_annotation[k];
	if (kind == KD_GRAPH_NODE)
		return want_graph_node[k];
	return k == K_KIND ? W_STR : W_NONE;
}

static int want_header(int k)
{
	switch (k) {
	case K_FORMAT: case K_PRODUCER: case K_MODEL: case K_DEVICE: return W_STR;
	case K_VERSION: return W_INT;
	case K_PARAMS: case K_TOKENS: return W_UINT;
	case K_META: return W_MAP;
	default: return W_NONE;
	}
}

static const char *want_name(int w)
{
	switch (w) {
	case W_INT: return "an integer";
	case W_UINT: return "a non-negative integer";
	case W_STR: return "a string";
	case W_ARRAY: return "an array";
	case W_BOOL: return "a boolean";
	default: return "an object";
	}
}

/* 1 when slot s fits w (null always fits: it means absent). */
static inline int fits(const slot *s, int w)
{
	switch (w) {
	case W_NONE: return 1;
	case W_INT: return s->t == J_INT || s->t == J_NULL;
	case W_UINT: return (s->t == J_INT && s->i >= 0) || s->t == J_NULL;
	case W_STR: return s->t == J_STR || s->t == J_NULL;
	case W_ARRAY: return s->t == J_ARRAY || s->t == J_NULL;
	case W_BOOL: return s->t == J_BOOL || s->t == J_NULL;
	default: return s->t == J_MAP || s->t == J_NULL;
	}
}

static int check_slot(reader *r, int k, uint64_t col)
{
	const slot *s = &r->slots[k];
	int w = r->is_header ? want_header(k) : want_record(r->kind, k);
	if (fits(s, w))
		return 1;
	const char *found = s->t == J_INT && w == W_UINT ? "a negative integer" : jtype_name(s->t);
	if (r->is_header && (k == K_FORMAT || k == K_VERSION))
		return fail(r, TLC_EINPUT, "oplog_header_invalid", col,
		            "header field %s must be %s, found %s", key_name(k), want_name(w), found);
	return fail(r, TLC_EINPUT, "oplog_field_invalid", col, "field %s must be %s, found %s",
	            key_name(k), want_name(w), found);
}

static int set_kind(reader *r, const slot *s)
{
	if (s->t != J_STR)
		return 1; /* check_slot reports it */
	const char *k = s->s;
	r->kind = KD_DEVICE;
	if (!strcmp(k, "op"))
		r->kind = KD_OP;
	else if (!strcmp(k, "kernel"))
		r->dkind = TLC_DEVICE_KERNEL;
	else if (!strcmp(k, "memcpy"))
		r->dkind = TLC_DEVICE_MEMCPY;
	else if (!strcmp(k, "memset"))
		r->dkind = TLC_DEVICE_MEMSET;
	else if (!strcmp(k, "runtime"))
		r->dkind = TLC_DEVICE_RUNTIME;
	else if (!strcmp(k, "driver"))
		r->dkind = TLC_DEVICE_DRIVER;
	else if (!strcmp(k, "device_profiler"))
		r->kind = KD_PROFILER;
	else if (!strcmp(k, "annotation"))
		r->kind = KD_ANNOTATION;
	else if (!strcmp(k, "graph_node"))
		r->kind = KD_GRAPH_NODE;
	else
		r->kind = KD_OTHER;
	return 1;
}

/* forward, backward, optimizer, other -> tlc_phase; -1 for anything else. */
static int phase_code(const unsigned char *s, size_t n)
{
	static const char *const names[] = { "forward", "backward", "optimizer", "other" };
	for (int p = 0; p < 4; p++)
		if (strlen(names[p]) == n && memcmp(names[p], s, n) == 0)
			return p;
	return -1;
}

/* device_profiler "status" -> tlc_profiler_state; -1 for anything else. */
static int profiler_state_of(const char *s)
{
	static const struct { const char *n; tlc_profiler_state st; } map[] = {
		{ "unavailable", TLC_PROFILER_UNAVAILABLE }, { "empty", TLC_PROFILER_EMPTY },
		{ "partial", TLC_PROFILER_PARTIAL }, { "complete", TLC_PROFILER_COMPLETE },
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (!strcmp(map[i].n, s))
			return (int)map[i].st;
	return -1;
}

static int bad_status(reader *r, uint64_t col)
{
	return fail(r, TLC_EINPUT, "oplog_field_invalid", col,
	            "field status: \"%.80s\" is not one of unavailable, empty, partial, complete",
	            r->slots[K_STATUS].s);
}

HOT_INLINE int store_slot(reader *r, int k, const jev *e)
{
	slot *s = &r->slots[k];
	s->t = e->t;
	s->i = e->t == J_BOOL ? e->b : e->i;
	s->s = NULL;
	if (e->t == J_STR && k == K_PHASE && !r->is_header)
		s->i = phase_code(e->s, e->n); /* the name is kept only when unknown */
	if (e->t == J_STR && !(k == K_PHASE && s->i >= 0) && !(s->s = arena_str(r, e->s, e->n)))
		return fail_oom(r);
	r->present |= (uint64_t)1 << k;
	if (k == K_KIND)
		set_kind(r, s);
	if (r->is_header)
		return 1; /* checked at the end of the line */
	if (k == K_STATUS && r->kind == KD_PROFILER && s->t == J_STR && profiler_state_of(s->s) < 0)
		return bad_status(r, 0); /* at the value; a status before "kind" is checked at the end */
	return fits(s, want_record(r->kind, k)) || check_slot(r, k, 0);
}

HOT_INLINE int record_event(reader *r, const jev *e)
{
	frame *f = &r->fr[r->depth - 1];
	int k = f->key;
	if (k == K_NONE)
		return e->t == J_MAP || e->t == J_ARRAY ? push_frame(r, FR_SKIP, 0) : 1;
	if (!store_slot(r, k, e))
		return 0;
	if (e->t != J_MAP && e->t != J_ARRAY)
		return 1;
	int w = r->is_header ? want_header(k) : want_record(r->kind, k);
	if (k == K_META && e->t == J_MAP) {
		tlc_sb__reset(&r->meta);
		tlc_sb__putc(&r->meta, '{');
		r->meta_done = 0;
		return push_frame(r, FR_META_MAP, 0);
	}
	if (k == K_UNRECORDED && e->t == J_ARRAY)
		return push_frame(r, FR_DIMS, K_UNRECORDED);
	if (w == W_ARRAY && e->t == J_ARRAY)
		return push_frame(r, k == K_ARGS ? FR_ARGS : FR_OUTPUTS, 0);
	if (w == W_MAP && e->t == J_MAP) {
		r->nkws = 0;
		r->kwname = NULL;
		return push_frame(r, FR_KWARGS, 0);
	}
	return push_frame(r, FR_SKIP, 0);
}

/* ---- records ---- */

static void begin_record(reader *r)
{
	tlc_arena__reset(&r->arena);
	r->is_header = !r->seen_header;
	r->kind = KD_UNSEEN;
	r->present = 0;
	r->nargs = r->noutputs = r->nkwargs = 0;
	r->nvals = r->nkws = 0;
	r->bcur = r->bend = NULL;
	r->ints = NULL; /* its chunks went with the arena */
	r->nints = r->capints = 0;
	r->nunrec = 0;
	r->meta_done = 0;
}

static int has(const reader *r, int k)
{
	return (r->present >> k & 1) && r->slots[k].t != J_NULL;
}

static const char *str_of(const reader *r, int k) { return has(r, k) ? r->slots[k].s : NULL; }

static int missing(reader *r, const char *what, int k)
{
	return fail(r, TLC_EINPUT, "oplog_field_invalid", 1,
	            "%s record without required field %s", what, key_name(k));
}

/* The "unrecorded" extension (docs/oplog-v1.md): each listed position of
 * args holds null for a reader of plain v1 (None, as before) and is an
 * argument passed whose value was not recorded for this one. 1, or 0 with
 * the error pending. */
static int mark_unrecorded(reader *r, tlc_value *args)
{
	for (size_t i = 0; i < r->nunrec; i++) {
		int64_t k = r->unrec[i];
		if (k < 0 || (uint64_t)k >= r->nargs || args[k].kind != TLC_VALUE_NONE)
			return fail(r, TLC_EINPUT, "oplog_field_invalid", 1,
			            "field unrecorded[%zu]: %lld is not the position of a null "
			            "argument (args has %zu)", i, (long long)k, r->nargs);
		args[k].kind = TLC_VALUE_UNRECORDED;
	}
	return 1;
}

static int push_op(reader *r, const tlc_op *op);

static int finish_op(reader *r)
{
	static const int required[] = { K_ID, K_OP, K_ARGS };
	for (size_t i = 0; i < 3; i++)
		if (!has(r, required[i]))
			return missing(r, "op", required[i]);
	tlc_op op;
	memset(&op, 0, sizeof op);
	op.size = sizeof op;
	op.id = r->slots[K_ID].i;
	op.name = str_of(r, K_OP);
	op.overload = str_of(r, K_OVERLOAD);
	if (has(r, K_PHASE) && r->slots[K_PHASE].i < 0)
		return fail(r, TLC_EINPUT, "oplog_field_invalid", 1,
		            "field phase: \"%s\" is not one of forward, backward, optimizer, other",
		            r->slots[K_PHASE].s);
	op.phase = has(r, K_PHASE) ? (tlc_phase)r->slots[K_PHASE].i : TLC_PHASE_FORWARD;
	op.module = str_of(r, K_MODULE);
	op.module_type = str_of(r, K_MODULE_TYPE);
	static const struct { int k; unsigned flag; } opt[] = {
		{ K_MODULE_CALL, TLC_OP_HAS_MODULE_CALL }, { K_PARENT, TLC_OP_HAS_PARENT },
		{ K_HOST_NS, TLC_OP_HAS_HOST_NS }, { K_START_NS, TLC_OP_HAS_START_NS },
		{ K_THREAD, TLC_OP_HAS_THREAD },
	};
	for (size_t i = 0; i < sizeof opt / sizeof opt[0]; i++)
		if (has(r, opt[i].k))
			op.flags |= opt[i].flag;
	op.module_call = r->slots[K_MODULE_CALL].i;
	op.parent = r->slots[K_PARENT].i;
	op.host_ns = r->slots[K_HOST_NS].i;
	op.start_ns = r->slots[K_START_NS].i;
	op.thread = r->slots[K_THREAD].i;
	op.correlation = has(r, K_CORRELATION) ? r->slots[K_CORRELATION].i : op.id;
	op.nargs = r->nargs;
	op.args = r->nargs ? r->vals + r->args_base : NULL;
	if (has(r, K_UNRECORDED) && !mark_unrecorded(r, r->vals + r->args_base))
		return 0;
	if (has(r, K_ARGS_OBSERVED) && r->slots[K_ARGS_OBSERVED].i)
		op.flags |= TLC_OP_ARGS_OBSERVED;
	if (has(r, K_KWARGS) && r->nkwargs) {
		op.nkwargs = r->nkwargs;
		op.kwargs = r->kws;
	}
	if (has(r, K_OUTPUTS)) {
		op.flags |= TLC_OP_HAS_OUTPUTS;
		op.noutputs = r->noutputs;
		op.outputs = r->noutputs ? r->vals + r->outputs_base : NULL;
	}
	return push_op(r, &op);
}

/* The end of finish_op, shared with the fast path's records (fast_op). */
static int push_op(reader *r, const tlc_op *op)
{
	/* a record held for a later parent keeps its line for the finish error */
	if ((op->flags & TLC_OP_HAS_PARENT) && tlc_eval__set_position(r->ev, r->file, r->line) < 0) {
		r->err_set = 1;
		return 0;
	}
	if (tlc_eval__push_op_checked(r->ev, op) < 0) { /* values checked as read */
		r->err_set = 1;
		return 0;
	}
	r->pushed = 1;
	/* records whose parent has not come yet are held in memory: bounded */
	if (r->max_held && tlc_eval__held_count(r->ev) > r->max_held)
		return fail(r, TLC_EINPUT, "held_records_exceeded", 0,
		            "more than %llu records wait for a parent that comes later in the log "
		            "(the max-held-records limit, --max-held-records)",
		            (unsigned long long)r->max_held);
	if (r->max_held_bytes && tlc_eval__held_bytes(r->ev) > r->max_held_bytes)
		return fail(r, TLC_EINPUT, "held_bytes_exceeded", 0,
		            "records waiting for a parent that comes later in the log take more "
		            "than %llu bytes (the max-held-bytes limit, --max-held-bytes)",
		            (unsigned long long)r->max_held_bytes);
	return 1;
}

static int finish_device(reader *r)
{
	static const int required[] = { K_START_NS, K_END_NS };
	for (size_t i = 0; i < 2; i++)
		if (!has(r, required[i]))
			return missing(r, r->slots[K_KIND].s, required[i]);
	int named = r->dkind == TLC_DEVICE_KERNEL || r->dkind == TLC_DEVICE_RUNTIME ||
	            r->dkind == TLC_DEVICE_DRIVER;
	if (named && !has(r, K_NAME))
		return missing(r, r->slots[K_KIND].s, K_NAME);
	tlc_device_record d;
	memset(&d, 0, sizeof d);
	d.size = sizeof d;
	d.kind = r->dkind;
	d.name = str_of(r, K_NAME);
	d.device = has(r, K_DEVICE) ? r->slots[K_DEVICE].i : -1;
	d.stream = has(r, K_STREAM) ? r->slots[K_STREAM].i : -1;
	d.start_ns = r->slots[K_START_NS].i;
	d.end_ns = r->slots[K_END_NS].i;
	if (d.end_ns < d.start_ns)
		return fail(r, TLC_EINPUT, "oplog_field_invalid", 1,
		            "field end_ns: %lld is before start_ns %lld", (long long)d.end_ns,
		            (long long)d.start_ns);
	static const struct { int k; unsigned flag; } opt[] = {
		{ K_THREAD, TLC_DEV_HAS_THREAD }, { K_CORRELATION, TLC_DEV_HAS_CORRELATION },
		{ K_EXTERNAL_ID, TLC_DEV_HAS_EXTERNAL_ID }, { K_BYTES, TLC_DEV_HAS_BYTES },
	};
	for (size_t i = 0; i < sizeof opt / sizeof opt[0]; i++)
		if (has(r, opt[i].k))
			d.flags |= opt[i].flag;
	d.thread = r->slots[K_THREAD].i;
	d.correlation = r->slots[K_CORRELATION].i;
	d.external_id = r->slots[K_EXTERNAL_ID].i;
	d.bytes = r->slots[K_BYTES].i;
	if (has(r, K_GRAPH_NODE)) {
		if (d.kind == TLC_DEVICE_RUNTIME || d.kind == TLC_DEVICE_DRIVER)
			return fail(r, TLC_EINPUT, "oplog_field_invalid", 1,
			            "field graph_node: a %s line is a host call; only kernel, memcpy "
			            "and memset lines ran as a graph node",
			            r->slots[K_KIND].s);
		d.flags |= TLC_DEV_HAS_GRAPH_NODE;
		d.graph_node = r->slots[K_GRAPH_NODE].i;
		d.graph_id = has(r, K_GRAPH_ID) ? r->slots[K_GRAPH_ID].i : -1;
	}
	if (tlc_eval_push_device(r->ev, &d) < 0) {
		r->err_set = 1;
		return 0;
	}
	return 1;
}

/* A CUDA graph node the collector saw made: created by a call (its
 * correlation id) or cloned from another node (original). */
static int finish_graph_node(reader *r)
{
	if (!has(r, K_NODE))
		return missing(r, "graph_node", K_NODE);
	if (has(r, K_CORRELATION) == has(r, K_ORIGINAL))
		return fail(r, TLC_EINPUT, "oplog_field_invalid", 1,
		            "a graph_node line names %s: exactly one of correlation (the call "
		            "that created the node) and original (the node it was cloned from)",
		            has(r, K_CORRELATION) ? "both correlation and original" : "neither");
	if (has(r, K_CORRELATION) && r->slots[K_CORRELATION].i < 0)
		return fail(r, TLC_EINPUT, "oplog_field_invalid", 1,
		            "field correlation: %lld is negative", (long long)r->slots[K_CORRELATION].i);
	tlc_graph_node g = TLC_GRAPH_NODE_INIT;
	g.graph_id = has(r, K_GRAPH_ID) ? r->slots[K_GRAPH_ID].i : -1;
	g.node = r->slots[K_NODE].i;
	if (has(r, K_CORRELATION))
		g.correlation = r->slots[K_CORRELATION].i;
	else
		g.original = r->slots[K_ORIGINAL].i;
	if (tlc_eval_push_graph_node(r->ev, &g) < 0) {
		r->err_set = 1;
		return 0;
	}
	return 1;
}

/* The device profiler's statement about its own session: status, source,
 * and its error text as "failed_call: message". Other fields (counts,
 * cupti_result, lower_bound) are the writer's and are ignored. */
static int finish_profiler(reader *r)
{
	if (!has(r, K_STATUS))
		return missing(r, "device_profiler", K_STATUS);
	int st = profiler_state_of(r->slots[K_STATUS].s);
	if (st < 0)
		return bad_status(r, 1);
	tlc_profiler_status p = { sizeof p, (tlc_profiler_state)st, str_of(r, K_SOURCE),
		                  str_of(r, K_MESSAGE) };
	const char *call = str_of(r, K_FAILED_CALL);
	if (call && p.message) {
		size_t n = strlen(call) + 2 + strlen(p.message) + 1;
		char *m = bump(r, n);
		if (!m)
			return fail_oom(r);
		snprintf(m, n, "%s: %s", call, p.message);
		p.message = m;
	} else if (call) {
		p.message = call;
	}
	if (tlc_eval_set_profiler_status(r->ev, &p) < 0) {
		r->err_set = 1;
		return 0;
	}
	return 1;
}

/* A phase annotation: an interval of a host thread that marks a phase
 * (the join gives unattributed launches inside it that phase). */
static int finish_annotation(reader *r)
{
	static const int required[] = { K_PHASE, K_THREAD, K_START_NS, K_END_NS };
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
		if (!has(r, required[i]))
			return missing(r, "annotation", required[i]);
	if (r->slots[K_PHASE].i < 0)
		return fail(r, TLC_EINPUT, "oplog_field_invalid", 1,
		            "field phase: \"%s\" is not one of forward, backward, optimizer, other",
		            r->slots[K_PHASE].s);
	if (r->slots[K_END_NS].i < r->slots[K_START_NS].i)
		return fail(r, TLC_EINPUT, "oplog_field_invalid", 1,
		            "field end_ns: %lld is before start_ns %lld",
		            (long long)r->slots[K_END_NS].i, (long long)r->slots[K_START_NS].i);
	if (tlc_eval__add_annotation(r->ev, r->slots[K_THREAD].i, r->slots[K_START_NS].i,
	                             r->slots[K_END_NS].i, (tlc_phase)r->slots[K_PHASE].i) < 0) {
		r->err_set = 1;
		return 0;
	}
	return 1;
}

static int finish_header(reader *r)
{
	for (int k = K_FORMAT; k <= K_META; k++)
		if ((r->present >> k & 1) && !check_slot(r, k, 1))
			return 0;
	if (!has(r, K_FORMAT))
		return fail(r, TLC_EINPUT, "oplog_header_invalid", 1,
		            "line %llu is not an op log header: it has no \"format\" field",
		            (unsigned long long)r->line);
	if (strcmp(r->slots[K_FORMAT].s, "tlcost-oplog") != 0)
		return fail(r, TLC_EINPUT, "oplog_header_invalid", 1,
		            "header format is \"%s\", expected \"tlcost-oplog\"", r->slots[K_FORMAT].s);
	if (!has(r, K_VERSION))
		return fail(r, TLC_EINPUT, "oplog_header_invalid", 1, "header has no \"version\" field");
	if (r->slots[K_VERSION].i != 1)
		return fail(r, TLC_EVERSION, "oplog_version_unsupported", 1,
		            "op log version %lld is not supported; this reader supports version 1",
		            (long long)r->slots[K_VERSION].i);
	tlc_input_info info = TLC_INPUT_INFO_INIT;
	info.format = "tlcost-oplog";
	info.producer = str_of(r, K_PRODUCER);
	info.model = str_of(r, K_MODEL);
	info.device = str_of(r, K_DEVICE);
	info.params = has(r, K_PARAMS) ? r->slots[K_PARAMS].i : -1;
	info.tokens = has(r, K_TOKENS) ? r->slots[K_TOKENS].i : -1;
	if (r->meta_done && !(info.meta_json = tlc_sb__str(&r->meta)))
		return fail_oom(r);
	if (tlc_eval_set_info(r->ev, &info) < 0) {
		r->err_set = 1;
		return 0;
	}
	r->seen_header = 1;
	return 1;
}

static int finish_record(reader *r)
{
	if (r->is_header)
		return finish_header(r);
	if (r->kind == KD_UNSEEN)
		r->kind = KD_OP;
	/* fields were checked as they came, as op fields until "kind" said
	 * otherwise: other kinds are checked again now */
	for (int k = K_KIND; r->kind != KD_OP && k <= K_ORIGINAL; k++)
		if ((r->present >> k & 1) && !check_slot(r, k, 0))
			return 0;
	if (r->kind == KD_OP)
		return finish_op(r);
	if (r->kind == KD_DEVICE)
		return finish_device(r);
	if (r->kind == KD_PROFILER)
		return finish_profiler(r);
	if (r->kind == KD_ANNOTATION)
		return finish_annotation(r);
	if (r->kind == KD_GRAPH_NODE)
		return finish_graph_node(r);
	tlc_eval_count_skipped(r->ev, r->slots[K_KIND].s);
	return 1;
}

/* ---- container ends ---- */

HOT_INLINE int end_container(reader *r)
{
	frame f = r->fr[--r->depth];
	int ok = 1;
	switch (f.kind) {
	case FR_RECORD:
		return finish_record(r);
	case FR_ARGS:
		/* the values stay on the stack (which may still move as it
		 * grows): finish_op points at them */
		r->args_base = f.vbase;
		r->nargs = r->nvals - f.vbase;
		return 1;
	case FR_OUTPUTS:
		r->outputs_base = f.vbase;
		r->noutputs = r->nvals - f.vbase;
		return 1;
	case FR_KWARGS:
		r->nkwargs = r->nkws;
		return 1;
	case FR_LIST:
		return end_list(r, &f);
	case FR_TENSOR:
		r->depth++; /* keep the frame for the error path */
		ok = check_tensor(r);
		r->depth--;
		return ok ? emit_tensor(r) : 0;
	case FR_DIMS:
		return end_dims(r, &f);
	case FR_META_MAP:
	case FR_META_ARR:
		tlc_sb__putc(&r->meta, f.kind == FR_META_MAP ? '}' : ']');
		if (r->fr[r->depth - 1].kind == FR_RECORD)
			r->meta_done = 1;
		return 1;
	default:
		return 1;
	}
}

/* ---- event dispatch ---- */

HOT_INLINE int on_value(reader *r, const jev *e)
{
	if (r->depth == 0) {
		if (e->t != J_MAP)
			return fail(r, TLC_EPARSE, "oplog_parse_error", 0,
			            "line %llu is not a JSON object (found %s)",
			            (unsigned long long)r->line, jtype_name(e->t));
		if (r->line_objects++)
			return fail(r, TLC_EPARSE, "oplog_parse_error", 0,
			            "line %llu holds more than one JSON value",
			            (unsigned long long)r->line);
		begin_record(r);
		return push_frame(r, FR_RECORD, K_NONE);
	}
	switch (r->fr[r->depth - 1].kind) {
	case FR_RECORD: return record_event(r, e);
	case FR_ARGS: case FR_OUTPUTS: case FR_LIST: case FR_KWARGS: return value_event(r, e);
	case FR_TENSOR: return tensor_event(r, e);
	case FR_DIMS: return dims_event(r, e);
	case FR_META_MAP: case FR_META_ARR: return meta_value(r, e);
	default: /* FR_SKIP */
		return e->t == J_MAP || e->t == J_ARRAY ? push_frame(r, FR_SKIP, 0) : 1;
	}
}

static int cb_null(void *ctx)
{
	jev e = { .t = J_NULL, .s = (const unsigned char *)"null", .n = 4 };
	return on_value(ctx, &e);
}

static int cb_bool(void *ctx, int b)
{
	jev e = { .t = J_BOOL, .b = b };
	return on_value(ctx, &e);
}

/* The value of s[i..n) when it is at most 18 decimal digits (which cannot
 * overflow): 1, else 0. parse_number and cb_number's shape fast path. */
static inline int short_digits(uint64_t *out, const char *s, size_t i, size_t n)
{
	uint64_t v = 0;
	if (n - i > 18)
		return 0;
	for (; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (d > 9)
			return 0;
		v = v * 10 + d;
	}
	*out = v;
	return 1;
}

/* Integers exactly (out of range: J_BIGINT); other numbers as doubles. */
static void parse_number(reader *r, jev *e, const char *s, size_t n)
{
	int neg = s[0] == '-';
	size_t i = (size_t)neg;
	uint64_t v = 0;
	int over = 0;
	if (short_digits(&v, s, i, n)) { /* cannot overflow: the common case */
		e->t = J_INT;
		e->i = neg ? -(int64_t)v : (int64_t)v;
		return;
	}
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			over = 1;
		v = v * 10 + d;
	}
	if (i == n) {
		uint64_t lim = s[0] == '-' ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
		e->t = over || v > lim ? J_BIGINT : J_INT;
		e->i = s[0] == '-' ? (int64_t)(0 - v) : (int64_t)v;
		return;
	}
	char small[128];
	const char *text = small;
	if (n < sizeof small) {
		memcpy(small, s, n);
		small[n] = '\0';
	} else if (!(text = tlc_arena__strndup(&r->arena, s, n))) {
		e->t = J_BIGINT; /* cannot convert: reported as out of range */
		return;
	}
	e->t = J_FLOAT;
	e->d = strtod(text, NULL);
}

static int cb_number(void *ctx, const char *s, size_t n)
{
	reader *r = ctx;
	/* shape entries are most of the numbers in a log: short non-negative
	 * integers go straight to the stack */
	uint64_t v;
	if (n <= 18 && r->depth && r->fr[r->depth - 1].kind == FR_DIMS && short_digits(&v, s, 0, n))
		return push_int(r, (int64_t)v);
	jev e;
	e.b = 0;
	e.i = 0;
	e.d = 0;
	e.s = (const unsigned char *)s;
	e.n = n;
	parse_number(r, &e, s, n);
	return on_value(r, &e);
}

/* A string or key with an embedded NUL is refused: C strings would cut it
 * ("aten::mm\u0000x" counted as aten::mm). 1 when refused. */
static int has_nul(reader *r, const unsigned char *s, size_t n, const char *what)
{
	const unsigned char *z = memchr(s, 0, n);
	if (!z)
		return 0;
	char path[160];
	field_path(r, path, sizeof path);
	fail(r, TLC_EINPUT, "oplog_string_nul", 0,
	     "%s %s holds a NUL character (\\u0000) at character %zu of %zu", what,
	     *path ? path : "(record)", (size_t)(z - s) + 1, n);
	return 1;
}

HOT_INLINE int string_event(reader *r, const unsigned char *s, size_t n)
{
	jev e = { .t = J_STR, .s = s, .n = n };
	return on_value(r, &e);
}

static int cb_string(void *ctx, const unsigned char *s, size_t n)
{
	if (has_nul(ctx, s, n, "the string of field"))
		return 0;
	return string_event(ctx, s, n);
}

static int cb_start_map(void *ctx)
{
	jev e = { .t = J_MAP };
	return on_value(ctx, &e);
}

static int cb_start_array(void *ctx)
{
	jev e = { .t = J_ARRAY };
	return on_value(ctx, &e);
}

/* Each end callback tests its most frequent frame first (the same reason
 * as for on_value). */
static int cb_end_map(void *ctx)
{
	reader *r = ctx;
	if (r->fr[r->depth - 1].kind == FR_TENSOR)
		return check_tensor(r) && (r->depth--, emit_tensor(r));
	return end_container(r);
}

static int cb_end_array(void *ctx)
{
	reader *r = ctx;
	if (r->fr[r->depth - 1].kind == FR_DIMS) {
		frame f = r->fr[--r->depth];
		return end_dims(r, &f);
	}
	return end_container(r);
}

HOT_INLINE int key_event(reader *r, const unsigned char *s, size_t n)
{
	frame *f = &r->fr[r->depth - 1];
	switch (f->kind) {
	case FR_RECORD:
		f->key = (unsigned char)(r->is_header
		        ? lookup(header_keys, sizeof header_keys / sizeof header_keys[0], s, n)
		        : record_key(s, n));
		return 1;
	case FR_TENSOR:
		f->key = (unsigned char)tensor_key(s, n);
		return 1;
	case FR_KWARGS:
		if (!(r->kwname = arena_str(r, s, n)))
			return fail_oom(r);
		return 1;
	case FR_META_MAP:
		meta_key(r, s, n);
		return 1;
	default:
		return 1;
	}
}

static int cb_key(void *ctx, const unsigned char *s, size_t n)
{
	if (has_nul(ctx, s, n, "a key inside"))
		return 0;
	return key_event(ctx, s, n);
}

static const yajl_callbacks callbacks = {
	cb_null, cb_bool, NULL, NULL, cb_number, cb_string,
	cb_start_map, cb_key, cb_end_map, cb_start_array, cb_end_array
};

/* ---- allocation through the eval's allocator ----
 *
 * yajl does not check its allocations (a NULL crashes it). So when the
 * eval's allocator refuses, the block comes from malloc instead, the reader
 * notes it and stops with out_of_memory as soon as yajl returns. A header
 * says which allocator owns each block. */

typedef struct yhdr {
	size_t size;
	size_t from_libc;
} yhdr;

static void *y_malloc(void *ctx, size_t n)
{
	reader *r = ctx;
	if (n > SIZE_MAX - sizeof(yhdr))
		return NULL;
	yhdr *h = tlc_alloc__malloc(r->a, n + sizeof *h);
	int libc = !h;
	if (libc) {
		r->yajl_oom = 1;
		if (!(h = malloc(n + sizeof *h)))
			return NULL; /* yajl cannot go on: nothing better to do */
	}
	h->size = n;
	h->from_libc = (size_t)libc;
	return h + 1;
}

static void y_free(void *ctx, void *p)
{
	reader *r = ctx;
	if (!p)
		return;
	yhdr *h = (yhdr *)p - 1;
	if (h->from_libc)
		free(h);
	else
		tlc_alloc__free(r->a, h);
}

static void *y_realloc(void *ctx, void *p, size_t n)
{
	reader *r = ctx;
	if (!p)
		return y_malloc(ctx, n);
	yhdr *h = (yhdr *)p - 1;
	if (n > SIZE_MAX - sizeof(yhdr))
		return NULL;
	if (!h->from_libc) {
		yhdr *g = tlc_alloc__realloc(r->a, h, n + sizeof *h);
		if (g) {
			g->size = n;
			return g + 1;
		}
	}
	void *q = y_malloc(ctx, n);
	if (!q)
		return NULL;
	memcpy(q, p, h->size < n ? h->size : n);
	y_free(ctx, p);
	r->yajl_oom = 1;
	return q;
}

/* ---- driving yajl over lines ---- */

/* Raises the pending error of a stopped parse at column col. */
static int raise_pending(reader *r, uint64_t col)
{
	if (r->err_col)
		col = r->err_col;
	if (r->err_set) {
		tlc_error__locate(r->file, r->line, col);
		return tlc_error_last()->klass < 0 ? tlc_error_last()->klass : TLC_ERROR;
	}
	return tlc_error__set_pos(r->err, r->err_code, r->file, r->line, col,
	                          remedy_for(r->err_code), "%s", r->msg);
}

static int feed_yajl(reader *r, const unsigned char *p, size_t n)
{
	yajl_status st = yajl_parse(r->y, p, n);
	if (r->yajl_oom) {
		tlc_error__oom();
		tlc_error__locate(r->file, r->line, 0);
		return TLC_ENOMEM;
	}
	if (st == yajl_status_ok)
		return 0;
	uint64_t col = r->line_len + yajl_get_bytes_consumed(r->y);
	if (st == yajl_status_client_canceled)
		return raise_pending(r, col);
	unsigned char *why = yajl_get_error(r->y, 0, p, n);
	size_t wlen = why ? strcspn((const char *)why, "\n") : 0;
	int rc = tlc_error__set_pos(TLC_EPARSE, "oplog_parse_error", r->file, r->line, col ? col : 1,
	                            remedy_for("oplog_parse_error"), "line %llu is not valid JSON: %.*s",
	                            (unsigned long long)r->line, (int)wlen,
	                            why ? (const char *)why : "syntax error");
	if (why)
		yajl_free_error(r->y, why);
	return rc;
}

/* The string bytes at p[at] are not well-formed (jsontext.h): yajl reads
 * the bytes before them (its errors there come first), then the line is
 * refused where the offending sequence or escape begins. */
static int ill_formed(reader *r, const unsigned char *p, size_t at)
{
	int rc = feed_yajl(r, p, at);
	if (rc < 0)
		return rc;
	char why[160];
	tlc_jsontext__describe(&r->text, why, sizeof why);
	uint64_t col = r->line_len + at + 1 - tlc_jsontext__back(&r->text);
	return tlc_error__set_pos(TLC_EINPUT, "oplog_utf8_invalid", r->file, r->line, col,
	                          remedy_for("oplog_utf8_invalid"), "line %llu: %s",
	                          (unsigned long long)r->line, why);
}

/* Hands p[0..n) of the current line to yajl, its strings checked first. */
static int feed(reader *r, const unsigned char *p, size_t n)
{
	size_t ok = tlc_jsontext__scan(&r->text, p, n);
	return ok < n ? ill_formed(r, p, ok) : feed_yajl(r, p, n);
}

static int end_line(reader *r)
{
	if (r->depth > 0)
		return tlc_error__set_pos(TLC_EPARSE, "oplog_parse_error", r->file, r->line,
		                          r->line_len, remedy_for("oplog_parse_error"),
		                          "line %llu ends inside a JSON object (each record must be "
		                          "one line)", (unsigned long long)r->line);
	r->line++;
	r->line_len = 0;
	r->line_objects = 0;
	return 0;
}

/* ---- the SIMD fast path (engine/input/json/json_fast.h) ----
 *
 * A record line (not the header, whose meta keeps number text) that lies
 * whole in one chunk is first parsed by simdjson. An op record of the plain
 * shape is then built straight from the parse (fast_op: no events, which
 * were about a fifth of the instructions per op); any other line drives
 * the same callbacks as yajl. A record has no effect outside the reader until its
 * last '}' (finish_record), so a line the fast path declines, or whose
 * callbacks raised an error before that point, is simply read again by
 * yajl: errors and their positions are yajl's. */

/* Numbers arrive converted: the events cb_number makes from their text. */
static int fast_integer(void *ctx, int64_t v)
{
	reader *r = ctx;
	if (v >= 0 && r->depth && r->fr[r->depth - 1].kind == FR_DIMS)
		return push_int(r, v);
	jev e = { .t = J_INT, .i = v };
	return on_value(r, &e);
}

static int fast_big_integer(void *ctx)
{
	jev e = { .t = J_BIGINT };
	return on_value(ctx, &e);
}

static int fast_real(void *ctx, double d)
{
	jev e = { .t = J_FLOAT, .d = d };
	return on_value(ctx, &e);
}

/* Strings and keys: in a text simdjson accepted, a NUL can only come from
 * a \u0000 escape (a raw control byte in a string is refused), so a line
 * without a backslash needs no per-string search for one. */
static int fast_string(void *ctx, const unsigned char *s, size_t n)
{
	reader *r = ctx;
	if (r->fast_escapes && has_nul(r, s, n, "the string of field"))
		return 0;
	return string_event(r, s, n);
}

static int fast_key(void *ctx, const unsigned char *s, size_t n)
{
	reader *r = ctx;
	if (r->fast_escapes && has_nul(r, s, n, "a key inside"))
		return 0;
	return key_event(r, s, n);
}

static const tlc_json_events fast_events = {
	cb_null, cb_bool, fast_integer, fast_big_integer, fast_real, fast_string, cb_start_map,
	fast_key, cb_end_map, cb_start_array, cb_end_array
};

/* The column yajl reports for an error raised at the record's closing
 * brace: that of the line's last byte other than whitespace. */
static uint64_t closing_column(const unsigned char *p, size_t n)
{
	while (n && (p[n - 1] == '\n' || p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	return n;
}

/* The fast path's record builder (tlc_json_fast__op) takes the record's
 * memory from the record's arena and its dtype names from the reader's. */
static void *fast_alloc(void *ctx, size_t n)
{
	return bump(ctx, n);
}

static void fast_dtype(void *ctx, const char *s, size_t n, tlc_tensor *t)
{
	/* (strings_stay: the name is not copied, so this cannot fail) */
	(void)dtype_set(ctx, (const unsigned char *)s, n, t);
}

/* An op record built straight from the parsed line, without events:
 * OK when pushed, CANCELED when pushing it raised an error, DECLINED when
 * the line is not of the plain shape (the events then read it). */
static int fast_op(reader *r)
{
	begin_record(r);
	tlc_json_op_sink sink = { r, fast_alloc, fast_dtype, TLC_OPLOG_MAX_DEPTH, &r->bcur, &r->bend };
	tlc_op op;
	if (tlc_json_fast__op(r->fast, &sink, &op) != TLC_JSON_FAST_OK)
		return TLC_JSON_FAST_DECLINED;
	return push_op(r, &op) ? TLC_JSON_FAST_OK : TLC_JSON_FAST_CANCELED;
}

/* Whether p[0..n) lies in the bytes of the chunk known to hold no
 * backslash (start_batch). */
static int in_plain(const reader *r, const unsigned char *p, size_t n)
{
	if (!r->plain_from)
		return 0;
	uintptr_t at = (uintptr_t)p - (uintptr_t)r->plain_from;
	uintptr_t len = (uintptr_t)r->plain_to - (uintptr_t)r->plain_from;
	return n <= len && at <= len - n;
}

/* 0 when the line p[0..n) was read, 1 when yajl must read it, or an
 * error; avail bytes from p are in the chunk (the line and what follows). */
static int fast_line(reader *r, const unsigned char *p, size_t n, size_t avail)
{
	r->pushed = 0;
	if (tlc_json_fast__parse(r->fast, p, n, avail) != TLC_JSON_FAST_OK)
		return 1;
	r->fast_escapes = !in_plain(r, p, n) && memchr(p, '\\', n) != NULL;
	r->strings_stay = 1;
	int st = r->fast_escapes ? TLC_JSON_FAST_DECLINED : fast_op(r);
	if (st == TLC_JSON_FAST_DECLINED)
		st = tlc_json_fast__events(r->fast, &fast_events, r);
	r->strings_stay = 0;
	if (st == TLC_JSON_FAST_OK)
		return 0;
	if (st == TLC_JSON_FAST_CANCELED && (r->err_set || r->pushed) && r->depth == 0)
		return raise_pending(r, closing_column(p, n)); /* raised by finish_record */
	r->depth = 0;
	r->line_objects = 0;
	r->err = r->err_set = 0;
	r->err_col = 0;
	return 1;
}

/* Whole blank (whitespace-only) lines at the start of p, skipped without
 * the parser: they cost what whitespace costs, not a parse per line.
 * Returns the bytes skipped; counts their lines. */
static size_t skip_blank_lines(reader *r, const unsigned char *p, size_t n)
{
	if (r->line_len != 0)
		return 0;
	size_t i = 0, upto = 0;
	uint64_t lines = 0;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) {
		if (p[i] == '\n') {
			lines++;
			upto = i + 1;
		}
		i++;
	}
	r->line += lines;
	return upto;
}

/* The whole lines of the chunk p[0..n) that the fast path parses as one
 * batch (tlc_json_fast__batch): from the first line that starts in it to
 * the last that ends TLC_JSON_FAST_PADDING bytes before its end (simdjson
 * reads that far past a text), at most TLC_JSON_FAST_BATCH bytes. Lines
 * outside it are parsed one by one. Always called, so that the batch of
 * the chunk before (whose bytes are gone) ends. */
static void start_batch(reader *r, const unsigned char *p, size_t n)
{
	size_t from = 0, to = 0;
	if (r->line_len) { /* the chunk starts inside a line: the next one */
		const unsigned char *nl = memchr(p, '\n', n);
		from = nl ? (size_t)(nl - p) + 1 : n;
	}
	if (n - from > TLC_JSON_FAST_PADDING) {
		size_t span = n - from - TLC_JSON_FAST_PADDING;
		if (span > TLC_JSON_FAST_BATCH)
			span = TLC_JSON_FAST_BATCH;
		to = from + span; /* back to the end of a line: about a line's bytes */
		while (to > from && p[to - 1] != '\n')
			to--;
	}
	(void)tlc_json_fast__batch(r->fast, p + from, to - from, n - from);
	/* one search for a backslash over the batch instead of one per line */
	int plain = to > from && !memchr(p + from, '\\', to - from);
	r->plain_from = plain ? p + from : NULL;
	r->plain_to = plain ? p + to : NULL;
}

static int feed_chunk(reader *r, const unsigned char *p, size_t n)
{
	if (r->fast)
		start_batch(r, p, n);
	while (n) {
		size_t blank = skip_blank_lines(r, p, n);
		p += blank;
		n -= blank;
		if (!n)
			break;
		const unsigned char *nl = memchr(p, '\n', n);
		size_t take = nl ? (size_t)(nl - p) + 1 : n;
		if (r->line_len + take > r->max_line)
			return tlc_error__set_pos(TLC_EINPUT, "oplog_line_too_long", r->file, r->line,
			                          r->max_line, remedy_for("oplog_line_too_long"),
			                          "line %llu is longer than %llu bytes",
			                          (unsigned long long)r->line,
			                          (unsigned long long)r->max_line);
		int fast = r->fast && nl && r->line_len == 0 && r->seen_header;
		int rc = fast ? fast_line(r, p, take, n) : 1;
		if (rc > 0)
			rc = feed(r, p, take);
		if (rc < 0)
			return rc;
		r->line_len += take;
		if (nl && (rc = end_line(r)) < 0)
			return rc;
		p += take;
		n -= take;
	}
	return 0;
}

/* The input ends inside its first line, an object that has not said
 * "format":"tlcost-oplog": the sniffer sent it here only because it is no
 * clear trace either (one line, no "traceEvents" yet), so the error names
 * both. */
static int truncated_undecided(reader *r)
{
	return tlc_error__set_pos(TLC_EINPUT, "input_truncated", r->file, r->line, r->line_len + 1,
	                          "copy or export the whole file again (a Kineto trace with "
	                          "torch.profiler export_chrome_trace, an op log with `python3 -m "
	                          "tlcost capture`), then read it again",
	                          "the input ends inside its first JSON object, before it became "
	                          "an op log header ({\"format\":\"tlcost-oplog\",...}) or reached "
	                          "a trace's \"traceEvents\": a truncated trace or op log; nothing "
	                          "was read");
}

static int truncated(reader *r)
{
	if (!r->seen_header && r->line == r->first_line && r->line_len > 0 &&
	    !(has(r, K_FORMAT) && r->slots[K_FORMAT].t == J_STR &&
	      strcmp(r->slots[K_FORMAT].s, "tlcost-oplog") == 0))
		return truncated_undecided(r);
	if (r->line_len == 0 && r->line > 1) /* a compressed stream cut between lines */
		return tlc_error__set_pos(TLC_EINPUT, "oplog_truncated", r->file, r->line - 1, 0,
		                          "the file is incomplete: let the capture finish (flush and "
		                          "close the writer) or copy the whole file, then read it again",
		                          "the compressed input ends early (truncated) after line %llu; "
		                          "nothing after line %llu was read",
		                          (unsigned long long)(r->line - 1),
		                          (unsigned long long)(r->line - 1));
	return tlc_error__set_pos(TLC_EINPUT, "oplog_truncated", r->file, r->line, r->line_len + 1,
	                          "the file is incomplete: let the capture finish (flush and close "
	                          "the writer) or copy the whole file, then read it again",
	                          "the input ends in the middle of line %llu (truncated); nothing "
	                          "after line %llu was read", (unsigned long long)r->line,
	                          (unsigned long long)r->line);
}

static int finish_input(reader *r)
{
	if (r->line_len > 0) {
		if (r->depth > 0)
			return truncated(r);
		/* a last line without '\n': end any pending top-level token */
		int rc = feed(r, (const unsigned char *)"\n", 1);
		if (rc < 0)
			return rc;
	}
	if (!r->seen_header)
		return tlc_error__set_pos(TLC_EINPUT, "oplog_header_invalid", r->file, 1, 1,
		                          remedy_for("oplog_header_invalid"),
		                          "no op log header: the input is empty");
	return 0;
}

static int stream_failed(reader *r, int rc)
{
	const tlc_error *e = tlc_error_last();
	if (e->code && !strcmp(e->code, "gzip_truncated"))
		return truncated(r);
	tlc_error__locate(r->file, r->line, 0);
	return rc;
}

static int run(reader *r, tlc_instream *in)
{
	for (int first = 1;; first = 0) {
		const unsigned char *p;
		size_t n;
		int rc = tlc_instream__read(in, &p, &n);
		if (rc < 0)
			return stream_failed(r, rc);
		if (n == 0)
			return finish_input(r);
		if (first && n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
			p += 3; /* a UTF-8 byte order mark, as some editors write */
			n -= 3;
		}
		if ((rc = feed_chunk(r, p, n)) < 0)
			return rc;
	}
}

int tlc_oplog__read_stream(tlc_eval *ev, tlc_instream *in, uint64_t max_line)
{
	reader *r;
	const tlc_allocator *a = tlc_eval__allocator(ev);
	if (!(r = tlc_alloc__calloc(a, 1, sizeof *r)))
		return tlc_error__oom();
	r->ev = ev;
	r->a = a;
	r->file = tlc_instream__name(in);
	r->max_line = max_line ? max_line : TLC_OPLOG_MAX_LINE;
	r->max_held = tlc_instream__limits(in)->max_held_records;
	r->max_held_bytes = tlc_instream__limits(in)->max_held_bytes;
	uint64_t col;
	tlc_instream__origin(in, &r->line, &col); /* (after whitespace the sniffer skipped) */
	r->first_line = r->line;
	r->line_len = col - 1;
	tlc_arena__init(&r->arena, a, 64 * 1024);
	tlc_sb__init(&r->meta, a);
	yajl_alloc_funcs af = { y_malloc, y_realloc, y_free, r };
	int rc;
	r->y = yajl_alloc(&callbacks, &af, r);
	if (!r->y || r->yajl_oom) {
		rc = tlc_error__oom();
		if (r->y)
			yajl_free(r->y);
	} else {
		yajl_config(r->y, yajl_allow_multiple_values, 1);
		r->fast = tlc_json_fast__new();
		rc = run(r, in);
		tlc_json_fast__free(r->fast);
		yajl_free(r->y);
	}
	tlc_arena__free(&r->arena);
	tlc_sb__free(&r->meta);
	tlc_alloc__free(a, r->vals);
	tlc_alloc__free(a, r->kws);
	tlc_alloc__free(a, r);
	return rc;
}

/* tlc_oplog_read and tlc_oplog_read_mem after their stream is open: the
 * default limits, the read, the close. */
static int read_and_close(tlc_eval *ev, tlc_instream *in)
{
	tlc_instream__set_limits(in, NULL);
	int rc = tlc_oplog__read_stream(ev, in, 0);
	tlc_instream__close(in);
	return rc;
}

int tlc_oplog_read(tlc_eval *ev, const char *path)
{
	if (!ev || !path)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an evaluation and a path",
		                      "tlc_oplog_read: NULL argument");
	tlc_instream *in;
	int rc = tlc_instream__open_file(&in, tlc_eval__allocator(ev), path);
	return rc < 0 ? rc : read_and_close(ev, in);
}

int tlc_oplog_read_mem(tlc_eval *ev, const void *data, size_t len, const char *name)
{
	if (!ev || (!data && len))
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an evaluation and a buffer",
		                      "tlc_oplog_read_mem: NULL argument");
	tlc_instream *in;
	int rc = tlc_instream__open_mem(&in, tlc_eval__allocator(ev), data, len, name);
	return rc < 0 ? rc : read_and_close(ev, in);
}
