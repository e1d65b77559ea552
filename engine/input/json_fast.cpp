// The SIMD JSON fast path (engine/input/json_fast.h): simdjson reading one
// JSON text, either into an op record straight from On-Demand
// (tlc_json_fast__op, the second half of this file) or through its DOM into
// yajl-shaped events. The only C++ in libtlcost; nothing here is exported
// (the library exports ^tlc_ names with one underscore only) and no
// exception leaves this file.
//
// The DOM parser validates the whole text (RFC 8259: structure, UTF-8,
// escapes, numbers) before a single event is delivered, with its SIMD
// kernels chosen at run time; the walk over its tape then costs little.
// What it accepts is a subset of what yajl accepts: anything else (yajl's
// extra whitespace characters \v and \f, lone surrogate escapes, integers
// beyond 64 bits, numbers beyond the double range) is declined, and the
// reader parses that text with yajl. A text that is not one object is
// declined too; so is one nested deeper than simdjson's default limit
// (1024 levels; the readers' own limits are lower).
// Numbers arrive typed, as simdjson converts them: integers exactly,
// others correctly rounded to the nearest double (as strtod does).
#define SIMDJSON_EXCEPTIONS 0
// simdjson's internal invariants are assert()s unless NDEBUG is set (as in
// its own release builds): they check simdjson, not the input, and cost
// its On-Demand walk of an op log record about 950 instructions (of some
// 6,000; callgrind), so they are off here.
#ifndef NDEBUG
#define NDEBUG 1
#define TLC_JSON_FAST_NDEBUG
#endif
#include <simdjson.h>
#ifdef TLC_JSON_FAST_NDEBUG
#undef NDEBUG
#undef TLC_JSON_FAST_NDEBUG
#endif

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>

#include "json_fast.h"

namespace dom = simdjson::dom;

struct tlc_json_fast_op; // the op records' parser (tlc_json_fast__op, below)

namespace {
tlc_json_fast_op *op_new();
void op_free(tlc_json_fast_op *o);
} // namespace

struct tlc_json_fast {
	dom::parser parser{TLC_JSON_FAST_MAX_TEXT + simdjson::SIMDJSON_PADDING};
	char *buf = nullptr; // the text, copied, with SIMDJSON_PADDING bytes after it
	size_t cap = 0;
	dom::object root;     // the text parsed last (tlc_json_fast__parse)
	bool parsed = false;
	tlc_json_fast_op *op = nullptr;
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
		tlc_json_fast *j = new (std::nothrow) tlc_json_fast();
		if (j && !(j->op = op_new())) {
			delete j;
			return nullptr;
		}
		return j;
	} catch (...) {
		return nullptr;
	}
}

extern "C" void tlc_json_fast__free(tlc_json_fast *j)
{
	if (!j)
		return;
	delete[] j->buf;
	op_free(j->op);
	delete j;
}

static_assert(TLC_JSON_FAST_PADDING == simdjson::SIMDJSON_PADDING, "json_fast.h padding");

extern "C" int tlc_json_fast__parse(tlc_json_fast *j, const unsigned char *text, size_t len,
                                    size_t readable)
{
	if (!j || len > TLC_JSON_FAST_MAX_TEXT)
		return TLC_JSON_FAST_DECLINED;
	j->parsed = false;
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


// ---- op records built straight from the line (tlc_json_fast__op) ----
//
// The same record engine/input/oplog.c builds from events (finish_op and
// the value, tensor and dims events there), for the plain shape only, read
// with simdjson's On-Demand API: no tape and no DOM, each value read once,
// where it lies in the fast path's copy of the line. Any departure throws
// decline{} and the reader takes the line through the events instead,
// which reproduce every error and its position.
//
// On-Demand validates only what is read. Stage 1 (simdjson's SIMD kernels,
// chosen at run time) has checked the whole line's UTF-8, that every
// string is closed and holds no raw control byte; the rest is checked here
// as yajl would: every value is read, the ignored ones too (a literal
// spelled out, a number's syntax and range, brackets matched, commas and
// colons where they belong), and nothing but whitespace may follow the
// object. A line with a backslash never comes here (its strings would need
// unescaping), so a string ends at its first '"': that quote is overwritten
// with the string's NUL, which the parse never reads again (simdjson moves
// between structural characters, and a closing quote is none).

namespace {

namespace od = simdjson::ondemand;

struct decline {};

[[noreturn]] void no() { throw decline{}; }

// The value of a simdjson result, or a decline.
#define OD(expr, var)                  \
	do {                           \
		if ((expr).get(var))   \
			no();          \
	} while (0)

// JSON whitespace (the first compare settles almost every byte of a log)
bool is_ws(char c)
{
	return static_cast<unsigned char>(c) <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r');
}

} // namespace

struct tlc_json_fast_op {
	od::parser parser{TLC_JSON_FAST_MAX_TEXT + simdjson::SIMDJSON_PADDING};
	od::document doc;
	char *buf = nullptr; // the line, copied (its strings get their NULs here)
	size_t cap = 0;
	// values of args, outputs and the lists being read; the kwargs: reused
	// from line to line (the finished lists move to the record's memory)
	tlc_value *vals = nullptr;
	size_t nvals = 0, capvals = 0;
	tlc_kwarg *kws = nullptr;
	size_t nkws = 0, capkws = 0;
	~tlc_json_fast_op()
	{
		delete[] buf;
		std::free(vals);
		std::free(kws);
	}
};

namespace {

template <class T> void grow(T *&items, size_t &cap)
{
	size_t n = cap ? cap * 2 : 64;
	void *p = std::realloc(items, n * sizeof(T));
	if (!p)
		no();
	items = static_cast<T *>(p);
	cap = n;
}

// The text of a value's first token (a scalar whole; '{' or '[' for a
// container), without the whitespace after it: simdjson's structural index
// bounds it, and reading it does not consume the value (the iteration
// skips a value not consumed).
struct tok {
	char *s; // (in o->buf, which is ours)
	size_t n;
	const char *next; // the next token's first byte (structural or scalar)
	char first() const { return *s; }
};

tok token(od::value &v)
{
	std::string_view t = v.raw_json_token();
	size_t n = t.size();
	while (n && is_ws(t[n - 1]))
		n--;
	if (!n)
		no();
	return tok{ const_cast<char *>(t.data()), n, t.data() + t.size() };
}

// A token that is exactly s (a literal: null, true, false).
bool is(const tok &t, std::string_view s)
{
	return std::string_view(t.s, t.n) == s;
}

// An integer token of at most 18 digits (never out of range), read here:
// false for any other token (simdjson then reads it: longer integers,
// other numbers, errors).
inline __attribute__((always_inline)) bool small_int(const tok &t, int64_t *out)
{
	size_t i = t.s[0] == '-';
	if (i == t.n || t.n - i > 18 || (t.s[i] == '0' && t.n - i > 1))
		return false;
	uint64_t v = 0;
	for (; i < t.n; i++) {
		unsigned d = static_cast<unsigned char>(t.s[i]) - '0';
		if (d > 9)
			return false;
		v = v * 10 + d;
	}
	*out = t.s[0] == '-' ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
	return true;
}

// A string read from its token is not consumed: On-Demand skips it, as it
// skips any value not consumed, when the iteration moves on. Skipping takes
// one token, as consuming does, except where a ':' follows the string: that
// would be skipped as a key and its colon (so "a":"b":1 would pass for the
// field "a":1; found by fuzz_oplog, tests/fuzz/regress/ and
// tests/fixtures/oplog/fast/od_*string_colon.jsonl). So a string followed
// by ':' is declined. (A number or a literal is skipped as one token
// whatever follows: the ',' or bracket expected after it is then checked.)
void string_token(const tok &t)
{
	if (t.n < 2 || t.s[0] != '"' || t.s[t.n - 1] != '"' || *t.next == ':')
		no();
}

struct op_build {
	tlc_json_fast_op *o;
	const tlc_json_op_sink *sink;

	void *mem(size_t n)
	{
		void *p = sink->alloc(sink->ctx, n);
		if (!p)
			no();
		return p;
	}
	void depth_ok(int d) const
	{
		if (d > sink->max_depth)
			no();
	}
	void push(const tlc_value &v)
	{
		if (o->nvals == o->capvals)
			grow(o->vals, o->capvals);
		o->vals[o->nvals++] = v;
	}
	// The string whose token is t (see string_token): its closing quote
	// becomes its NUL; its length in *n.
	static const char *str(const tok &t, size_t *n)
	{
		string_token(t);
		t.s[t.n - 1] = '\0';
		*n = t.n - 2;
		return t.s + 1;
	}
	// A field's key (the field read last), as a C string: its closing
	// quote, found back from its value over the ':' and whitespace,
	// becomes its NUL.
	static std::string_view key(od::field &f)
	{
		const char *s = f.key().raw();
		char *q = const_cast<char *>(f.value().raw_json_token().data()) - 1;
		while (q > s && is_ws(*q))
			q--;
		if (q <= s || *q != ':')
			no();
		for (q--; q > s && is_ws(*q); q--) {
		}
		if (q < s || *q != '"')
			no();
		*q = '\0';
		return std::string_view(s, static_cast<size_t>(q - s));
	}
};

// A raw key (its text after the opening quote, which simdjson has checked
// is a closed string) that is exactly lit: a compare of constant length,
// closing quote included, reading at most the padding past the text.
template <size_t N> bool key_is(const char *k, const char (&lit)[N])
{
	return std::memcmp(k, lit, N - 1) == 0 && k[N - 1] == '"';
}

// A null, read; false (nothing read) for any other value.
bool null(od::value v)
{
	tok t = token(v);
	if (t.first() != 'n')
		return false;
	if (!is(t, "null"))
		no();
	return true;
}

// An integer in the int64 range (of token t, when given: v's first token).
int64_t as_int(od::value v, const tok &t)
{
	int64_t x;
	if (!small_int(t, &x))
		OD(v.get_int64(), x);
	return x;
}

int64_t as_uint(od::value v, const tok &t)
{
	int64_t x = as_int(v, t);
	if (x < 0)
		no();
	return x;
}

// The token of a value that may be null (meaning absent): false for a
// null, read.
bool present(od::value &v, tok *t)
{
	*t = token(v);
	if (t->first() != 'n')
		return true;
	if (!is(*t, "null"))
		no();
	return false;
}

// A value the reader ignores (an unknown field's): read all the same, so
// that it is checked; only its nesting counts. d is the frame depth of its
// parent.
void skip(op_build &b, od::value v, int d)
{
	tok t = token(v);
	switch (t.first()) {
	case '{': {
		b.depth_ok(d + 1);
		od::object o;
		OD(v.get_object(), o);
		for (auto fr : o) {
			od::field f;
			OD(std::move(fr), f);
			skip(b, f.value(), d + 1);
		}
		return;
	}
	case '[': {
		b.depth_ok(d + 1);
		od::array a;
		OD(v.get_array(), a);
		for (auto xr : a) {
			od::value x;
			OD(std::move(xr), x);
			skip(b, x, d + 1);
		}
		return;
	}
	case '"':
		string_token(t);
		return;
	case 'n':
	case 't':
	case 'f':
		if (!is(t, "null") && !is(t, "true") && !is(t, "false"))
			no();
		return;
	default: {
		// (get_double checks the syntax of any number: yajl's big integers,
		// ignored here, are ignored by the events too)
		int64_t i;
		double x;
		if (!small_int(t, &i))
			OD(v.get_double(), x);
		return;
	}
	}
}

// Shape or stride entries (frame depth d); shape entries are >= 0. They
// are most of a log's numbers, so once simdjson has delimited the array
// (array::raw_json: its text, from '[' to what follows its ']'), this
// reads the text itself, strictly: integers of at most 18 digits (no
// leading zero, a '-' only in a stride), commas, whitespace, nothing else.
// Any other text (a longer integer, a float, a nested value, a bracket
// that does not match) declines the line, whose events then say what it
// means.
const int64_t *dims(op_build &b, od::value v, bool shape, size_t *n, int d)
{
	od::array a;
	std::string_view text;
	OD(v.get_array(), a);
	b.depth_ok(d);
	OD(a.raw_json(), text);
	// (the text ends in a closing bracket and whitespace: every loop below
	// stops at that bracket, if not before, so none runs past the text)
	const char *p = text.data() + 1, *end = text.data() + text.size();
	int64_t small[16];
	int64_t *at = small, *big = nullptr;
	size_t i = 0, cap = 16;
	while (is_ws(*p))
		p++;
	if (*p == ']')
		p++;
	else
		for (;;) {
			bool neg = !shape && *p == '-';
			p += neg;
			const char *q = p;
			uint64_t x = 0;
			unsigned dig;
			while ((dig = static_cast<unsigned char>(*p) - '0') <= 9)
				x = x * 10 + dig, p++;
			if (p == q || p - q > 18 || (*q == '0' && p - q > 1))
				no();
			if (i == cap) { // (a long shape: its entries move to the record's memory)
				int64_t *m = static_cast<int64_t *>(b.mem(2 * cap * sizeof *m));
				std::memcpy(m, at, i * sizeof *m);
				at = big = m;
				cap *= 2;
			}
			at[i++] = neg ? -static_cast<int64_t>(x) : static_cast<int64_t>(x);
			while (is_ws(*p))
				p++;
			if (*p == ',') {
				for (p++; is_ws(*p); p++) {
				}
				continue;
			}
			if (*p == ']') {
				p++;
				break;
			}
			no();
		}
	while (p < end && is_ws(*p))
		p++;
	if (p != end)
		no();
	*n = i;
	if (big || !i)
		return big;
	int64_t *out = static_cast<int64_t *>(b.mem(i * sizeof *out));
	std::memcpy(out, small, i * sizeof *out);
	return out;
}

void value(op_build &b, od::value v, tlc_value *out, int d);

// A tensor object at frame depth d (oplog.c's tensor_event and check_tensor).
void tensor(op_build &b, od::object o, tlc_value *v, int d)
{
	b.depth_ok(d);
	v->kind = TLC_VALUE_TENSOR;
	tlc_tensor *t = &v->u.tensor;
	unsigned seen = 0;
	size_t nstride = 0, n;
	for (auto fr : o) {
		od::field f;
		OD(std::move(fr), f);
		const char *k = f.key().raw();
		od::value x = f.value();
		unsigned bit;
		if (key_is(k, "shape")) {
			bit = 1;
			t->shape = dims(b, x, true, &t->ndim, d + 1);
		} else if (key_is(k, "dtype")) {
			bit = 2;
			tok s;
			if (present(x, &s)) {
				const char *name = b.str(s, &n);
				b.sink->dtype(b.sink->ctx, name, n, t);
			}
		} else if (key_is(k, "stride")) {
			bit = 4;
			if (!null(x))
				t->stride = dims(b, x, false, &nstride, d + 1);
		} else if (key_is(k, "device")) {
			bit = 8;
			tok s;
			if (present(x, &s))
				t->device = b.str(s, &n);
		} else if (key_is(k, "numel")) {
			bit = 16;
			tok s;
			if (present(x, &s))
				(void)as_uint(x, s);
		} else {
			skip(b, x, d);
			continue;
		}
		if (seen & bit) // a repeated field: the events say what it means
			no();
		seen |= bit;
	}
	if (!(seen & 1) || (t->stride && nstride != t->ndim))
		no();
	if (!nstride) // (an empty shape or stride is NULL, as the reader leaves it)
		t->stride = nullptr;
}

// A list (frame depth d): its items, read onto the value stack, move to
// the record's memory.
void list(op_build &b, od::value v, tlc_value *out, int d)
{
	b.depth_ok(d);
	od::array a;
	OD(v.get_array(), a);
	size_t base = b.o->nvals;
	for (auto xr : a) {
		od::value x;
		OD(std::move(xr), x);
		tlc_value item;
		value(b, x, &item, d);
		b.push(item);
	}
	size_t n = b.o->nvals - base;
	tlc_value *items = nullptr;
	if (n) {
		items = static_cast<tlc_value *>(b.mem(n * sizeof *items));
		std::memcpy(items, b.o->vals + base, n * sizeof *items);
	}
	b.o->nvals = base;
	out->kind = TLC_VALUE_LIST;
	out->u.list.n = n;
	out->u.list.items = items;
}

// One value of args, kwargs, outputs or a list (oplog.c's value_event); d
// is the frame depth of its parent.
void value(op_build &b, od::value v, tlc_value *out, int d)
{
	std::memset(out, 0, sizeof *out);
	tok t = token(v);
	switch (t.first()) {
	case '{': {
		od::object o;
		OD(v.get_object(), o);
		return tensor(b, o, out, d + 1);
	}
	case '[': return list(b, v, out, d + 1);
	case '"': {
		size_t n;
		const char *s = b.str(t, &n);
		std::string_view sv(s, n);
		out->kind = TLC_VALUE_FLOAT;
		if (sv == "inf")
			out->u.real = HUGE_VAL;
		else if (sv == "-inf")
			out->u.real = -HUGE_VAL;
		else if (sv == "nan")
			out->u.real = NAN;
		else
			out->kind = TLC_VALUE_STRING, out->u.string = s;
		return;
	}
	case 'n':
		if (!is(t, "null"))
			no();
		out->kind = TLC_VALUE_NONE;
		return;
	case 't':
	case 'f':
		out->kind = TLC_VALUE_BOOL;
		out->u.boolean = t.first() == 't';
		if (!is(t, out->u.boolean ? "true" : "false"))
			no();
		return;
	default: {
		out->kind = TLC_VALUE_INT;
		if (small_int(t, &out->u.integer))
			return;
		// (not get_number(): in simdjson 3.0.1 it makes 0 of a number with
		// more than 19 digits, tests/fixtures/oplog/fast/float_forms.jsonl)
		od::number_type nt;
		OD(v.get_number_type(), nt);
		if (nt == od::number_type::signed_integer) {
			OD(v.get_int64(), out->u.integer);
		} else if (nt == od::number_type::floating_point_number) {
			out->kind = TLC_VALUE_FLOAT;
			OD(v.get_double(), out->u.real);
		} else {
			no(); // an integer above INT64_MAX
		}
		return;
	}
	}
}

// args or outputs (frame depth 2): the values stay on the value stack, from
// the index returned, their count in *n.
size_t values(op_build &b, od::value v, size_t *n)
{
	od::array a;
	OD(v.get_array(), a);
	size_t base = b.o->nvals;
	for (auto xr : a) {
		od::value x;
		OD(std::move(xr), x);
		tlc_value item;
		value(b, x, &item, 2);
		b.push(item);
	}
	*n = b.o->nvals - base;
	return base;
}

void kwargs(op_build &b, od::value v, size_t *n)
{
	od::object o;
	OD(v.get_object(), o);
	tlc_json_fast_op *s = b.o;
	for (auto fr : o) {
		od::field f;
		OD(std::move(fr), f);
		const char *name = b.key(f).data(); // NUL-terminated where it lies
		tlc_value item;
		value(b, f.value(), &item, 2);
		if (s->nkws == s->capkws)
			grow(s->kws, s->capkws);
		s->kws[s->nkws].name = name;
		s->kws[s->nkws].value = item;
		s->nkws++;
	}
	*n = s->nkws;
}

enum op_key {
	O_NONE, O_KIND, O_ID, O_OP, O_OVERLOAD, O_PHASE, O_MODULE, O_MODULE_TYPE, O_MODULE_CALL,
	O_PARENT, O_ARGS, O_KWARGS, O_OUTPUTS, O_HOST_NS, O_START_NS, O_THREAD, O_CORRELATION
};

// The op fields of a record (oplog.c's record_key, less the other kinds'),
// from the raw key k.
op_key op_key_of(const char *k)
{
	switch (k[0]) {
	case 'a': return key_is(k, "args") ? O_ARGS : O_NONE;
	case 'c': return key_is(k, "correlation") ? O_CORRELATION : O_NONE;
	case 'h': return key_is(k, "host_ns") ? O_HOST_NS : O_NONE;
	case 'i': return key_is(k, "id") ? O_ID : O_NONE;
	case 'k': return key_is(k, "kind") ? O_KIND : key_is(k, "kwargs") ? O_KWARGS : O_NONE;
	case 'm':
		return key_is(k, "module") ? O_MODULE : key_is(k, "module_type") ? O_MODULE_TYPE
		     : key_is(k, "module_call") ? O_MODULE_CALL : O_NONE;
	case 'o':
		return key_is(k, "op") ? O_OP : key_is(k, "outputs") ? O_OUTPUTS
		     : key_is(k, "overload") ? O_OVERLOAD : O_NONE;
	case 'p': return key_is(k, "phase") ? O_PHASE : key_is(k, "parent") ? O_PARENT : O_NONE;
	case 's': return key_is(k, "start_ns") ? O_START_NS : O_NONE;
	case 't': return key_is(k, "thread") ? O_THREAD : O_NONE;
	case 'u': // the "unrecorded" extension marks args: the event walk applies it
		if (key_is(k, "unrecorded"))
			no();
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
	no();
}

void record(op_build &b, od::object o, tlc_op *op)
{
	uint32_t any = 0, seen = 0; // fields that came; those not null
	size_t args = 0, outputs = 0, n;
	for (auto fr : o) {
		od::field f;
		OD(std::move(fr), f);
		op_key k = op_key_of(f.key().raw());
		od::value v = f.value();
		if (k == O_NONE) { // not an op field: ignored, as the reader ignores it
			skip(b, v, 1);
			continue;
		}
		if (any >> k & 1) // a repeated field: the events say what it means
			no();
		any |= (uint32_t)1 << k;
		tok t;
		if (!present(v, &t)) // null means absent
			continue;
		seen |= (uint32_t)1 << k;
		switch (k) {
		case O_KIND: {
			const char *s = b.str(t, &n);
			if (std::string_view(s, n) != "op")
				no();
			break;
		}
		case O_ID: op->id = as_uint(v, t); break;
		case O_OP: op->name = b.str(t, &n); break;
		case O_OVERLOAD: op->overload = b.str(t, &n); break;
		case O_PHASE: {
			const char *s = b.str(t, &n);
			op->phase = phase_of(std::string_view(s, n));
			break;
		}
		case O_MODULE: op->module = b.str(t, &n); break;
		case O_MODULE_TYPE: op->module_type = b.str(t, &n); break;
		case O_MODULE_CALL:
			op->module_call = as_uint(v, t), op->flags |= TLC_OP_HAS_MODULE_CALL;
			break;
		case O_PARENT: op->parent = as_uint(v, t), op->flags |= TLC_OP_HAS_PARENT; break;
		case O_HOST_NS: op->host_ns = as_uint(v, t), op->flags |= TLC_OP_HAS_HOST_NS; break;
		case O_START_NS: op->start_ns = as_int(v, t), op->flags |= TLC_OP_HAS_START_NS; break;
		case O_THREAD: op->thread = as_int(v, t), op->flags |= TLC_OP_HAS_THREAD; break;
		case O_CORRELATION: op->correlation = as_int(v, t); break;
		case O_ARGS: args = values(b, v, &op->nargs); break;
		case O_OUTPUTS:
			outputs = values(b, v, &op->noutputs);
			op->flags |= TLC_OP_HAS_OUTPUTS;
			break;
		case O_KWARGS: kwargs(b, v, &op->nkwargs); break;
		default: no();
		}
	}
	if (!(seen >> O_ID & 1) || !(seen >> O_OP & 1) || !(seen >> O_ARGS & 1))
		no();
	if (!(seen >> O_CORRELATION & 1))
		op->correlation = op->id;
	// (the value stack is final now: args and outputs point into it)
	op->args = op->nargs ? b.o->vals + args : nullptr;
	op->outputs = op->noutputs ? b.o->vals + outputs : nullptr;
	op->kwargs = op->nkwargs ? b.o->kws : nullptr;
}

tlc_json_fast_op *op_new()
{
	return new (std::nothrow) tlc_json_fast_op();
}

void op_free(tlc_json_fast_op *o)
{
	delete o;
}

// Room for len bytes and simdjson's padding in o->buf; false when memory
// is short.
bool reserve_line(tlc_json_fast_op *o, size_t len)
{
	size_t need = len + simdjson::SIMDJSON_PADDING;
	if (need <= o->cap)
		return true;
	size_t cap = need < 4096 ? 4096 : need + need / 2;
	char *p = new (std::nothrow) char[cap]();
	if (!p)
		return false;
	delete[] o->buf;
	o->buf = p;
	o->cap = cap;
	return true;
}

} // namespace

extern "C" int tlc_json_fast__op(tlc_json_fast *j, const unsigned char *text, size_t len,
                                 const tlc_json_op_sink *sink, tlc_op *op)
{
	if (!j || !j->op || len > TLC_JSON_FAST_MAX_TEXT)
		return TLC_JSON_FAST_DECLINED;
	tlc_json_fast_op *o = j->op;
	if (!reserve_line(o, len))
		return TLC_JSON_FAST_DECLINED;
	std::memcpy(o->buf, text, len);
	std::memset(o->buf + len, 0, simdjson::SIMDJSON_PADDING); // (as padded_string pads)
	std::memset(op, 0, sizeof *op);
	op->size = sizeof *op;
	op->phase = TLC_PHASE_FORWARD;
	o->nvals = o->nkws = 0;
	op_build b = { o, sink };
	try {
		od::object root;
		if (o->parser.iterate(o->buf, len, o->cap).get(o->doc) || o->doc.get_object().get(root))
			return TLC_JSON_FAST_DECLINED;
		record(b, root, op);
		const char *at;
		if (o->doc.current_location().get(at) != simdjson::OUT_OF_BOUNDS)
			return TLC_JSON_FAST_DECLINED; // not at its end: something follows the object
	} catch (...) { // decline{}, or anything of simdjson's or the standard library's
		return TLC_JSON_FAST_DECLINED;
	}
	return TLC_JSON_FAST_OK;
}
