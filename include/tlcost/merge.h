/*
 * libtlcost merge: the exact merge of flops and join partials from many
 * inputs (files, ranks) into one (docs/collectives.md).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_MERGE_H
#define TLCOST_MERGE_H

#include <stddef.h>
#include <stdio.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- merge: exact merge of partials ---- */

/** A merge of flops partials: the JSON documents of `tlcost flops
 *  --format json` (or of an earlier merge), one per input (a file, a rank).
 *  Totals, coverage counts, ledger entries, op types and communication are
 *  summed exactly; each input keeps its identity (name, rank). Merging is
 *  associative and order-independent. Memory: the distinct op names plus
 *  one identity row per input. Not thread-safe; one merge per thread. */
typedef struct tlc_merge tlc_merge;

int tlc_merge_new(tlc_merge **out);
void tlc_merge_free(tlc_merge *m);
/** Adds one partial from memory (json need not be NUL-terminated; name is
 *  its identity when it has no rank, and names it in errors). A refused
 *  document leaves the merge unchanged. Errors: merge_input_invalid (not
 *  JSON, not a flops partial), merge_schema_mismatch (another schema
 *  version), merge_incompatible (another count basis or FLOP convention),
 *  merge_duplicate_rank, merge_duplicate_input; after out_of_memory the
 *  merge holds an unspecified part of the document: free it. */
int tlc_merge_add_mem(tlc_merge *m, const void *json, size_t len, const char *name);
/** tlc_merge_add_mem on a file's contents. Errors: as above, io_error. */
int tlc_merge_add_file(tlc_merge *m, const char *path);
/** Number of inputs (identities) merged so far. */
size_t tlc_merge_count(const tlc_merge *m);
/** Notices about the inputs: an input with the same bytes as another
 *  (merge_identical_input: merged again, as given). The text output prints
 *  them; the merged JSON leaves them out (it stays the same whatever the
 *  order and bracketing of the inputs), so a caller writing JSON shows them
 *  itself. Strings valid until tlc_merge_free. Errors: invalid_argument. */
size_t tlc_merge_notice_count(const tlc_merge *m);
int tlc_merge_notice_get(const tlc_merge *m, size_t i, const char **code, const char **input,
                         const char **message);
/** Writes the merged partial (JSON: the flops schema plus `partials`, and
 *  per ledger entry `example_sources`) or a text summary. Errors:
 *  merge_empty, format_unsupported, io_error. */
int tlc_merge_write(FILE *out, const tlc_merge *m, tlc_format fmt);
/** The merged JSON in a malloc'd buffer (free with tlc_free). */
int tlc_merge_write_mem(char **out, size_t *len, const tlc_merge *m);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_MERGE_H */
