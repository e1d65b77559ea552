/* The SIMD JSON parser's boundary (semi-private): everything tlcost asks of
 * simdjson goes through this header, and only engine/input/json/json_fast.cpp
 * (the one C++ translation unit, with a C interface) includes simdjson.
 *
 * The fast path is an accelerator, never a second dialect. A reader hands it
 * one complete JSON text (today: an op log record line); simdjson's
 * DOM parser validates the whole text first, then the fast path delivers
 * the same events, in the same order, as yajl delivers to that reader's
 * callbacks (strings and keys unescaped; each is followed by a NUL byte
 * and stays valid until tlc_json_fast__object returns), except that numbers come
 * converted where yajl hands over their text: integers exactly, other
 * numbers correctly rounded (as strtod rounds). When the text is malformed
 * or anything about it is unusual, it declines before any event, and the
 * reader parses that text with yajl, so every error, its code and its
 * line/column are yajl's, exactly as without simdjson. A callback may still
 * stop the walk (CANCELED) with the error it found: a reader that wants
 * yajl's position for that error keeps the events of a text free of side
 * effects until the text's last event, and reads the text again with yajl.
 *
 * For op log records of the plain shape, tlc_json_fast__op goes further and
 * builds the tlc_op itself from the parse (no events); it declines anything
 * else to the events, which keep every check and error of the reader.
 * The op log reader also hands over the whole lines of each read chunk at
 * once (tlc_json_fast__batch), so that simdjson's stage 1 runs once over
 * them; a line then still parses as one text, with the same outcome.
 *
 * Built only where configure found simdjson (TLC_HAVE_SIMDJSON); elsewhere
 * the inline stubs below decline everything and yajl reads it all. The
 * environment variable TLCOST_JSON_FAST=0 turns the fast path off at run
 * time (to compare both paths; docs/oplog-v1.md). simdjson's own buffers
 * (a few bytes per byte of the longest text, which is at most
 * TLC_JSON_FAST_MAX_TEXT) come from operator new, not the eval's allocator.
 *
 * Kineto traces (the trace section at the end): the trace reader keeps yajl
 * for the document around the traceEvents array and hands runs of whole
 * array elements, from a streaming window, to tlc_json_trace__batch, which
 * reads them with simdjson's On-Demand API and delivers each element's yajl
 * events; an element it does not read whole is read again by yajl, so every
 * error and position stays yajl's (docs/kineto.md, "Reading speed"). */
#ifndef TLC_INPUT_JSON_FAST_H
#define TLC_INPUT_JSON_FAST_H

#include <stddef.h>
#include <stdint.h>
#include "tlcost/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The events of one text: the shapes of yajl's callbacks. Each returns
 *  nonzero to go on, 0 to stop the walk (TLC_JSON_FAST_CANCELED). */
typedef struct tlc_json_events {
	int (*null)(void *ctx);
	int (*boolean)(void *ctx, int b);
	int (*integer)(void *ctx, int64_t v); /* an integer in the int64 range */
	int (*big_integer)(void *ctx);        /* an integer above INT64_MAX */
	int (*real)(void *ctx, double d);     /* any other number */
	int (*string)(void *ctx, const unsigned char *s, size_t len);
	int (*start_map)(void *ctx);
	int (*map_key)(void *ctx, const unsigned char *s, size_t len);
	int (*end_map)(void *ctx);
	int (*start_array)(void *ctx);
	int (*end_array)(void *ctx);
} tlc_json_events;

/** Results of tlc_json_fast__object. */
enum {
	TLC_JSON_FAST_OK = 0,       /* every event delivered, the text is one valid object */
	TLC_JSON_FAST_DECLINED = 1, /* not read: parse the text with yajl */
	TLC_JSON_FAST_CANCELED = 2  /* a callback returned 0 */
};

/** Longest text the fast path takes (a longer one is declined, so
 *  simdjson's buffers stay small whatever the input). */
#define TLC_JSON_FAST_MAX_TEXT ((size_t)1 << 20)

/** Longest run of lines tlc_json_fast__batch takes. */
#define TLC_JSON_FAST_BATCH ((size_t)128 << 10)

/** Readable bytes simdjson needs after a text (SIMDJSON_PADDING). */
#define TLC_JSON_FAST_PADDING 64

typedef struct tlc_json_fast tlc_json_fast;

/** What tlc_json_fast__op needs from the reader to build an op record
 *  straight from the parsed text, without events: memory for the record
 *  (valid until it is pushed) and the reader's dtype names. */
typedef struct tlc_json_op_sink {
	void *ctx;
	/** n bytes aligned for tlc_value, or NULL (the record is declined) */
	void *(*alloc)(void *ctx, size_t n);
	/** Sets t->dtype and t->dtype_name from the NUL-terminated name s[0..n)
	 *  (which stays valid as the strings below do) */
	void (*dtype)(void *ctx, const char *s, size_t n, tlc_tensor *t);
	int max_depth; /* the reader's nesting bound, in its frames (record = 1) */
	/** Optional (NULL: all memory through alloc): the reader's free bump
	 *  region, from *cur (8-byte aligned) to *end. A request that fits is
	 *  carved from it, rounded up to 8 bytes, without a call; one that
	 *  does not goes through alloc, which may move the region. */
	unsigned char **cur, **end;
} tlc_json_op_sink;

#ifdef TLC_HAVE_SIMDJSON

/** A parser, or NULL when the fast path is off (TLCOST_JSON_FAST=0), the
 *  CPU is not supported or memory is short: the caller then uses yajl. */
tlc_json_fast *tlc_json_fast__new(void);

/** Frees j (NULL is accepted). */
void tlc_json_fast__free(tlc_json_fast *j);

/** Parses text[0..len), which must be exactly one JSON object with optional
 *  whitespace around it, then delivers its events to cb with ctx. The text
 *  is validated whole first: on DECLINED no event was delivered; on
 *  CANCELED the callback that returned 0 was the last one called. The text
 *  is not modified. readable (>= len) is how many bytes from text may be
 *  read: with TLC_JSON_FAST_PADDING bytes beyond the text (whatever they
 *  hold: a reader's next line) it is parsed where it lies, else copied. */
int tlc_json_fast__object(tlc_json_fast *j, const unsigned char *text, size_t len,
                          size_t readable, const tlc_json_events *cb, void *ctx);

/** tlc_json_fast__object in two steps, so that one parse serves both ways
 *  of reading it: __parse validates text (as __object does; DECLINED when
 *  it is not one object simdjson takes), then __op and __events read the
 *  text parsed last, any number of times, until the next __parse. */
int tlc_json_fast__parse(tlc_json_fast *j, const unsigned char *text, size_t len,
                         size_t readable);
int tlc_json_fast__events(tlc_json_fast *j, const tlc_json_events *cb, void *ctx);

/** Lines parsed together: text[0..len) holds whole lines (each ends with
 *  '\n'), len at most TLC_JSON_FAST_BATCH, and TLC_JSON_FAST_PADDING
 *  readable bytes follow it (readable >= len + TLC_JSON_FAST_PADDING), all
 *  valid until the next __batch call. simdjson's stage 1 (structure,
 *  UTF-8) then runs once over them all, and __parse of a line among them
 *  reads the document the batch found there, with no parse of its own,
 *  when that document is exactly the line's object (from the line's first
 *  byte other than whitespace to its last); when it is not (two texts on
 *  the line, one text over two lines, anything the batch refused), __parse
 *  parses the line alone, as without a batch. What __parse accepts is the
 *  same either way. Lines must be asked for in order. Each call ends the
 *  batch before (len 0 only ends it): call it before the bytes of a batch
 *  go away. DECLINED: no batch (every line parsed alone). */
int tlc_json_fast__batch(tlc_json_fast *j, const unsigned char *text, size_t len,
                         size_t readable);

/** Fills *op from the parsed text when it is an op record (docs/oplog-v1.md)
 *  of the plain shape: kind absent, null or "op"; every known field of an op
 *  once, of its type (null counting as absent), id, op and args present,
 *  phase one of the four; values as value_event of engine/input/oplog/oplog.c
 *  makes them ("inf", "-inf", "nan" strings as floats); tensors with a
 *  shape of integers >= 0, a stride of as many integers when given, dtype
 *  and device strings, a numel >= 0; nesting within max_depth, unknown
 *  fields included. Strings point into the parser (NUL-terminated, valid
 *  until the next __parse) and must hold no NUL: call it only for a text
 *  without a backslash. Anything else is DECLINED, with nothing read and
 *  the text still there for __events; OK otherwise. op->correlation
 *  defaults to op->id and op->flags says which fields came, as the reader's
 *  finish_op sets them. */
int tlc_json_fast__op(tlc_json_fast *j, const tlc_json_op_sink *sink, tlc_op *op);

#else

static inline tlc_json_fast *tlc_json_fast__new(void) { return NULL; }
static inline void tlc_json_fast__free(tlc_json_fast *j) { (void)j; }
static inline int tlc_json_fast__object(tlc_json_fast *j, const unsigned char *text, size_t len,
                                        size_t readable, const tlc_json_events *cb, void *ctx)
{
	(void)j, (void)text, (void)len, (void)readable, (void)cb, (void)ctx;
	return TLC_JSON_FAST_DECLINED;
}
static inline int tlc_json_fast__parse(tlc_json_fast *j, const unsigned char *text, size_t len,
                                       size_t readable)
{
	(void)j, (void)text, (void)len, (void)readable;
	return TLC_JSON_FAST_DECLINED;
}
static inline int tlc_json_fast__batch(tlc_json_fast *j, const unsigned char *text, size_t len,
                                       size_t readable)
{
	(void)j, (void)text, (void)len, (void)readable;
	return TLC_JSON_FAST_DECLINED;
}
static inline int tlc_json_fast__events(tlc_json_fast *j, const tlc_json_events *cb, void *ctx)
{
	(void)j, (void)cb, (void)ctx;
	return TLC_JSON_FAST_DECLINED;
}
static inline int tlc_json_fast__op(tlc_json_fast *j, const tlc_json_op_sink *sink, tlc_op *op)
{
	(void)j, (void)sink, (void)op;
	return TLC_JSON_FAST_DECLINED;
}

#endif

#ifdef __cplusplus
}
#endif

#endif

/* ---- trace: the elements of a Kineto trace's traceEvents array ---- */
#ifndef TLC_INPUT_JSON_FAST_TRACE_H
#define TLC_INPUT_JSON_FAST_TRACE_H

#ifdef __cplusplus
extern "C" {
#endif

/** The events of the trace reader (engine/input/kineto/trace.c): yajl's callback
 *  shapes, numbers as their JSON text (yajl's number callback). Each
 *  returns nonzero to go on, 0 to stop. map_key may return 2: the key's
 *  value is quiet, a value whose events would change nothing (the reader
 *  ignores it whole): it is read and checked as any value, and its events
 *  are not delivered; the element is not read (yajl reads it) where the
 *  value holds what the reader checks in every value: a string with an
 *  escape that unescapes to a NUL, a scalar longer than quiet_max bytes, or
 *  nesting 16 levels deep. */
typedef struct tlc_json_trace_events {
	int (*null)(void *ctx);
	int (*boolean)(void *ctx, int b);
	int (*number)(void *ctx, const char *s, size_t len);
	int (*string)(void *ctx, const unsigned char *s, size_t len);
	int (*start_map)(void *ctx);
	int (*map_key)(void *ctx, const unsigned char *s, size_t len);
	int (*end_map)(void *ctx);
	int (*start_array)(void *ctx);
	int (*end_array)(void *ctx);
	size_t quiet_max;
	/* a string written without escapes (so without a NUL: stage 1 refuses
	 * raw control characters), where string has the rest */
	int (*plain_string)(void *ctx, const unsigned char *s, size_t len);
} tlc_json_trace_events;

/** What tlc_json_trace__batch read. */
enum {
	TLC_JSON_TRACE_STOPPED = 0, /* the element after `end` was not read whole */
	TLC_JSON_TRACE_CANCELED = 1 /* the end_map closing the element after `end` returned 0 */
};
typedef struct tlc_json_trace_run {
	int status;
	size_t accepted;   /* elements read whole (each to its closing end_map) */
	size_t end;        /* just past the '}' of the last of them (0: none) */
	size_t failed_end; /* CANCELED: just past the '}' of the element whose end_map said 0 */
} tlc_json_trace_run;

typedef struct tlc_json_trace tlc_json_trace;

#ifdef TLC_HAVE_SIMDJSON

/** A reader of trace elements, or NULL when the fast path is off
 *  (TLCOST_JSON_FAST=0) or memory is short: the caller then uses yajl. */
tlc_json_trace *tlc_json_trace__new(void);

/** Frees j (NULL is accepted). */
void tlc_json_trace__free(tlc_json_trace *j);

/** Reads run[0..len), which starts with an element's '{' (whitespace and
 *  commas between elements, as in the array), element by element, and
 *  delivers each element's events (yajl's, in yajl's order: strings and
 *  keys unescaped, each valid until the element's last event) to cb with
 *  ctx. It stops at the first element that is not an object read whole:
 *  one malformed, unusual in any way yajl would read differently, cut by
 *  the end of the run, or past the end of the array. Of that element some
 *  events may have been delivered (the first ones, never its closing
 *  end_map): the reader keeps them free of side effects and reads the
 *  element again with yajl. A callback that returns 0 stops the run too;
 *  when it is the closing end_map of an element, status is CANCELED and
 *  failed_end says where that element ends. run[-1] and run[len] must be
 *  writable (they are borrowed, then restored) and readable (>= len + 1 +
 *  TLC_JSON_FAST_PADDING) bytes from run readable. */
void tlc_json_trace__batch(tlc_json_trace *j, unsigned char *run, size_t len, size_t readable,
                           const tlc_json_trace_events *cb, void *ctx, tlc_json_trace_run *out);

/** The length of the JSON object or array that starts at p[0] (strings
 *  and their escapes skipped; brackets counted, not matched: what yajl
 *  reads as one value ends there), or n + 1 when it does not end in
 *  p[0..n). */
size_t tlc_json_trace__extent(const unsigned char *p, size_t n);

#else

static inline tlc_json_trace *tlc_json_trace__new(void) { return NULL; }
static inline void tlc_json_trace__free(tlc_json_trace *j) { (void)j; }
static inline void tlc_json_trace__batch(tlc_json_trace *j, unsigned char *run, size_t len,
                                         size_t readable, const tlc_json_trace_events *cb,
                                         void *ctx, tlc_json_trace_run *out)
{
	(void)j, (void)run, (void)len, (void)readable, (void)cb, (void)ctx;
	out->status = TLC_JSON_TRACE_STOPPED;
	out->accepted = out->end = out->failed_end = 0;
}
static inline size_t tlc_json_trace__extent(const unsigned char *p, size_t n)
{
	(void)p;
	return n + 1;
}

#endif

#ifdef __cplusplus
}
#endif

#endif
