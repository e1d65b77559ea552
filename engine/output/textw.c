/* Text and CSV output: digit grouping, CSV fields, the control-byte
 * escaping stream and the write check. See textw.h. */
#define _GNU_SOURCE 1 /* fopencookie */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "textw.h"
#include "error.h"

const char *tlc_textw__group(tlc_digits *d, const char *dec)
{
	if (!dec)
		return "";
	size_t n = strlen(dec), lead = dec[0] == '-' || dec[0] == '+';
	size_t digits = n - lead, need = n + (digits ? (digits - 1) / 3 : 0) + 1;
	free(d->heap);
	d->heap = NULL;
	char *buf = d->small;
	if (need > sizeof d->small && !(buf = d->heap = malloc(need)))
		return dec; /* ungrouped, but never shortened */
	char *w = buf;
	for (size_t i = 0; i < n; i++) {
		if (i > lead && (n - i) % 3 == 0)
			*w++ = ',';
		*w++ = dec[i];
	}
	*w = '\0';
	return buf;
}

void tlc_textw__digits_free(tlc_digits *d)
{
	free(d->heap);
	d->heap = NULL;
}

/* The visible form of control byte c (C0 or DEL). */
static void put_escaped(FILE *out, unsigned char c)
{
	fprintf(out, "\\x%02x", c);
}

static int is_c0(unsigned char c, int keep_layout)
{
	if (keep_layout && (c == '\n' || c == '\t'))
		return 0;
	return c < 0x20 || c == 0x7f;
}

void tlc_textw__csv(FILE *out, const char *s, int always_quote)
{
	if (!s)
		s = "";
	size_t n = strlen(s);
	int quote = always_quote || strpbrk(s, ",\"") || (n && (s[0] == ' ' || s[n - 1] == ' '));
	if (quote)
		fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"')
			fputs("\"\"", out);
		else if (is_c0(*p, 0))
			put_escaped(out, *p);
		else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fprintf(out, "\\u%04x", p[1]), p++;
		else
			fputc(*p, out);
	}
	if (quote)
		fputc('"', out);
}

/* ---- the escaping stream ---- */

typedef struct esc {
	FILE *out;
	int held_c2; /* a 0xc2 lead byte whose next byte decides */
} esc;

static ssize_t esc_write(void *cookie, const char *buf, size_t size)
{
	esc *e = cookie;
	const unsigned char *p = (const unsigned char *)buf;
	size_t start = 0;
	for (size_t i = 0; i < size; i++) {
		unsigned char c = p[i];
		if (e->held_c2) {
			e->held_c2 = 0;
			if (c >= 0x80 && c <= 0x9f) {
				fprintf(e->out, "\\u%04x", c);
				start = i + 1;
				continue;
			}
			fputc(0xc2, e->out);
		}
		if (!is_c0(c, 1) && c != 0xc2)
			continue;
		if (i > start)
			fwrite(p + start, 1, i - start, e->out);
		start = i + 1;
		if (c == 0xc2)
			e->held_c2 = 1;
		else
			put_escaped(e->out, c);
	}
	if (size > start)
		fwrite(p + start, 1, size - start, e->out);
	if (ferror(e->out)) {
		errno = EIO;
		return -1;
	}
	return (ssize_t)size;
}

static int esc_close(void *cookie)
{
	esc *e = cookie;
	if (e->held_c2)
		fputc(0xc2, e->out);
	free(e);
	return 0;
}

FILE *tlc_textw__open(FILE *out)
{
	esc *e = calloc(1, sizeof *e);
	if (!e) {
		tlc_error__oom();
		return NULL;
	}
	e->out = out;
	cookie_io_functions_t io = { NULL, esc_write, NULL, esc_close };
	FILE *f = fopencookie(e, "w", io);
	if (!f) {
		free(e);
		tlc_error__oom();
	}
	return f;
}

static int write_failed(int e)
{
	return tlc_error__set(TLC_EIO, "output_write_failed",
	                      "check that the output has free space and is still open (a pipe "
	                      "whose reader exited, a full disk or quota)",
	                      "writing the output failed (%s): what was written is incomplete",
	                      strerror(e ? e : EIO));
}

int tlc_textw__finish(FILE *out, int rc)
{
	errno = 0;
	int bad = fflush(out) != 0 || ferror(out);
	if (rc < 0)
		return rc;
	return bad ? write_failed(errno) : 0;
}

int tlc_textw__close(FILE *t, FILE *out, int rc)
{
	errno = 0;
	int bad = t && fclose(t) != 0;
	int e = errno;
	rc = tlc_textw__finish(out, rc);
	if (rc == 0 && bad)
		rc = write_failed(e);
	return rc;
}
