/* Text and CSV output (semi-private): the one digit grouping, the one CSV
 * field quoting, the stream that shows control bytes as data, and the check
 * that everything written reached the output. */
#ifndef TLC_ENGINE_TEXTW_H
#define TLC_ENGINE_TEXTW_H

#include <stdio.h>

/** Holds one grouped number: short ones inline, longer ones on the heap,
 *  so an exact integer of any size is never cut. Zero-initialize; free with
 *  tlc_textw__digits_free. */
typedef struct tlc_digits {
	char *heap;
	char small[96];
} tlc_digits;

/** "-1234567" -> "-1,234,567" held in d (valid until d is freed or reused).
 *  When the grouped form cannot be allocated, the plain decimal is returned:
 *  ungrouped, but whole. NULL dec gives "". */
const char *tlc_textw__group(tlc_digits *d, const char *dec);
void tlc_textw__digits_free(tlc_digits *d);

/** One CSV field (RFC 4180): quoted when always_quote is set or when it
 *  holds a comma, a quote or a space at either end; control bytes are
 *  written escaped as in text (tlc_textw__open), so a field never spans
 *  lines. NULL is the empty field. */
void tlc_textw__csv(FILE *out, const char *s, int always_quote);

/** A stream over out for text and CSV reports that shows every control
 *  byte a name could carry as visible data: C0 controls other than newline
 *  and tab, DEL and the UTF-8 C1 controls (U+0080..U+009F, such as the
 *  8-bit CSI) become \xNN (\u0080.. for C1), so input text cannot move the
 *  cursor, retitle the window or rewrite the user's terminal. NULL (with
 *  out_of_memory set) when the stream cannot be made. Close it with
 *  tlc_textw__close. */
FILE *tlc_textw__open(FILE *out);

/** Closes a stream from tlc_textw__open (t may be NULL) and finishes out
 *  as tlc_textw__finish does; rc is the writer's own status. */
int tlc_textw__close(FILE *t, FILE *out, int rc);

/** Flushes out and checks that every write reached it: returns rc when rc
 *  is already negative, TLC_EIO with output_write_failed when a write or
 *  the flush failed (a full disk, a closed pipe), else 0. */
int tlc_textw__finish(FILE *out, int rc);

#endif
