/* tlc_input_read: tells an op log from a Kineto trace by content, then hands
 * the input to the matching reader.
 *
 * An op log's first line is a one-line JSON object with "format":
 * "tlcost-oplog". A Kineto trace is a bare JSON array, or one JSON object
 * with a "traceEvents" member, usually spread over many lines. The first
 * decompressed chunk of the input decides; the stream is not consumed, and
 * the chosen reader goes on from it: every input, standard input and pipes
 * (`tlcost flops <(zcat trace.json.gz)`) included, is opened and read once,
 * and a trace is streamed, never buffered whole. */
#define _GNU_SOURCE 1 /* memmem */
#include <string.h>
#include "alloc.h"
#include "error.h"
#include "eval.h"
#include "instream.h"
#include "oplog.h"
#include "trace.h"

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

int tlc_input_read(tlc_eval *ev, const char *path)
{
	return tlc_input_read_limited(ev, path, NULL);
}

int tlc_input_read_limited(tlc_eval *ev, const char *path, const tlc_input_limits *lim)
{
	if (!ev || !path)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an evaluation and a path",
		                      "tlc_input_read: NULL argument");
	tlc_instream *in;
	int rc = tlc_instream__open_file(&in, tlc_eval__allocator(ev), path);
	if (rc < 0)
		return rc;
	tlc_instream__set_limits(in, lim);
	const unsigned char *p;
	size_t n;
	if ((rc = tlc_instream__peek(in, &p, &n)) < 0) {
		tlc_instream__close(in);
		return rc;
	}
	/* the sniffed chunk stays in the stream: the input is read once, so a
	 * pipe, a FIFO or standard input works like a file */
	if (sniff(p, n) == IN_OPLOG)
		rc = tlc_oplog__read_stream(ev, in, 0);
	else
		rc = tlc_trace__read_stream(ev, in);
	tlc_instream__close(in);
	return rc;
}
