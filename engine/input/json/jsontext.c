/* Well-formed UTF-8 and surrogate escapes in JSON strings: see jsontext.h. */
#include <stdio.h>
#include "jsontext.h"

enum {
	JT_OK = 0,
	JT_STRAY,     /* a continuation byte with no lead byte */
	JT_C0C1,      /* C0 or C1: only overlong forms start with them */
	JT_BEYOND,    /* F5-F7: beyond U+10FFFF */
	JT_NEVER,     /* F8-FF */
	JT_OVERLONG,  /* E0 80-9F, F0 80-8F */
	JT_SURROGATE, /* ED A0-BF: an encoded surrogate */
	JT_ABOVE,     /* F4 90-BF */
	JT_TRUNCATED, /* a sequence cut by a byte that continues none */
	JT_LONE_HIGH, /* \uD800-\uDBFF not followed by a low surrogate escape */
	JT_LONE_LOW   /* \uDC00-\uDFFF with no high surrogate before it */
};

/* A lead byte: the continuation bytes it needs and the range of the first. */
static int lead(tlc_jsontext *t, unsigned char c)
{
	unsigned char need = 0, lo = 0x80, hi = 0xbf;
	t->seq[0] = c;
	if (c < 0xc0)
		return JT_STRAY;
	if (c < 0xc2)
		return JT_C0C1;
	if (c < 0xe0)
		need = 1;
	else if (c < 0xf0)
		need = 2, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c < 0xf5)
		need = 3, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return c < 0xf8 ? JT_BEYOND : JT_NEVER;
	t->need = need;
	t->lo = lo;
	t->hi = hi;
	t->nseq = 1;
	t->since = 1;
	return JT_OK;
}

/* The byte after a lead byte or continuation. */
static int continuation(tlc_jsontext *t, unsigned char c)
{
	if (c < t->lo || c > t->hi) {
		t->seq[t->nseq] = c; /* (nseq <= 3) */
		if (c < 0x80 || c > 0xbf)
			return JT_TRUNCATED;
		return t->seq[0] == 0xed ? JT_SURROGATE : t->seq[0] == 0xf4 ? JT_ABOVE : JT_OVERLONG;
	}
	t->seq[t->nseq++] = c;
	t->need--;
	t->lo = 0x80;
	t->hi = 0xbf;
	t->since++;
	return JT_OK;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* A \u escape's four hex digits have been read. */
static int escape_done(tlc_jsontext *t)
{
	unsigned cp = t->cp;
	if (t->pair == 3) { /* the escape after a high surrogate */
		t->pair = 0;
		return cp >= 0xdc00 && cp <= 0xdfff ? JT_OK : JT_LONE_HIGH;
	}
	if (cp >= 0xd800 && cp <= 0xdbff) {
		t->high = cp;
		t->pair = 1;
		return JT_OK;
	}
	return cp >= 0xdc00 && cp <= 0xdfff ? (t->high = cp, JT_LONE_LOW) : JT_OK;
}

/* A byte inside a \u escape, or between a high surrogate and its low one. */
static int in_escape(tlc_jsontext *t, unsigned char c)
{
	if (t->hex) {
		int v = hexval(c);
		if (v < 0) { /* not an escape yajl accepts: its error */
			t->hex = 0;
			t->pair = 0;
			return JT_OK;
		}
		t->cp = t->cp * 16 + (unsigned)v;
		int why = --t->hex ? JT_OK : escape_done(t);
		if (why == JT_OK) /* (on an error, since counts the bytes before this one) */
			t->since++;
		return why;
	}
	if (t->pair == 1 && c == '\\') {
		t->pair = 2;
	} else if (t->pair == 2 && c == 'u') {
		t->pair = 3;
		t->hex = 4;
		t->cp = 0;
	} else {
		return JT_LONE_HIGH;
	}
	t->since++;
	return JT_OK;
}

/* One byte inside a string. */
static int string_byte(tlc_jsontext *t, unsigned char c)
{
	if (t->need)
		return continuation(t, c);
	if (t->hex || t->pair)
		return in_escape(t, c);
	if (t->esc) {
		t->esc = 0;
		if (c == 'u') {
			t->hex = 4;
			t->cp = 0;
		}
		t->since++;
		return JT_OK;
	}
	if (c == '\\') {
		t->esc = 1;
		t->since = 1;
	} else if (c == '"') {
		t->in_str = 0;
	} else if (c >= 0x80) {
		t->since = 0;
		return lead(t, c);
	}
	return JT_OK;
}

size_t tlc_jsontext__scan(tlc_jsontext *t, const unsigned char *p, size_t n)
{
	size_t i = 0;
	if (t->bad)
		return 0;
	while (i < n) {
		if (!t->in_str) {
			while (i < n && p[i] != '"')
				i++;
			if (i == n)
				break;
			t->in_str = 1;
			i++;
			continue;
		}
		if (!t->need && !t->esc && !t->hex && !t->pair) { /* plain ASCII runs */
			while (i < n && p[i] != '"' && p[i] != '\\' && p[i] < 0x80)
				i++;
			if (i == n)
				break;
		}
		if ((t->bad = string_byte(t, p[i])) != JT_OK)
			return i;
		i++;
	}
	return n;
}

size_t tlc_jsontext__back(const tlc_jsontext *t)
{
	return t->bad ? t->since : 0;
}

/* The first n bytes of the sequence, in hex. */
static void seq_hex(const tlc_jsontext *t, unsigned n, char *buf, size_t cap)
{
	size_t k = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < n && i < 4 && k + 4 < cap; i++)
		k += (size_t)snprintf(buf + k, cap - k, "%s%02X", i ? " " : "", t->seq[i]);
}

void tlc_jsontext__describe(const tlc_jsontext *t, char *buf, size_t cap)
{
	char s[16];
	unsigned b = t->seq[0];
	/* (the byte that stopped the scan is seq[nseq]: part of the sequence
	 * shown, but where the sequence was cut short by it) */
	seq_hex(t, t->bad == JT_TRUNCATED ? t->nseq : t->nseq + 1u, s, sizeof s);
	switch (t->bad) {
	case JT_STRAY: snprintf(buf, cap, "invalid UTF-8 in a string: byte 0x%02X continues no "
	                        "character (no lead byte before it)", b); break;
	case JT_C0C1: snprintf(buf, cap, "invalid UTF-8 in a string: byte 0x%02X starts only "
	                       "overlong encodings", b); break;
	case JT_BEYOND: snprintf(buf, cap, "invalid UTF-8 in a string: byte 0x%02X starts a "
	                         "character beyond U+10FFFF", b); break;
	case JT_NEVER: snprintf(buf, cap, "invalid UTF-8 in a string: byte 0x%02X never occurs "
	                        "in UTF-8", b); break;
	case JT_OVERLONG: snprintf(buf, cap, "invalid UTF-8 in a string: the bytes %s are an "
	                           "overlong encoding", s); break;
	case JT_SURROGATE: snprintf(buf, cap, "invalid UTF-8 in a string: the bytes %s encode a "
	                            "UTF-16 surrogate (U+D800-U+DFFF)", s); break;
	case JT_ABOVE: snprintf(buf, cap, "invalid UTF-8 in a string: the bytes %s encode a "
	                        "character beyond U+10FFFF", s); break;
	case JT_TRUNCATED: snprintf(buf, cap, "invalid UTF-8 in a string: the sequence %s is "
	                            "truncated (byte 0x%02X continues no character)", s,
	                            t->seq[t->nseq]); break;
	case JT_LONE_HIGH: snprintf(buf, cap, "the escape \\u%04X is a high surrogate not followed "
	                            "by a low surrogate escape (\\uDC00-\\uDFFF)", t->high); break;
	case JT_LONE_LOW: snprintf(buf, cap, "the escape \\u%04X is a low surrogate without a high "
	                           "surrogate escape before it", t->high); break;
	default: snprintf(buf, cap, "well-formed"); break;
	}
}
