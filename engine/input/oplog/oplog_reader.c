/* The op log's entry in the reader table (engine/input/reader.h). */
#include <string.h>
#include "oplog.h"
#include "reader.h"

/* An op log's first line is a one-line JSON object carrying "format":
 * "tlcost-oplog". Only a first line that names it is claimed; anything the
 * other readers do not claim comes here anyway (input.c), so that this
 * reader's errors explain what an op log must look like. */
static int oplog_sniff(const unsigned char *p, size_t n, int end)
{
	(void)end;
	size_t i = tlc_reader__skip_space(p, n);
	if (i == n || p[i] == '[') /* a bare JSON array is never an op log */
		return TLC_SNIFF_NO;
	const unsigned char *nl = memchr(p + i, '\n', n - i);
	size_t first = nl ? (size_t)(nl - (p + i)) : n - i;
	return tlc_reader__has(p + i, first, "\"tlcost-oplog\"") ? TLC_SNIFF_YES : TLC_SNIFF_NO;
}

static int oplog_read(tlc_eval *ev, tlc_instream *in)
{
	return tlc_oplog__read_stream(ev, in, 0);
}

const tlc_reader tlc_reader__oplog = {"oplog", oplog_sniff, oplog_read};
