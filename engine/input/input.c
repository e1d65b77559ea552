/* tlc_input_read: tells an op log from a Kineto trace by content, then hands
 * the input to the matching reader.
 *
 * An op log's first line is a one-line JSON object with "format":
 * "tlcost-oplog". A Kineto trace is a bare JSON array, or one JSON object
 * with a "traceEvents" member, usually spread over many lines. The first
 * decompressed chunk of the input decides; the stream is not consumed, so
 * standard input works too. */
#define _GNU_SOURCE 1 /* memmem */
#include <string.h>
#include "alloc.h"
#include "error.h"
#include "eval.h"
#include "instream.h"
#include "oplog.h"

enum input_kind { IN_OPLOG, IN_TRACE };

static const unsigned char *find(const unsigned char *p, size_t n, const char *needle)
{
	return memmem(p, n, needle, strlen(needle));
}

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Decides from the first chunk. Anything that is not clearly a trace goes
 * to the op log reader, whose errors explain what an op log must look like. */
static int sniff(const unsigned char *p, size_t n)
{
	size_t i = 0;
	if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		i = 3; /* UTF-8 byte order mark */
	while (i < n && is_space(p[i]))
		i++;
	if (i == n)
		return IN_OPLOG;
	if (p[i] == '[')
		return IN_TRACE;
	const unsigned char *nl = memchr(p + i, '\n', n - i);
	size_t first = nl ? (size_t)(nl - (p + i)) : n - i;
	if (find(p + i, first, "\"tlcost-oplog\""))
		return IN_OPLOG;
	if (find(p + i, n - i, "\"traceEvents\""))
		return IN_TRACE;
	/* A complete first line that is not a whole object ("{" alone, as
	 * pretty-printed traces start) means a multi-line JSON document: a
	 * trace. A first line longer than the chunk is taken for an op log
	 * header. */
	size_t end = first;
	while (end > 0 && is_space(p[i + end - 1]))
		end--;
	return nl && p[i] == '{' && end > 0 && p[i + end - 1] != '}' ? IN_TRACE : IN_OPLOG;
}

/* Standard input cannot be reopened: a trace read from it is buffered. */
static int trace_from_stream(tlc_eval *ev, tlc_instream *in)
{
	const tlc_allocator *a = tlc_eval__allocator(ev);
	tlc_sb buf;
	tlc_sb__init(&buf, a);
	int rc;
	for (;;) {
		const unsigned char *p;
		size_t n;
		if ((rc = tlc_instream__read(in, &p, &n)) < 0 || n == 0)
			break;
		tlc_sb__append(&buf, (const char *)p, n);
		if (buf.failed) {
			rc = tlc_error__oom();
			break;
		}
	}
	if (rc == 0)
		rc = tlc_trace_read_mem(ev, buf.ptr ? buf.ptr : "", buf.len, tlc_instream__name(in));
	tlc_sb__free(&buf);
	return rc;
}

int tlc_input_read(tlc_eval *ev, const char *path)
{
	if (!ev || !path)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an evaluation and a path",
		                      "tlc_input_read: NULL argument");
	tlc_instream *in;
	int rc = tlc_instream__open_file(&in, tlc_eval__allocator(ev), path);
	if (rc < 0)
		return rc;
	const unsigned char *p;
	size_t n;
	if ((rc = tlc_instream__peek(in, &p, &n)) < 0) {
		tlc_instream__close(in);
		return rc;
	}
	if (sniff(p, n) == IN_OPLOG) {
		rc = tlc_oplog__read_stream(ev, in, 0);
	} else if (strcmp(path, "-") == 0) {
		rc = trace_from_stream(ev, in);
	} else {
		tlc_instream__close(in);
		return tlc_trace_read(ev, path);
	}
	tlc_instream__close(in);
	return rc;
}
