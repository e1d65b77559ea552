/* tlc_input_read: tells an op log from a Kineto trace by content, then hands
 * the input to the matching reader.
 *
 * An op log's first line is a one-line JSON object with "format":
 * "tlcost-oplog". A Kineto trace is a bare JSON array, or one JSON object
 * with a "traceEvents" member, usually spread over many lines. The bytes
 * after the leading whitespace decide (the first chunk, or as far as the
 * first line needs, up to SNIFF_MAX); the stream is not consumed, and
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

enum input_kind { IN_OPLOG, IN_TRACE, IN_UNSURE };

/* How far the sniffer reads for a first line that says nothing yet (a
 * one-line trace with its "traceEvents" behind a long first key). */
#define SNIFF_MAX ((size_t)4 << 20)

static const unsigned char *find(const unsigned char *p, size_t n, const char *needle)
{
	return memmem(p, n, needle, strlen(needle));
}

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Decides from the bytes p[0..n) after the leading whitespace (all of the
 * input when end). Anything that is not clearly a trace goes to the op log
 * reader, whose errors explain what an op log must look like; IN_UNSURE
 * while the first line goes on past the bytes seen. */
static int sniff(const unsigned char *p, size_t n, int end)
{
	size_t i = 0;
	while (i < n && is_space(p[i]))
		i++;
	if (i == n)
		return end ? IN_OPLOG : IN_UNSURE;
	if (p[i] == '[')
		return IN_TRACE;
	const unsigned char *nl = memchr(p + i, '\n', n - i);
	size_t first = nl ? (size_t)(nl - (p + i)) : n - i;
	if (find(p + i, first, "\"tlcost-oplog\""))
		return IN_OPLOG;
	if (find(p + i, n - i, "\"traceEvents\""))
		return IN_TRACE;
	if (!nl) /* the first line goes on: its reader explains a cut one */
		return end ? IN_OPLOG : IN_UNSURE;
	/* A complete first line that is not a whole object ("{" alone, as
	 * pretty-printed traces start) means a multi-line JSON document: a
	 * trace. */
	size_t last = first;
	while (last > 0 && is_space(p[i + last - 1]))
		last--;
	return p[i] == '{' && last > 0 && p[i + last - 1] != '}' ? IN_TRACE : IN_OPLOG;
}

static int format_unknown(tlc_instream *in)
{
	uint64_t line, col;
	tlc_instream__origin(in, &line, &col);
	return tlc_error__set_pos(TLC_EINPUT, "input_format_unknown", tlc_instream__name(in), line,
	                          col, "if it is a Kineto trace, export it again with "
	                          "torch.profiler (prof.export_chrome_trace writes \"traceEvents\" "
	                          "early, over many lines); if it is an op log, its first line must "
	                          "be the header {\"format\":\"tlcost-oplog\",\"version\":1} "
	                          "(`python3 -m tlcost capture`)",
	                          "could not tell the format: the first line runs past %zu bytes "
	                          "without an op log header (\"format\":\"tlcost-oplog\") or a "
	                          "trace's \"traceEvents\"", SNIFF_MAX);
}

/* Skips the leading whitespace (any length, not kept), then peeks as far
 * as the format needs, up to SNIFF_MAX. The stream is not consumed past
 * the whitespace: the chosen reader reads the peeked bytes first. */
static int decide(tlc_instream *in, int *kind)
{
	const unsigned char *p;
	size_t n;
	int rc = tlc_instream__skip_space(in);
	if (rc < 0 || (rc = tlc_instream__peek(in, &p, &n)) < 0)
		return rc;
	int end = n == 0;
	while ((*kind = sniff(p, n, end)) == IN_UNSURE) {
		if (n >= SNIFF_MAX)
			return format_unknown(in);
		size_t want = 2 * n < SNIFF_MAX ? 2 * n : SNIFF_MAX;
		if ((rc = tlc_instream__peek_more(in, want, &p, &n)) < 0)
			return rc;
		end = rc == 1;
	}
	return 0;
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
	int kind;
	if ((rc = decide(in, &kind)) < 0) {
		tlc_instream__close(in);
		return rc;
	}
	/* the sniffed bytes stay in the stream: the input is read once, so a
	 * pipe, a FIFO or standard input works like a file */
	if (kind == IN_OPLOG)
		rc = tlc_oplog__read_stream(ev, in, 0);
	else
		rc = tlc_trace__read_stream(ev, in);
	tlc_instream__close(in);
	return rc;
}
