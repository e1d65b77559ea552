/* The Kineto trace's entry in the reader table (engine/input/reader.h). */
#include <string.h>
#include "reader.h"
#include "trace.h"

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* A Kineto trace is a bare JSON array, or one JSON object with a
 * "traceEvents" member, usually spread over many lines. */
static int kineto_sniff(const unsigned char *p, size_t n, int end)
{
	size_t i = tlc_reader__skip_space(p, n);
	if (i == n)
		return end ? TLC_SNIFF_NO : TLC_SNIFF_UNSURE;
	if (p[i] == '[')
		return TLC_SNIFF_YES;
	if (tlc_reader__has(p + i, n - i, "\"traceEvents\""))
		return TLC_SNIFF_YES;
	const unsigned char *nl = memchr(p + i, '\n', n - i);
	if (!nl) /* the first line goes on: the op log reader explains a cut one */
		return end ? TLC_SNIFF_NO : TLC_SNIFF_UNSURE;
	/* A complete first line that is not a whole object ("{" alone, as
	 * pretty-printed traces start) means a multi-line JSON document: a
	 * trace. */
	size_t last = (size_t)(nl - (p + i));
	while (last > 0 && is_space(p[i + last - 1]))
		last--;
	return p[i] == '{' && last > 0 && p[i + last - 1] != '}' ? TLC_SNIFF_YES : TLC_SNIFF_NO;
}

const tlc_reader tlc_reader__kineto = {"kineto", kineto_sniff, tlc_trace__read_stream};
