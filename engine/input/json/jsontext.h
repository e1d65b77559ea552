/* The text of JSON strings as yajl does not check it (semi-private).
 *
 * yajl 2 accepts UTF-8 that is not UTF-8 (overlong forms such as C0 AF,
 * encoded surrogates ED A0 80, lead bytes F5-F7) and turns a \u escape of
 * a lone surrogate into '?' or into an encoded surrogate: an op name would
 * be renamed, or copied into JSON output that is then invalid. simdjson,
 * the fast path, refuses all of them (it validates UTF-8 in stage 1 and
 * each \u escape when it unescapes) and declines the text to yajl. The
 * readers therefore pass every byte they hand yajl through this scanner
 * first, and refuse the text at the first string byte that is not
 * well-formed, with its position: the same outcome on both paths.
 *
 * What it checks, inside strings and keys only (outside them yajl refuses
 * anything but ASCII itself): UTF-8 by RFC 3629 (no overlong form, no
 * surrogate, nothing above U+10FFFF, no truncated sequence), and that a
 * \u escape of a high surrogate (D800-DBFF) is followed by one of a low
 * surrogate (DC00-DFFF) and a low one never comes alone. Every other
 * check (escapes, control characters, structure) stays yajl's.
 *
 * The state carries across calls, so a text may be cut anywhere. */
#ifndef TLC_INPUT_JSONTEXT_H
#define TLC_INPUT_JSONTEXT_H

#include <stddef.h>

typedef struct tlc_jsontext {
	unsigned char in_str; /* inside a string */
	unsigned char esc;    /* right after a backslash */
	unsigned char hex;    /* hex digits of a \u escape still to read */
	unsigned char pair;   /* after a high surrogate: 1 '\\', 2 'u', 3 its hex next */
	unsigned char need;   /* UTF-8 continuation bytes still to come */
	unsigned char lo, hi; /* ... the range of the next one */
	unsigned char nseq;   /* bytes of the current UTF-8 sequence (seq) */
	unsigned char seq[4];
	unsigned cp, high;    /* the escape being read; the high surrogate before */
	size_t since;         /* bytes of the sequence or escape before the byte read */
	int bad;              /* why the scan stopped (JT_*), 0 while well-formed */
} tlc_jsontext;

/** Scans p[0..n) on from t's state. Returns n when every byte is
 *  well-formed so far, else the offset of the byte at which the text
 *  stopped being well-formed; the offending sequence or escape then began
 *  tlc_jsontext__back(t) bytes before that byte (on the same line: no
 *  newline can be inside one). t stays failed until reset. */
size_t tlc_jsontext__scan(tlc_jsontext *t, const unsigned char *p, size_t n);

/** Bytes between the start of the offending sequence and the byte at
 *  which the scan stopped. */
size_t tlc_jsontext__back(const tlc_jsontext *t);

/** The cause, in words, into buf (always NUL-terminated). */
void tlc_jsontext__describe(const tlc_jsontext *t, char *buf, size_t cap);

#endif
