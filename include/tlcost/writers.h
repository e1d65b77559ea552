/*
 * libtlcost writers of the flops report, the unknown ledger and the rule listing.
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/headers.sh).
 */
#ifndef TLCOST_WRITERS_H
#define TLCOST_WRITERS_H

#include <stdio.h>

#include "common.h"
#include "engine.h"
#include "eval.h"

#include "errors.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Writes the flops report (headline per phase, coverage, lower-bound or
 *  complete line, ledger summary, op types) to out. */
int tlc_write_flops(FILE *out, const tlc_eval *ev, tlc_format fmt);
/** Writes the full unknown ledger with remedies. */
int tlc_write_ledger(FILE *out, const tlc_eval *ev, tlc_format fmt);
/** Writes the rule listing of an engine. */
int tlc_write_rules(FILE *out, const tlc_engine *eng, tlc_format fmt);

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

/** The verdict on the plugin at path (`tlcost plugin check`): info when
 *  it was accepted, else refusal (the error tlc_plugin_inspect set). Text
 *  (control bytes escaped) or JSON (schema tlcost.plugin_check/1). */
int tlc_write_plugin_check(FILE *out, const tlc_plugin_info *info, const char *path,
                           const tlc_error *refusal, tlc_format fmt);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_WRITERS_H */
