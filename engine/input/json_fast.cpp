// The SIMD JSON fast path (engine/input/json_fast.h): simdjson walking one
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

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>

#include "json_fast.h"

namespace dom = simdjson::dom;

struct tlc_json_fast {
	dom::parser parser{TLC_JSON_FAST_MAX_TEXT + simdjson::SIMDJSON_PADDING};
	char *buf = nullptr; // the text, copied, with SIMDJSON_PADDING bytes after it
	size_t cap = 0;
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

extern "C" int tlc_json_fast__object(tlc_json_fast *j, const unsigned char *text, size_t len,
                                     size_t readable, const tlc_json_events *cb, void *ctx)
{
	if (!j || len > TLC_JSON_FAST_MAX_TEXT)
		return TLC_JSON_FAST_DECLINED;
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
		dom::object o;
		if (j->parser.parse(at, len, false).get(root) || root.get_object().get(o))
			return TLC_JSON_FAST_DECLINED;
		walk w = { cb, ctx };
		return walk_object(w, o);
	} catch (...) {
		return TLC_JSON_FAST_DECLINED;
	}
}
