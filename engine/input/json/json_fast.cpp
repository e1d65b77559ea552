// The SIMD JSON fast path (engine/input/json/json_fast.h): simdjson walking one
// JSON text and delivering yajl-shaped events. The only C++ in libtlcost;
// nothing here is exported (the library exports ^tlc_ names with one
// underscore only) and no exception leaves this file.
//
// simdjson's DOM parser validates the whole text (RFC 8259: structure,
// UTF-8, escapes, numbers) before a single event is delivered, with its
// SIMD kernels chosen at run time; the walk over its tape then costs little.
// What it accepts is a subset of what yajl accepts: anything else (yajl's
// extra whitespace characters \v and \f, lone surrogate escapes, integers
// beyond 64 bits, numbers beyond the double range) is declined, and the
// reader parses that text with yajl. A text that is not one object is
// declined too; so is one nested deeper than simdjson's default limit
// (1024 levels; the readers' own limits are lower).
// Numbers arrive typed, as simdjson converts them: integers exactly,
// others correctly rounded to the nearest double (as strtod does).
#define SIMDJSON_EXCEPTIONS 0
#include <simdjson.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>

#include "json_fast.h"

namespace dom = simdjson::dom;

// Lines parsed together (tlc_json_fast__batch): stage 1 runs once over
// all of them, stage 2 document by document as the reader asks for lines.
struct line_batch {
	dom::parser parser{TLC_JSON_FAST_BATCH + simdjson::SIMDJSON_PADDING};
	dom::document_stream stream;
	dom::document_stream::iterator it;
	const char *base = nullptr; // the lines, where they lie
	size_t len = 0;
	bool live = false; // documents may still be read from the stream
	line_batch()
	{
#ifdef SIMDJSON_THREADS_ENABLED
		parser.threaded = false; // stage 1 in this thread: no second core taken
#endif
	}
};

struct tlc_json_fast {
	dom::parser parser{TLC_JSON_FAST_MAX_TEXT + simdjson::SIMDJSON_PADDING};
	char *buf = nullptr; // the text, copied, with SIMDJSON_PADDING bytes after it
	size_t cap = 0;
	line_batch batch;
	dom::object root;     // the text parsed last (tlc_json_fast__parse)
	const dom::document *doc = nullptr; // where it lies (a parser's)
	bool parsed = false;
};

namespace {

struct walk {
	const tlc_json_events *cb;
	void *ctx;
};

const unsigned char *bytes(std::string_view s)
{
	return reinterpret_cast<const unsigned char *>(s.data());
}

int done(int ok)
{
	return ok ? TLC_JSON_FAST_OK : TLC_JSON_FAST_CANCELED;
}

int walk_value(walk &w, dom::element e);

int walk_object(walk &w, dom::object o)
{
	if (!w.cb->start_map(w.ctx))
		return TLC_JSON_FAST_CANCELED;
	for (dom::key_value_pair kv : o) {
		if (!w.cb->map_key(w.ctx, bytes(kv.key), kv.key.size()))
			return TLC_JSON_FAST_CANCELED;
		int rc = walk_value(w, kv.value);
		if (rc)
			return rc;
	}
	return done(w.cb->end_map(w.ctx));
}

int walk_array(walk &w, dom::array a)
{
	if (!w.cb->start_array(w.ctx))
		return TLC_JSON_FAST_CANCELED;
	for (dom::element e : a) {
		int rc = walk_value(w, e);
		if (rc)
			return rc;
	}
	return done(w.cb->end_array(w.ctx));
}

int walk_value(walk &w, dom::element e)
{
	switch (e.type()) {
	// (the type is known: the get_*() below cannot fail)
	case dom::element_type::OBJECT: return walk_object(w, e.get_object().value_unsafe());
	case dom::element_type::ARRAY: return walk_array(w, e.get_array().value_unsafe());
	case dom::element_type::STRING: {
		std::string_view s = e.get_string().value_unsafe();
		return done(w.cb->string(w.ctx, bytes(s), s.size()));
	}
	case dom::element_type::INT64: return done(w.cb->integer(w.ctx, e.get_int64().value_unsafe()));
	case dom::element_type::UINT64: return done(w.cb->big_integer(w.ctx)); // above INT64_MAX
	case dom::element_type::DOUBLE: return done(w.cb->real(w.ctx, e.get_double().value_unsafe()));
	case dom::element_type::BOOL: return done(w.cb->boolean(w.ctx, e.get_bool().value_unsafe()));
	default: return done(w.cb->null(w.ctx));
	}
}

// Room for len bytes and simdjson's padding; false when memory is short.
bool reserve(tlc_json_fast *j, size_t len)
{
	size_t need = len + simdjson::SIMDJSON_PADDING;
	if (need <= j->cap)
		return true;
	size_t cap = need < 4096 ? 4096 : need + need / 2;
	char *b = new (std::nothrow) char[cap](); // zeroed: padding is never uninitialised
	if (!b)
		return false;
	delete[] j->buf;
	j->buf = b;
	j->cap = cap;
	return true;
}

} // namespace

extern "C" tlc_json_fast *tlc_json_fast__new(void)
{
	const char *env = std::getenv("TLCOST_JSON_FAST");
	if (env && std::strcmp(env, "0") == 0)
		return nullptr;
	try {
		return new (std::nothrow) tlc_json_fast();
	} catch (...) {
		return nullptr;
	}
}

extern "C" void tlc_json_fast__free(tlc_json_fast *j)
{
	if (!j)
		return;
	delete[] j->buf;
	delete j;
}

static_assert(TLC_JSON_FAST_PADDING == simdjson::SIMDJSON_PADDING, "json_fast.h padding");

namespace {

bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The batch's document that is exactly the line text[0..len) (from its
// first byte other than whitespace to its last), an object: OK, with
// j->root set. A document that starts before the line belongs to an
// earlier line (one read otherwise) and is passed; one that fails ends
// the batch (the document stream stops at an error), and so does its end.
int from_batch(tlc_json_fast *j, const char *text, size_t len)
{
	line_batch &b = j->batch;
	size_t from = (size_t)(text - b.base), to = from + len;
	while (from < to && blank(b.base[from]))
		from++;
	while (to > from && blank(b.base[to - 1]))
		to--;
	dom::element root;
	size_t at;
	for (;;) {
		if (!(b.it != b.stream.end()) || (*b.it).get(root)) {
			b.live = false;
			return TLC_JSON_FAST_DECLINED;
		}
		at = b.it.current_index();
		if (at >= from)
			break;
		++b.it;
	}
	// (an object document's source runs from its '{' to its '}')
	if (at != from || at + b.it.source().size() != to || root.get_object().get(j->root))
		return TLC_JSON_FAST_DECLINED;
	return TLC_JSON_FAST_OK;
}

} // namespace

extern "C" int tlc_json_fast__batch(tlc_json_fast *j, const unsigned char *text, size_t len,
                                    size_t readable)
{
	if (!j)
		return TLC_JSON_FAST_DECLINED;
	line_batch &b = j->batch;
	b.live = false;
	j->parsed = false; // (the document parsed last may have been the batch's)
	if (!len || len > TLC_JSON_FAST_BATCH || readable < len ||
	    readable - len < simdjson::SIMDJSON_PADDING)
		return TLC_JSON_FAST_DECLINED;
	b.base = reinterpret_cast<const char *>(text);
	b.len = len;
	try {
		// one batch of len bytes: stage 1 over the whole of it (streaming_final)
		if (b.parser.parse_many(text, len, len).get(b.stream))
			return TLC_JSON_FAST_DECLINED;
		b.it = b.stream.begin();
	} catch (...) {
		return TLC_JSON_FAST_DECLINED;
	}
	b.live = true;
	return TLC_JSON_FAST_OK;
}

extern "C" int tlc_json_fast__parse(tlc_json_fast *j, const unsigned char *text, size_t len,
                                    size_t readable)
{
	if (!j || len > TLC_JSON_FAST_MAX_TEXT)
		return TLC_JSON_FAST_DECLINED;
	j->parsed = false;
	const char *t = reinterpret_cast<const char *>(text);
	uintptr_t off = reinterpret_cast<uintptr_t>(t) - reinterpret_cast<uintptr_t>(j->batch.base);
	if (j->batch.live && len <= j->batch.len && off <= j->batch.len - len) {
		try {
			if (from_batch(j, t, len) == TLC_JSON_FAST_OK) {
				j->doc = &j->batch.parser.doc;
				j->parsed = true;
				return TLC_JSON_FAST_OK;
			}
		} catch (...) {
			j->batch.live = false;
		}
	}
	// simdjson reads up to SIMDJSON_PADDING bytes past the text, whatever
	// they hold ("it does not matter what those bytes are initialized to,
	// as long as they are allocated"): a text followed by that many of the
	// caller's bytes is parsed where it lies
	const char *at = reinterpret_cast<const char *>(text);
	if (readable < len || readable - len < simdjson::SIMDJSON_PADDING) {
		if (!reserve(j, len))
			return TLC_JSON_FAST_DECLINED;
		std::memcpy(j->buf, text, len);
		at = j->buf;
	}
	try {
		dom::element root;
		if (j->parser.parse(at, len, false).get(root) || root.get_object().get(j->root))
			return TLC_JSON_FAST_DECLINED;
	} catch (...) {
		return TLC_JSON_FAST_DECLINED;
	}
	j->doc = &j->parser.doc;
	j->parsed = true;
	return TLC_JSON_FAST_OK;
}

extern "C" int tlc_json_fast__events(tlc_json_fast *j, const tlc_json_events *cb, void *ctx)
{
	if (!j || !j->parsed)
		return TLC_JSON_FAST_DECLINED;
	walk w = { cb, ctx };
	return walk_object(w, j->root);
}

extern "C" int tlc_json_fast__object(tlc_json_fast *j, const unsigned char *text, size_t len,
                                     size_t readable, const tlc_json_events *cb, void *ctx)
{
	int rc = tlc_json_fast__parse(j, text, len, readable);
	return rc ? rc : tlc_json_fast__events(j, cb, ctx);
}

// ---- op records built straight from the DOM (tlc_json_fast__op) ----
//
// The same record engine/input/oplog/oplog.c builds from events (finish_op and
// the value, tensor and dims events there), for the plain shape only: any
// departure throws decline{} and the reader walks the events instead,
// which reproduces every error and its position.
//
// The builder reads the parse's tape itself (simdjson's documented DOM
// layout, doc/tape.md; the words dom::element reads): one 64-bit word per
// value, its type in the top byte; an object or array word holds the index
// just past its closing word and (bits 32-55) its count of fields or
// elements; a string word holds the offset of its 32-bit length, then its
// bytes and a NUL, in the string buffer; an integer or double takes the
// word after it. A walk by index, without dom::element's per-access
// checks, costs about half as much.

namespace {

struct decline {};

using tt = simdjson::internal::tape_type;

struct op_build {
	const tlc_json_op_sink *sink;
	const uint64_t *tape;
	const uint8_t *strings;

	void *mem(size_t n)
	{
		size_t m = (n + 7) & ~(size_t)7; // (n is bounded by items())
		if (sink->cur && (size_t)(*sink->end - *sink->cur) >= m) {
			void *p = *sink->cur;
			*sink->cur += m;
			return p;
		}
		void *p = sink->alloc(sink->ctx, n);
		if (!p)
			throw decline{};
		return p;
	}
	template <class T> T *items(size_t n)
	{
		// (counts saturate at 0xFFFFFF on the tape: such a big array is declined)
		if (n >= simdjson::internal::JSON_COUNT_MASK)
			throw decline{};
		return n ? static_cast<T *>(mem(n * sizeof(T))) : nullptr;
	}
	void depth_ok(int d) const
	{
		if (d > sink->max_depth)
			throw decline{};
	}

	tt type(size_t i) const { return static_cast<tt>(tape[i] >> 56); }
	// an object's or array's: the index past its closing word; its count
	size_t end(size_t i) const { return (uint32_t)tape[i]; }
	size_t count(size_t i) const { return (size_t)(tape[i] >> 32) & simdjson::internal::JSON_COUNT_MASK; }
	// the index of the value after the one at i
	size_t next(size_t i) const
	{
		switch (type(i)) {
		case tt::START_ARRAY:
		case tt::START_OBJECT: return end(i);
		case tt::INT64:
		case tt::UINT64:
		case tt::DOUBLE: return i + 2;
		default: return i + 1;
		}
	}
	int64_t int_at(size_t i) const
	{
		int64_t v;
		std::memcpy(&v, &tape[i + 1], sizeof v);
		return v;
	}
	double double_at(size_t i) const
	{
		double v;
		std::memcpy(&v, &tape[i + 1], sizeof v);
		return v;
	}
	// a string's text (NUL-terminated where it lies)
	std::string_view str_at(size_t i) const
	{
		const uint8_t *p = strings + (tape[i] & simdjson::internal::JSON_VALUE_MASK);
		uint32_t n;
		std::memcpy(&n, p, sizeof n);
		return std::string_view(reinterpret_cast<const char *>(p + sizeof n), n);
	}

	int64_t as_int(size_t i) const
	{
		if (type(i) != tt::INT64)
			throw decline{};
		return int_at(i);
	}
	int64_t as_uint(size_t i) const
	{
		int64_t v = as_int(i);
		if (v < 0)
			throw decline{};
		return v;
	}
	std::string_view as_str(size_t i) const
	{
		if (type(i) != tt::STRING)
			throw decline{};
		return str_at(i);
	}
	bool is_null(size_t i) const { return type(i) == tt::NULL_VALUE; }
};

// A value the reader skips (an unknown field's) at i: only its nesting
// counts; d is the frame depth of its parent.
void skip(op_build &b, size_t i, int d)
{
	tt t = b.type(i);
	if (t != tt::START_OBJECT && t != tt::START_ARRAY)
		return;
	b.depth_ok(d + 1);
	size_t stop = b.end(i) - 1; // (the closing word)
	for (size_t k = i + 1; k < stop; k = b.next(k)) {
		if (t == tt::START_OBJECT)
			k++; // (the key)
		skip(b, k, d + 1);
	}
}

// Shape or stride entries at i (frame depth d); shape entries are >= 0.
const int64_t *dims(op_build &b, size_t i, bool shape, size_t *n, int d)
{
	if (b.type(i) != tt::START_ARRAY)
		throw decline{};
	b.depth_ok(d);
	size_t c = b.count(i);
	int64_t *out = b.items<int64_t>(c);
	size_t k = i + 1;
	for (size_t e = 0; e < c; e++, k += 2) // (each entry an integer: two words)
		out[e] = shape ? b.as_uint(k) : b.as_int(k);
	*n = c;
	return out;
}

void value(op_build &b, size_t i, tlc_value *v, int d);

// A tensor object at i, frame depth d (oplog.c's tensor_event and check_tensor).
void tensor(op_build &b, size_t i, tlc_value *v, int d)
{
	b.depth_ok(d);
	v->kind = TLC_VALUE_TENSOR;
	tlc_tensor *t = &v->u.tensor;
	unsigned seen = 0;
	size_t nstride = 0, stop = b.end(i) - 1;
	for (size_t k = i + 1; k < stop;) {
		std::string_view key = b.str_at(k);
		size_t x = k + 1;
		k = b.next(x);
		unsigned bit;
		if (key == "shape") {
			bit = 1;
			t->shape = dims(b, x, true, &t->ndim, d + 1);
		} else if (key == "dtype") {
			bit = 2;
			if (!b.is_null(x)) {
				std::string_view s = b.as_str(x);
				b.sink->dtype(b.sink->ctx, s.data(), s.size(), t);
			}
		} else if (key == "stride") {
			bit = 4;
			if (!b.is_null(x))
				t->stride = dims(b, x, false, &nstride, d + 1);
		} else if (key == "device") {
			bit = 8;
			if (!b.is_null(x))
				t->device = b.as_str(x).data();
		} else if (key == "numel") {
			bit = 16;
			if (!b.is_null(x))
				(void)b.as_uint(x);
		} else {
			skip(b, x, d);
			continue;
		}
		if (seen & bit) // a repeated field: the events say what it means
			throw decline{};
		seen |= bit;
	}
	if (!(seen & 1) || (t->stride && nstride != t->ndim))
		throw decline{};
	if (!t->ndim) // (an empty shape or stride is NULL, as the reader leaves it)
		t->shape = nullptr;
	if (!nstride)
		t->stride = nullptr;
}

// The values of the array at i (parent frame depth d) into out[0..count).
void list_items(op_build &b, size_t i, tlc_value *out, int d)
{
	size_t stop = b.end(i) - 1, e = 0;
	for (size_t k = i + 1; k < stop; k = b.next(k))
		value(b, k, &out[e++], d);
}

// One value of args, kwargs, outputs or a list (oplog.c's value_event) at
// i; d is the frame depth of its parent.
void value(op_build &b, size_t i, tlc_value *v, int d)
{
	std::memset(v, 0, sizeof *v);
	switch (b.type(i)) {
	case tt::START_OBJECT: return tensor(b, i, v, d + 1);
	case tt::START_ARRAY: {
		b.depth_ok(d + 1);
		size_t c = b.count(i);
		tlc_value *items = b.items<tlc_value>(c);
		list_items(b, i, items, d + 1);
		v->kind = TLC_VALUE_LIST;
		v->u.list.n = c;
		v->u.list.items = items;
		return;
	}
	case tt::STRING: {
		std::string_view s = b.str_at(i);
		v->kind = TLC_VALUE_FLOAT;
		if (s == "inf")
			v->u.real = HUGE_VAL;
		else if (s == "-inf")
			v->u.real = -HUGE_VAL;
		else if (s == "nan")
			v->u.real = NAN;
		else
			v->kind = TLC_VALUE_STRING, v->u.string = s.data();
		return;
	}
	case tt::INT64:
		v->kind = TLC_VALUE_INT;
		v->u.integer = b.int_at(i);
		return;
	case tt::DOUBLE:
		v->kind = TLC_VALUE_FLOAT;
		v->u.real = b.double_at(i);
		return;
	case tt::TRUE_VALUE:
	case tt::FALSE_VALUE:
		v->kind = TLC_VALUE_BOOL;
		v->u.boolean = b.type(i) == tt::TRUE_VALUE;
		return;
	case tt::NULL_VALUE: v->kind = TLC_VALUE_NONE; return;
	default: throw decline{}; // an integer above INT64_MAX
	}
}

// args or outputs at i (frame depth 2): the values, their count in *n.
const tlc_value *values(op_build &b, size_t i, size_t *n)
{
	if (b.type(i) != tt::START_ARRAY)
		throw decline{};
	size_t c = b.count(i);
	tlc_value *out = b.items<tlc_value>(c);
	list_items(b, i, out, 2);
	*n = c;
	return out;
}

const tlc_kwarg *kwargs(op_build &b, size_t i, size_t *n)
{
	if (b.type(i) != tt::START_OBJECT)
		throw decline{};
	size_t c = b.count(i);
	tlc_kwarg *out = b.items<tlc_kwarg>(c);
	size_t stop = b.end(i) - 1, e = 0;
	for (size_t k = i + 1; k < stop; e++) {
		out[e].name = b.str_at(k).data(); // NUL-terminated in the parser's string buffer
		value(b, k + 1, &out[e].value, 2);
		k = b.next(k + 1);
	}
	*n = e;
	return e ? out : nullptr;
}

enum op_key {
	O_NONE, O_KIND, O_ID, O_OP, O_OVERLOAD, O_PHASE, O_MODULE, O_MODULE_TYPE, O_MODULE_CALL,
	O_PARENT, O_ARGS, O_KWARGS, O_OUTPUTS, O_HOST_NS, O_START_NS, O_THREAD, O_CORRELATION
};

// The op fields of a record (oplog.c's record_key, less the other kinds').
op_key op_key_of(std::string_view k)
{
	switch (k.size()) {
	case 2: return k == "id" ? O_ID : k == "op" ? O_OP : O_NONE;
	case 4: return k == "args" ? O_ARGS : k == "kind" ? O_KIND : O_NONE;
	case 5: return k == "phase" ? O_PHASE : O_NONE;
	case 6:
		return k == "module" ? O_MODULE : k == "parent" ? O_PARENT : k == "kwargs" ? O_KWARGS
		     : k == "thread" ? O_THREAD : O_NONE;
	case 7: return k == "outputs" ? O_OUTPUTS : k == "host_ns" ? O_HOST_NS : O_NONE;
	case 8: return k == "overload" ? O_OVERLOAD : k == "start_ns" ? O_START_NS : O_NONE;
	case 10: // the "unrecorded" extension marks args: the event walk applies it
		if (k == "unrecorded")
			throw decline{};
		return O_NONE;
	case 11:
		return k == "module_type" ? O_MODULE_TYPE : k == "module_call" ? O_MODULE_CALL
		     : k == "correlation" ? O_CORRELATION : O_NONE;
	case 13: // the "args_observed" extension sets a flag: the event walk applies it
		if (k == "args_observed")
			throw decline{};
		return O_NONE;
	default: return O_NONE;
	}
}

tlc_phase phase_of(std::string_view s)
{
	if (s == "forward")
		return TLC_PHASE_FORWARD;
	if (s == "backward")
		return TLC_PHASE_BACKWARD;
	if (s == "optimizer")
		return TLC_PHASE_OPTIMIZER;
	if (s == "other")
		return TLC_PHASE_OTHER;
	throw decline{};
}

// The record: the object at tape index 1 (the root's, after the root word).
void record(op_build &b, tlc_op *op)
{
	uint32_t any = 0, seen = 0; // fields that came; those not null
	size_t stop = b.end(1) - 1;
	for (size_t kk = 2; kk < stop;) {
		op_key k = op_key_of(b.str_at(kk));
		size_t v = kk + 1;
		kk = b.next(v);
		if (k == O_NONE) { // not an op field: ignored, as the reader ignores it
			skip(b, v, 1);
			continue;
		}
		if (any >> k & 1) // a repeated field: the events say what it means
			throw decline{};
		any |= (uint32_t)1 << k;
		if (b.is_null(v)) // null means absent
			continue;
		seen |= (uint32_t)1 << k;
		switch (k) {
		case O_KIND:
			if (b.as_str(v) != "op")
				throw decline{};
			break;
		case O_ID: op->id = b.as_uint(v); break;
		case O_OP: op->name = b.as_str(v).data(); break;
		case O_OVERLOAD: op->overload = b.as_str(v).data(); break;
		case O_PHASE: op->phase = phase_of(b.as_str(v)); break;
		case O_MODULE: op->module = b.as_str(v).data(); break;
		case O_MODULE_TYPE: op->module_type = b.as_str(v).data(); break;
		case O_MODULE_CALL: op->module_call = b.as_uint(v), op->flags |= TLC_OP_HAS_MODULE_CALL; break;
		case O_PARENT: op->parent = b.as_uint(v), op->flags |= TLC_OP_HAS_PARENT; break;
		case O_HOST_NS: op->host_ns = b.as_uint(v), op->flags |= TLC_OP_HAS_HOST_NS; break;
		case O_START_NS: op->start_ns = b.as_int(v), op->flags |= TLC_OP_HAS_START_NS; break;
		case O_THREAD: op->thread = b.as_int(v), op->flags |= TLC_OP_HAS_THREAD; break;
		case O_CORRELATION: op->correlation = b.as_int(v); break;
		case O_ARGS: op->args = values(b, v, &op->nargs); break;
		case O_OUTPUTS:
			op->outputs = values(b, v, &op->noutputs);
			op->flags |= TLC_OP_HAS_OUTPUTS;
			break;
		case O_KWARGS: op->kwargs = kwargs(b, v, &op->nkwargs); break;
		default: throw decline{};
		}
	}
	if (!(seen >> O_ID & 1) || !(seen >> O_OP & 1) || !(seen >> O_ARGS & 1))
		throw decline{};
	if (!(seen >> O_CORRELATION & 1))
		op->correlation = op->id;
	if (!op->nargs)
		op->args = nullptr;
	if (!op->noutputs)
		op->outputs = nullptr;
}

} // namespace

extern "C" int tlc_json_fast__op(tlc_json_fast *j, const tlc_json_op_sink *sink, tlc_op *op)
{
	if (!j || !j->parsed)
		return TLC_JSON_FAST_DECLINED;
	// (a copy of a zero record compiles to a few vector stores, where a
	// memset of this size becomes `rep stos`, slow to start)
	static const tlc_op zero_op{};
	std::memcpy(op, &zero_op, sizeof *op);
	op->size = sizeof *op;
	op->phase = TLC_PHASE_FORWARD;
	op_build b = { sink, j->doc->tape.get(), j->doc->string_buf.get() };
	try {
		record(b, op);
	} catch (...) { // decline{}, or anything of simdjson's
		return TLC_JSON_FAST_DECLINED;
	}
	return TLC_JSON_FAST_OK;
}

// ---- trace: the elements of a Kineto trace's traceEvents array ----
//
// tlc_json_trace__batch reads a run of complete array elements with
// On-Demand and delivers, per element, the events yajl delivers for it
// (numbers as their text, as yajl's number callback has them). The run is
// parsed in place as the array "[" + run + "]": the byte before the run and
// the one after it are borrowed for the brackets and put back.
//
// On-Demand validates what it is asked to read, not what it skips, so every
// value of an element is read (the reader's callbacks see them all anyway),
// and what On-Demand takes without checking is checked here: a number's
// text against the JSON grammar (yajl's lexer), a literal's spelling. A
// string is unescaped by simdjson, which rejects lone surrogates; stage 1
// validates UTF-8 and rejects raw control characters in strings. What it
// rejects is declined to yajl, whose reader refuses the same strings
// (engine/input/json/jsontext.h: yajl alone would let some through). yajl's extra whitespace (\v, \f) is no whitespace here, so
// an element holding it fails and is declined.

struct tlc_json_trace {
	simdjson::ondemand::parser parser;
};

namespace {

namespace od = simdjson::ondemand;

struct twalk {
	const tlc_json_trace_events *cb;
	void *ctx;
	const char *end; // the run's end: every string closes before it
	bool canceled = false; // a callback returned 0
};

bool json_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The token without the whitespace On-Demand counts into it.
std::string_view trim_token(std::string_view t)
{
	size_t n = t.size();
	while (n && json_ws(t[n - 1]))
		n--;
	return t.substr(0, n);
}

// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? exactly (RFC 8259, yajl's lexer)
bool json_number(std::string_view s)
{
	const unsigned char *p = reinterpret_cast<const unsigned char *>(s.data());
	const unsigned char *e = p + s.size();
	auto digits = [&p, e]() { // one or more
		if (p >= e || unsigned(*p - '0') > 9)
			return false;
		while (++p < e && unsigned(*p - '0') <= 9)
			;
		return true;
	};
	if (p < e && *p == '-')
		p++;
	if (p < e && *p == '0')
		p++;
	else if (!digits())
		return false;
	if (p == e) // (an integer: most numbers of a trace)
		return true;
	if (*p == '.') {
		p++;
		if (!digits())
			return false;
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		if (++p < e && (*p == '+' || *p == '-'))
			p++;
		if (!digits())
			return false;
	}
	return p == e;
}

// false: stop (a simdjson error, a value yajl would read otherwise, or a
// callback's 0, then w.canceled)
bool tvalue(twalk &w, od::value &v, char close);

bool tcall(twalk &w, int ok)
{
	if (!ok)
		w.canceled = true;
	return ok != 0;
}

// A scalar's text (its raw token without the whitespace after it), or an
// empty view when the token after it is not one that may follow a value in
// its container (',' or close): a scalar read by its text is not consumed,
// and On-Demand, skipping it, does not check what follows it.
std::string_view scalar(std::string_view t, char close)
{
	char next = t.data()[t.size()]; // (the next token: the array's ']' at the latest)
	if (next != ',' && next != close)
		return std::string_view();
	return trim_token(t);
}

// A string without a backslash is its raw text (stage 1 validated it:
// UTF-8, no raw control character), delivered where it lies; one with
// escapes is unescaped by simdjson.
bool tstring(twalk &w, od::value &v, std::string_view tok, char close)
{
	std::string_view s = scalar(tok, close);
	if (s.empty())
		return false;
	if (s.size() >= 2 && s.back() == '"' && !std::memchr(s.data() + 1, '\\', s.size() - 2)) {
		s = s.substr(1, s.size() - 2);
		return tcall(w, w.cb->plain_string(w.ctx, bytes(s), s.size()));
	}
	if (v.get_string().get(s))
		return false;
	return tcall(w, w.cb->string(w.ctx, bytes(s), s.size()));
}

// A key, raw where it has no backslash (as tstring), else unescaped: what
// map_key said (0: stop, 1: the value's events, 2: a quiet value).
int tkey(twalk &w, od::field &f)
{
	const char *k = f.key().raw(), *q = k; // (just after the opening quote)
	while (q < w.end && *q != '"' && *q != '\\') // (keys are short: a byte loop)
		q++;
	std::string_view s;
	if (q < w.end && *q == '"')
		s = std::string_view(k, (size_t)(q - k));
	else if (f.unescaped_key().get(s))
		return 0;
	int said = w.cb->map_key(w.ctx, bytes(s), s.size());
	if (!said)
		w.canceled = true;
	return said;
}

// A quiet value (its key's map_key said 2): read and checked as every
// value is, its events not delivered. false also where the reader's
// callbacks would have seen more than nothing in it: a string that may hold
// a NUL (one with escapes that unescapes to one), a scalar longer than
// quiet_max, nesting deeper than QUIET_DEPTH (the element is then read by
// yajl, which delivers every event).
constexpr int QUIET_DEPTH = 16;

bool tquiet(twalk &w, od::value &v, char close, int depth);

bool tquiet_fields(twalk &w, od::object &o, int depth)
{
	for (auto f : o) {
		if (f.error())
			return false;
		od::field &fld = f.value_unsafe(); // (a reference: see tfields)
		const char *k = fld.key().raw(), *q = k;
		while (q < w.end && *q != '"' && *q != '\\')
			q++;
		std::string_view u;
		if ((q >= w.end || *q != '"') && fld.unescaped_key().get(u))
			return false; // (an escaped key is unescaped: that checks its escapes)
		if (!tquiet(w, fld.value(), '}', depth))
			return false;
	}
	return true;
}

bool tquiet(twalk &w, od::value &v, char close, int depth)
{
	std::string_view tok = v.raw_json_token();
	switch (tok.empty() ? '\0' : tok[0]) {
	case '{': {
		od::object o;
		return depth < QUIET_DEPTH && !v.get_object().get(o) && tquiet_fields(w, o, depth + 1);
	}
	case '[': {
		od::array a;
		if (depth >= QUIET_DEPTH || v.get_array().get(a))
			return false;
		for (auto e : a) {
			if (e.error() || !tquiet(w, e.value_unsafe(), ']', depth + 1))
				return false;
		}
		return true;
	}
	case '"': {
		std::string_view s = scalar(tok, close);
		if (s.size() < 2 || s.size() - 2 > w.cb->quiet_max)
			return false;
		if (s.back() == '"' && !std::memchr(s.data() + 1, '\\', s.size() - 2))
			return true;
		return !v.get_string().get(s) && !std::memchr(s.data(), 0, s.size());
	}
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9': {
		std::string_view s = scalar(tok, close);
		return s.size() <= w.cb->quiet_max && json_number(s);
	}
	case 't': case 'f': {
		std::string_view s = scalar(tok, close);
		return s == "true" || s == "false";
	}
	case 'n': return scalar(tok, close) == "null";
	default: return false;
	}
}

// The fields of an object whose '{' was read; the caller delivers end_map.
bool tfields(twalk &w, od::object &o)
{
	for (auto f : o) {
		// (the field by reference, not copied out of its result: the copy
		// reads 16 bytes just written as 8 + 4, which no store forwards,
		// and stalled every field of every event)
		if (f.error())
			return false;
		od::field &fld = f.value_unsafe();
		int k;
		if (!(k = tkey(w, fld)))
			return false;
		if (!(k == 2 ? tquiet(w, fld.value(), '}', 0) : tvalue(w, fld.value(), '}')))
			return false;
	}
	return true;
}

// (the type from the token's first byte, as od::value::type() tells it)
bool tvalue(twalk &w, od::value &v, char close)
{
	std::string_view tok = v.raw_json_token();
	switch (tok.empty() ? '\0' : tok[0]) {
	case '{': {
		od::object o;
		if (v.get_object().get(o) || !tcall(w, w.cb->start_map(w.ctx)) || !tfields(w, o))
			return false;
		return tcall(w, w.cb->end_map(w.ctx));
	}
	case '[': {
		od::array a;
		if (v.get_array().get(a) || !tcall(w, w.cb->start_array(w.ctx)))
			return false;
		for (auto e : a) {
			if (e.error() || !tvalue(w, e.value_unsafe(), ']'))
				return false;
		}
		return tcall(w, w.cb->end_array(w.ctx));
	}
	case '"': return tstring(w, v, tok, close);
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9': {
		std::string_view s = scalar(tok, close);
		if (!json_number(s))
			return false;
		return tcall(w, w.cb->number(w.ctx, s.data(), s.size()));
	}
	case 't': case 'f': {
		std::string_view s = scalar(tok, close);
		if (s != "true" && s != "false")
			return false;
		return tcall(w, w.cb->boolean(w.ctx, s[0] == 't'));
	}
	case 'n': {
		if (scalar(tok, close) != "null")
			return false;
		return tcall(w, w.cb->null(w.ctx));
	}
	default: return false;
	}
}

// Where the '}' just read ends: the current token is the one after it,
// with only whitespace between.
size_t end_before(const char *at, const char *base)
{
	while (at > base && json_ws(at[-1]))
		at--;
	return (size_t)(at - base);
}

// The run's elements, one by one, into out; false when one was not read.
void trun(twalk &w, od::document &doc, const char *run, tlc_json_trace_run *out)
{
	od::array a;
	if (doc.get_array().get(a))
		return;
	for (auto e : a) {
		od::value x;
		od::object o;
		od::json_type t;
		if (e.get(x) || x.type().get(t) || t != od::json_type::object || x.get_object().get(o))
			return;
		if (!tcall(w, w.cb->start_map(w.ctx)) || !tfields(w, o))
			return;
		const char *at;
		if (doc.current_location().get(at))
			return; // (the array's ']' is always there to be the next token)
		size_t end = end_before(at, run);
		if (!w.cb->end_map(w.ctx)) {
			out->status = TLC_JSON_TRACE_CANCELED;
			out->failed_end = end;
			return;
		}
		out->accepted++;
		out->end = end;
	}
}

} // namespace

extern "C" tlc_json_trace *tlc_json_trace__new(void)
{
	const char *env = std::getenv("TLCOST_JSON_FAST");
	if (env && std::strcmp(env, "0") == 0)
		return nullptr;
	try {
		return new (std::nothrow) tlc_json_trace();
	} catch (...) {
		return nullptr;
	}
}

extern "C" void tlc_json_trace__free(tlc_json_trace *j)
{
	delete j;
}

extern "C" void tlc_json_trace__batch(tlc_json_trace *j, unsigned char *run, size_t len,
                                      size_t readable, const tlc_json_trace_events *cb,
                                      void *ctx, tlc_json_trace_run *out)
{
	out->status = TLC_JSON_TRACE_STOPPED;
	out->accepted = 0;
	out->end = 0;
	out->failed_end = 0;
	if (!j || readable < len + 1 + simdjson::SIMDJSON_PADDING)
		return;
	unsigned char before = run[-1], after = run[len];
	run[-1] = '[';
	run[len] = ']';
	twalk w = { cb, ctx, reinterpret_cast<const char *>(run + len) };
	try {
		od::document doc;
		char *at = reinterpret_cast<char *>(run - 1);
		if (!j->parser.iterate(at, len + 2, readable + 1).get(doc))
			trun(w, doc, at + 1, out);
	} catch (...) { // (nothing throws with SIMDJSON_EXCEPTIONS 0; memory, at worst)
	}
	run[-1] = before;
	run[len] = after;
}

extern "C" size_t tlc_json_trace__extent(const unsigned char *p, size_t n)
{
	// (the instream hands out text that ends between tokens, but the run
	// may still end inside an element: then n + 1)
	size_t depth = 0, i = 0;
	while (i < n) {
		unsigned char c = p[i++];
		if (c == '"') {
			for (;;) {
				const void *q = std::memchr(p + i, '"', n - i);
				if (!q)
					return n + 1;
				size_t k = (size_t)(static_cast<const unsigned char *>(q) - p);
				size_t bs = 0; // backslashes right before the quote
				while (k - bs > i && p[k - bs - 1] == '\\')
					bs++;
				i = k + 1;
				if (!(bs & 1))
					break;
			}
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (depth == 0 || --depth == 0)
				return i;
		}
	}
	return n + 1;
}
