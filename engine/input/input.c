/* tlc_input_read: tells the input's format by content, then hands the
 * input to that format's reader.
 *
 * The formats are a table of readers (reader.h), one folder each under
 * engine/input/: the op log (oplog/) and the Kineto trace (kineto/). The
 * bytes after the leading whitespace decide (the first chunk, or as far as
 * a sniff needs, up to SNIFF_MAX): the first reader in table order whose
 * sniff says yes reads the input; a sniff that cannot tell yet (before any
 * yes) asks for more bytes; when none says yes the op log reader takes it,
 * its errors explaining what an op log must look like. The stream is not
 * consumed, and the chosen reader goes on from it: every input, standard
 * input and pipes (`tlcost flops <(zcat trace.json.gz)`) included, is
 * opened and read once, and a trace is streamed, never buffered whole. */
#define _GNU_SOURCE 1 /* memmem */
#include <string.h>
#include "alloc.h"
#include "error.h"
#include "eval.h"
#include "instream.h"
#include "reader.h"

/* The readers, in the order their sniffs are asked. The op log comes first:
 * a first line naming "tlcost-oplog" is an op log whatever follows. */
static const tlc_reader *const readers[] = {
	&tlc_reader__oplog,
	&tlc_reader__kineto,
};
#define N_READERS (sizeof readers / sizeof readers[0])
/* the reader of an input no sniff claims */
#define FALLBACK (&tlc_reader__oplog)

/* How far the sniffer reads for a first line that says nothing yet (a
 * one-line trace with its "traceEvents" behind a long first key). */
#define SNIFF_MAX ((size_t)4 << 20)

size_t tlc_reader__skip_space(const unsigned char *p, size_t n)
{
	size_t i = 0;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	return i;
}

int tlc_reader__has(const unsigned char *p, size_t n, const char *needle)
{
	return memmem(p, n, needle, strlen(needle)) != NULL;
}

/* The reader for the bytes p[0..n) (all of the input when end), or NULL
 * while a sniff cannot tell yet. */
static const tlc_reader *sniff(const unsigned char *p, size_t n, int end)
{
	for (size_t k = 0; k < N_READERS; k++) {
		int r = readers[k]->sniff(p, n, end);
		if (r == TLC_SNIFF_YES)
			return readers[k];
		if (r == TLC_SNIFF_UNSURE)
			return NULL;
	}
	return FALLBACK;
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
static int decide(tlc_instream *in, const tlc_reader **out)
{
	const unsigned char *p;
	size_t n;
	int rc = tlc_instream__skip_space(in);
	if (rc < 0 || (rc = tlc_instream__peek(in, &p, &n)) < 0)
		return rc;
	int end = n == 0;
	while (!(*out = sniff(p, n, end))) {
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
	const tlc_reader *reader;
	if ((rc = decide(in, &reader)) < 0) {
		tlc_instream__close(in);
		return rc;
	}
	/* the sniffed bytes stay in the stream: the input is read once, so a
	 * pipe, a FIFO or standard input works like a file */
	rc = reader->read(ev, in);
	tlc_instream__close(in);
	return rc;
}
