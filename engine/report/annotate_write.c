/* The annotated trace's writer: the second pass over the trace's bytes.
 *
 * A linear scan that knows only what it must of JSON (strings and their
 * escapes, the nesting of objects and arrays, which string is a key)
 * copies the input through unchanged and splices text in at three kinds of
 * place: before the '}' that closes the args object of an op event (or, for
 * an op event without args, an "args" member before the event's own '}'),
 * and before the ']' that closes the event array (the counter events). No
 * tree of the trace is built: memory is the read buffer, the output buffer
 * and one event's inserted text.
 *
 * Inside an event that is not an op of the model, and inside an op
 * event's args object, only strings and brackets are followed (to find
 * where it ends; for args, also whether it has members): a 16-byte step
 * finds the next quote or bracket, and a plain string is passed over in
 * one step. Keys are read only at the top level and an event's own.
 *
 * The events are counted as the reader counts them (objects of the
 * traceEvents array, or of a bare top-level array), so the ordinal the
 * reader recorded for each op (tlc_eval__source_keys) finds its event. The
 * input was validated by the first pass; should it differ now, the scan
 * says so (annotate_input_changed) rather than guess. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "annotate.h"
#include "error.h"

#define READ_CHUNK ((size_t)1 << 20)
#define MAX_NEST 256
#define KEY_CAP 32

/* ------------------------------------------------------------------ */
/* output: plain or gzip                                               */
/* ------------------------------------------------------------------ */

typedef struct sink {
	FILE *f;
	int gzip;
	z_stream z;
	unsigned char *zbuf;
	int err;
} sink;

static int write_failed(void)
{
	return tlc_error__set(TLC_EIO, "output_write_failed",
	                      "check that the output has free space (disk, quota)",
	                      "writing the annotated trace failed: what was written is incomplete");
}

static int sink_deflate(sink *k, const void *p, size_t n, int flush)
{
	k->z.next_in = (unsigned char *)(uintptr_t)p;
	k->z.avail_in = (uInt)n;
	for (;;) {
		k->z.next_out = k->zbuf;
		k->z.avail_out = (uInt)READ_CHUNK;
		int zr = deflate(&k->z, flush);
		if (zr == Z_STREAM_ERROR)
			return k->err = tlc_error__set(TLC_ERROR, "output_write_failed",
			                               "report this: zlib refused its own stream",
			                               "compressing the annotated trace failed");
		size_t have = READ_CHUNK - k->z.avail_out;
		if (have && fwrite(k->zbuf, 1, have, k->f) != have)
			return k->err = write_failed();
		if (flush == Z_FINISH ? zr == Z_STREAM_END : k->z.avail_out != 0)
			return 0;
	}
}

static int sink_put(sink *k, const void *p, size_t n)
{
	if (k->err || n == 0)
		return k->err;
	if (!k->gzip)
		return fwrite(p, 1, n, k->f) == n ? 0 : (k->err = write_failed());
	/* (n fits uInt: chunks and inserted texts are far below 4 GiB) */
	return sink_deflate(k, p, n, Z_NO_FLUSH);
}

/* ------------------------------------------------------------------ */
/* the scan                                                            */
/* ------------------------------------------------------------------ */

enum { PK_NONE = 0, PK_EVENTS, PK_ARGS };

typedef struct scan {
	const tlc_annot_model *m;
	tlc_annotate_summary *s;
	sink *out;
	tlc_sb text;           /* what is inserted next */
	unsigned char stack[MAX_NEST]; /* '{' or '[' per open container */
	int depth;
	int expect_key;        /* in an object, before a key */
	int in_string, escape, string_is_key, capture;
	char key[KEY_CAP];
	size_t keylen;
	int pending;           /* the key whose value comes next (PK_*) */
	int events_depth;      /* depth of the event array once open, else -1 */
	int events_closed;
	int events_nonempty;
	uint64_t evno;         /* event objects seen */
	size_t item;           /* next model item */
	/* the current event */
	int target;            /* it is an op event of the model */
	int skipping;          /* it is not, or its args object is open: only
	                        * where that ends is looked for */
	int ev_keys;           /* it has members */
	int args_depth;        /* depth of its args object while open, else -1 */
	int args_done, args_nonempty, args_bad;
	/* emission */
	const unsigned char *chunk;
	size_t emitted;        /* bytes of chunk already copied out */
} scan;

static int changed(const char *what)
{
	return tlc_error__set(TLC_EINPUT, "annotate_input_changed",
	                      "annotate a file that stays as it is while it is read (the "
	                      "trace is read twice: once to evaluate it, once to copy it)",
	                      "the trace read the second time is not the one evaluated: %s", what);
}

/* Copies chunk[emitted..at) then the inserted text. */
static int splice(scan *c, size_t at)
{
	if (c->text.failed)
		return tlc_error__oom();
	int rc = sink_put(c->out, c->chunk + c->emitted, at - c->emitted);
	if (rc == 0)
		rc = sink_put(c->out, c->text.ptr, c->text.len);
	c->emitted = at;
	tlc_sb__reset(&c->text);
	return rc;
}

/* Writes the inserted text built so far (tlc_annotate__counters' flush). */
static int flush_text(tlc_sb *sb, void *payload)
{
	scan *c = payload;
	if (sb->failed)
		return tlc_error__oom();
	int rc = sink_put(c->out, sb->ptr, sb->len);
	tlc_sb__reset(sb);
	return rc;
}

/* The key just read, unescaped where it is short and plain ASCII. */
static int key_is(const scan *c, const char *want, size_t n)
{
	size_t i = 0, j = 0;
	if (c->keylen >= KEY_CAP)
		return 0;
	if (c->keylen == n) /* the usual case: the key as it is */
		return memcmp(c->key, want, n) == 0;
	if (c->keylen < n || !memchr(c->key, '\\', c->keylen))
		return 0; /* (an escape only makes a key longer than its text) */
	while (i < c->keylen && j < n) {
		char ch = c->key[i++];
		if (ch == '\\' && i < c->keylen) {
			char e = c->key[i++];
			if (e == 'u' && i + 4 <= c->keylen) {
				unsigned v = 0;
				for (int h = 0; h < 4; h++) {
					char x = c->key[i++];
					v = v * 16 + (unsigned)(x <= '9' ? x - '0' : (x | 32) - 'a' + 10);
				}
				if (v >= 0x80)
					return 0;
				ch = (char)v;
			} else {
				ch = e == '/' ? '/' : e; /* \" \\ \/ (others are not letters of a key we look for) */
			}
		}
		if (ch != want[j++])
			return 0;
	}
	return i == c->keylen && j == n;
}

static int open_container(scan *c, unsigned char ch)
{
	if (c->depth >= MAX_NEST)
		return changed("nested deeper than the first read allowed");
	int pk = c->pending;
	c->pending = PK_NONE;
	if (c->events_depth >= 0 && c->depth == c->events_depth && !c->events_closed)
		c->events_nonempty = 1;
	c->stack[c->depth++] = ch;
	c->expect_key = ch == '{';
	if (ch == '[' && c->events_depth < 0 && !c->events_closed &&
	    (pk == PK_EVENTS || c->depth == 1)) {
		c->events_depth = c->depth;
		return 0;
	}
	if (ch == '{' && c->events_depth >= 0 && c->depth == c->events_depth + 1) {
		const tlc_annot_model *m = c->m;
		if (c->item < m->nitems && m->items[c->item].event < c->evno)
			return changed("an op event of the first read is missing");
		c->target = c->item < m->nitems && m->items[c->item].event == c->evno;
		c->skipping = !c->target;
		c->ev_keys = 0;
		c->args_depth = -1;
		c->args_done = c->args_nonempty = c->args_bad = 0;
		return 0;
	}
	if (ch == '{' && pk == PK_ARGS && c->args_depth < 0 && !c->args_done) {
		c->args_depth = c->depth;
		c->skipping = 1; /* to its end (an op event's: others skip already) */
	}
	return 0;
}

static int close_container(scan *c, size_t at)
{
	if (c->depth == 0)
		return changed("a bracket closes nothing");
	int d = c->depth--;
	c->expect_key = 0;
	c->pending = PK_NONE;
	if (c->events_depth < 0)
		return 0;
	if (d == c->args_depth) { /* the op event's args object */
		c->args_depth = -1;
		if (!c->target || c->args_done)
			return 0;
		c->args_done = 1;
		if (c->args_nonempty)
			tlc_sb__putc(&c->text, ',');
		tlc_annotate__row_args(&c->text, c->m, c->m->items[c->item].row, c->s);
		return splice(c, at);
	}
	if (d == c->events_depth + 1) { /* an event */
		c->skipping = 0;
		c->evno++;
		c->s->events++;
		if (!c->target)
			return 0;
		c->target = 0;
		size_t row = c->m->items[c->item++].row;
		if (c->args_done)
			return 0;
		if (c->args_bad) {
			c->s->args_not_object++;
			return 0;
		}
		tlc_sb__puts(&c->text, c->ev_keys ? ",\"args\":{" : "\"args\":{");
		tlc_annotate__row_args(&c->text, c->m, row, c->s);
		tlc_sb__putc(&c->text, '}');
		return splice(c, at);
	}
	if (d == c->events_depth) { /* the event array */
		c->events_closed = 1;
		c->events_depth = -1;
		int rc = splice(c, at); /* the bytes before the ']' */
		if (rc == 0)
			rc = tlc_annotate__counters(&c->text, c->m, !c->events_nonempty, c->s,
			                            flush_text, c);
		if (rc == 0 && c->s->counters)
			tlc_sb__putc(&c->text, '\n');
		return rc < 0 ? rc : splice(c, at);
	}
	return 0;
}

/* A key has ended: what its value will be to the scan (only the two
 * values that matter are remembered). */
static void end_key(scan *c)
{
	c->pending = PK_NONE;
	if (c->depth == 1 && c->stack[0] == '{') {
		if (key_is(c, "traceEvents", sizeof "traceEvents" - 1))
			c->pending = PK_EVENTS;
	} else if (c->events_depth >= 0 && c->depth == c->events_depth + 1) {
		c->ev_keys = 1;
		if (key_is(c, "args", sizeof "args" - 1))
			c->pending = PK_ARGS;
	}
}

/* A scalar value starts (string, number, literal). */
static void scalar(scan *c)
{
	if (c->pending == PK_ARGS)
		c->args_bad = 1;
	c->pending = PK_NONE;
	if (c->events_depth >= 0 && c->depth == c->events_depth && !c->events_closed)
		c->events_nonempty = 1;
}

/* Bytes that end a run inside a string, and outside one (when no value
 * start matters: see scan_chunk). */
static const unsigned char in_string_stop[256] = { ['"'] = 1, ['\\'] = 1 };
static const unsigned char structural[256] = {
	['"'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1, [','] = 1
};

/* The first j >= i with in_string_stop[p[j]] (n when none): 16 bytes a
 * step where SSE2 is there (every x86-64), a byte a step elsewhere. */
static size_t string_run(const unsigned char *p, size_t i, size_t n)
{
#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		unsigned mask = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)));
		if (mask)
			return i + (size_t)__builtin_ctz(mask);
	}
#endif
	while (i < n && !in_string_stop[p[i]])
		i++;
	return i;
}

/* The first j >= i with structural[p[j]] (n when none). */
static size_t plain_run(const unsigned char *p, size_t i, size_t n)
{
#ifdef __SSE2__
	const __m128i q = _mm_set1_epi8('"'), comma = _mm_set1_epi8(','),
	              ob = _mm_set1_epi8('{'), cb = _mm_set1_epi8('}'),
	              os = _mm_set1_epi8('['), cs = _mm_set1_epi8(']');
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		__m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, comma)),
		                           _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, ob),
		                                                     _mm_cmpeq_epi8(v, cb)),
		                                        _mm_or_si128(_mm_cmpeq_epi8(v, os),
		                                                     _mm_cmpeq_epi8(v, cs))));
		unsigned mask = (unsigned)_mm_movemask_epi8(hit);
		if (mask)
			return i + (size_t)__builtin_ctz(mask);
	}
#endif
	while (i < n && !structural[p[i]])
		i++;
	return i;
}

/* The first j >= i with a quote or a bracket at p[j] (n when none): what
 * a skipped event's end is found by (see scan_chunk). */
static const unsigned char skip_stop[256] = {
	['"'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1
};

static size_t skip_run(const unsigned char *p, size_t i, size_t n)
{
#ifdef __SSE2__
	/* '[' '{' are 0x5b 0x7b and ']' '}' 0x5d 0x7d: b | 0x20 is 0x7b or
	 * 0x7d for them and for no other byte */
	const __m128i q = _mm_set1_epi8('"'), lower = _mm_set1_epi8(0x20),
	              open = _mm_set1_epi8(0x7b), close = _mm_set1_epi8(0x7d);
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		__m128i b = _mm_or_si128(v, lower);
		unsigned mask = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(v, q),
			             _mm_or_si128(_mm_cmpeq_epi8(b, open), _mm_cmpeq_epi8(b, close))));
		if (mask)
			return i + (size_t)__builtin_ctz(mask);
	}
#endif
	while (i < n && !skip_stop[p[i]])
		i++;
	return i;
}

/* Scans p[0..n): the state carries over chunk ends. */
static int scan_chunk(scan *c, const unsigned char *p, size_t n)
{
	size_t i = 0;
	c->chunk = p;
	c->emitted = 0;
	while (i < n) {
		if (c->in_string) {
			if (c->escape) { /* the byte after a backslash */
				c->escape = 0;
				if (c->capture && c->keylen < KEY_CAP)
					c->key[c->keylen++] = (char)p[i];
				i++;
				continue;
			}
			size_t j = string_run(p, i, n);
			if (c->capture) {
				size_t take = j - i;
				if (take > KEY_CAP - c->keylen)
					take = KEY_CAP - c->keylen, c->keylen = KEY_CAP; /* too long: no match */
				else
					memcpy(c->key + c->keylen, p + i, take), c->keylen += take;
			}
			if (j == n) {
				i = n;
				break;
			}
			if (p[j] == '\\') {
				if (c->capture && c->keylen < KEY_CAP)
					c->key[c->keylen++] = '\\';
				c->escape = 1;
				i = j + 1;
				continue;
			}
			c->in_string = 0;
			if (c->string_is_key && c->capture)
				end_key(c);
			i = j + 1;
			continue;
		}
		if (c->skipping) {
			/* an event that is not an op of the model, or an op
			 * event's args object: nothing in it is looked at but
			 * where it ends (strings and brackets) and, in args,
			 * whether it has members (any string directly in it) */
			i = skip_run(p, i, n);
			if (i == n)
				break;
			unsigned char ch = p[i];
			if (ch == '"') {
				if (c->depth == c->args_depth)
					c->args_nonempty = 1;
				/* the string's end, here when no escape comes first */
				size_t j = string_run(p, i + 1, n);
				if (j < n && p[j] == '"') {
					i = j + 1;
					continue;
				}
				c->in_string = 1; /* an escape, or the chunk's end */
				c->string_is_key = c->capture = 0;
				i = j;
				continue;
			} else if (ch == '{' || ch == '[') {
				if (c->depth >= MAX_NEST)
					return changed("nested deeper than the first read allowed");
				c->stack[c->depth++] = ch;
			} else if (c->depth != c->args_depth && c->depth > c->events_depth + 1) {
				c->depth--;
			} else { /* the end of the args object or of the event */
				c->skipping = 0;
				int rc = close_container(c, i);
				if (rc < 0)
					return rc;
			}
			i++;
			continue;
		}
		/* a value's first byte matters only after "args" or "traceEvents"
		 * and between the events; elsewhere skip to the next bracket,
		 * quote or comma */
		if (c->pending == PK_NONE && c->depth != c->events_depth)
			i = plain_run(p, i, n);
		if (i == n)
			break;
		unsigned char ch = p[i];
		int rc = 0;
		switch (ch) {
		case ' ': case '\t': case '\n': case '\r': case ':':
			break;
		case ',':
			if (c->depth > 0 && c->stack[c->depth - 1] == '{')
				c->expect_key = 1;
			break;
		case '"':
			c->in_string = 1;
			c->string_is_key = c->expect_key;
			c->capture = 0;
			if (c->expect_key) {
				c->expect_key = 0;
				if (c->depth == 1 ||
				    (c->events_depth >= 0 && c->depth == c->events_depth + 1)) {
					c->capture = 1;
					c->keylen = 0;
				} else if (c->args_depth >= 0 && c->depth == c->args_depth) {
					c->args_nonempty = 1;
				}
			} else {
				scalar(c);
			}
			break;
		case '{': case '[':
			rc = open_container(c, ch);
			break;
		case '}': case ']':
			rc = close_container(c, i);
			break;
		default:
			scalar(c);
			break;
		}
		if (rc < 0)
			return rc;
		i++;
	}
	return sink_put(c->out, p + c->emitted, n - c->emitted);
}

static int read_failed(gzFile g, const char *path)
{
	int zerr = 0;
	const char *msg = g ? gzerror(g, &zerr) : NULL;
	return tlc_error__set_pos(TLC_EIO, "io_error", path, 0, 0,
	                          "check that the file is readable and complete",
	                          "reading '%s' the second time failed: %s", path,
	                          zerr == Z_ERRNO || !msg ? strerror(errno) : msg);
}

int tlc_annotate__copy(FILE *out, int gzip, const char *path, const tlc_annot_model *m,
                       tlc_annotate_summary *s)
{
	sink k;
	memset(&k, 0, sizeof k);
	k.f = out;
	k.gzip = gzip;
	setvbuf(out, NULL, _IOFBF, (size_t)1 << 20);
	if (gzip) {
		k.zbuf = malloc(READ_CHUNK);
		/* level 1: a trace compresses well at any level, and speed matters
		 * more here (docs/annotate.md states the cost) */
		if (!k.zbuf || deflateInit2(&k.z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			free(k.zbuf);
			return tlc_error__oom();
		}
	}
	scan *c = calloc(1, sizeof *c);
	unsigned char *buf = malloc(READ_CHUNK);
	/* a plain file is read as it is (zlib's transparent mode would copy
	 * every byte once more) */
	FILE *plain = fopen(path, "rb");
	gzFile g = NULL;
	unsigned char magic[2] = { 0, 0 };
	if (plain && (fread(magic, 1, 2, plain) != 2 || magic[0] != 0x1f || magic[1] != 0x8b))
		rewind(plain);
	else if (plain) {
		fclose(plain);
		plain = NULL;
		g = gzopen(path, "rb");
	}
	int rc = 0;
	if (!c || !buf)
		rc = tlc_error__oom();
	else if (!g && !plain)
		rc = read_failed(NULL, path);
	if (rc == 0) {
		if (g)
			gzbuffer(g, 256 * 1024);
		c->m = m;
		c->s = s;
		c->out = &k;
		c->events_depth = -1;
		c->args_depth = -1;
		tlc_sb__init(&c->text, m->a ? m->a : tlc_alloc__default());
	}
	while (rc == 0) {
		long n = g ? gzread(g, buf, (unsigned)READ_CHUNK)
		           : (long)fread(buf, 1, READ_CHUNK, plain);
		if (n < 0 || (plain && n == 0 && ferror(plain))) {
			rc = read_failed(g, path);
			break;
		}
		if (n == 0)
			break;
		rc = scan_chunk(c, buf, (size_t)n);
	}
	if (rc == 0 && (c->depth != 0 || c->in_string))
		rc = changed("it ends early");
	if (rc == 0 && !c->events_closed)
		rc = changed("no event array was found");
	if (rc == 0 && c->item != m->nitems)
		rc = changed("op events of the first read are missing");
	if (rc == 0 && gzip)
		rc = sink_deflate(&k, NULL, 0, Z_FINISH);
	if (gzip) {
		deflateEnd(&k.z);
		free(k.zbuf);
	}
	if (c)
		tlc_sb__free(&c->text);
	free(c);
	free(buf);
	if (g)
		gzclose(g);
	if (plain)
		fclose(plain);
	return rc;
}
