/*
 * libtlcost outfile: an output file written whole or not at all (the
 * writers' --save / --svg / -o targets).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_OUTFILE_H
#define TLCOST_OUTFILE_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- outfile: atomic output files ---- */

/** An output file written whole or not at all: tlc_outfile_open creates a
 *  temporary file in path's directory and gives its stream; write into it,
 *  then tlc_outfile_commit flushes, fsyncs and renames it over path, or
 *  tlc_outfile_abort removes it. Until the commit succeeds (and whenever the
 *  process is killed before it) path keeps its old content. Both free o.
 *  Errors: output_open_failed (no temporary file can be made there, or path
 *  is not a regular file), output_write_failed (writing, syncing or
 *  renaming failed: nothing replaced path). */
typedef struct tlc_outfile tlc_outfile;
int tlc_outfile_open(tlc_outfile **out, FILE **stream, const char *path);
int tlc_outfile_commit(tlc_outfile *o);
void tlc_outfile_abort(tlc_outfile *o);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_OUTFILE_H */
