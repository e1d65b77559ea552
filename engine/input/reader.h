/* The reader interface (semi-private): one entry per input format.
 *
 * Each format lives in its own folder under engine/input/ (oplog/, kineto/)
 * and exports one tlc_reader; engine/input/input.c holds the table of them
 * and hands an input to the first reader whose sniff claims it. Adding a
 * format is one folder, one entry in that table and one fuzz target
 * (docs/contributing.md). */
#ifndef TLC_ENGINE_READER_H
#define TLC_ENGINE_READER_H

#include <stddef.h>
#include "tlcost/tlcost.h"
#include "instream.h"

/** What a sniff says about the first bytes of an input. */
enum tlc_sniff {
	TLC_SNIFF_NO = 0, /* not this format (on these bytes) */
	TLC_SNIFF_YES,    /* this format: its reader reads the input */
	TLC_SNIFF_UNSURE  /* cannot tell yet: more bytes are needed */
};

typedef struct tlc_reader {
	/** Short name of the format ("oplog", "kineto"). */
	const char *name;
	/** Looks at p[0..n), the input's first bytes after its leading
	 *  whitespace (all of the input when end is nonzero) and returns an
	 *  enum tlc_sniff. Reads nothing else, never fails. */
	int (*sniff)(const unsigned char *p, size_t n, int end);
	/** Reads the whole input from in (the sniffed bytes are still in
	 *  the stream; the caller closes it) into ev. 0 or a negative TLC_E*
	 *  code with the detail set. Does not call tlc_eval_finish. */
	int (*read)(tlc_eval *ev, tlc_instream *in);
} tlc_reader;

/** The op log v1 reader (engine/input/oplog/). */
extern const tlc_reader tlc_reader__oplog;
/** The Kineto / Chrome trace reader (engine/input/kineto/). */
extern const tlc_reader tlc_reader__kineto;

/** Helpers the sniffs share: index of the first byte of p[0..n) that is
 *  not JSON whitespace (n when none), and whether needle occurs in
 *  p[0..n). */
size_t tlc_reader__skip_space(const unsigned char *p, size_t n);
int tlc_reader__has(const unsigned char *p, size_t n, const char *needle);

#endif
