/* Merging device-time join partials (semi-private): the sums of the JSON
 * of `tlcost join --format json` (tlcost.join/2) that add across inputs,
 * for tlcost merge (engine/report/merge.c keeps the identities, refuses
 * duplicates and mixed kinds; docs/collectives.md, "Merging join
 * partials"). */
#ifndef TLC_ENGINE_MERGE_JOIN_H
#define TLC_ENGINE_MERGE_JOIN_H

#include <stdio.h>
#include <yajl/yajl_gen.h>
#include "jtree.h"

typedef struct tlc_mjoin tlc_mjoin;

/** 0 or TLC_ENOMEM (error set). */
int tlc_mjoin__new(tlc_mjoin **out);
void tlc_mjoin__free(tlc_mjoin *j);
/** Validates a join partial (root of its JSON): merge_input_invalid, or
 *  merge_incompatible when its gate threshold differs from what was
 *  merged so far. Nothing is folded. */
int tlc_mjoin__check(const tlc_mjoin *j, const tlc_jnode *root, const char *name);
/** Folds a checked partial in. 0 or TLC_ENOMEM. */
int tlc_mjoin__fold(tlc_mjoin *j, const tlc_jnode *root);
/** The merged keys of a join document (inside an open map; schema, report
 *  and partials are the caller's). 0 or TLC_ENOMEM. */
int tlc_mjoin__json(yajl_gen g, const tlc_mjoin *j);
/** A short text summary. */
void tlc_mjoin__text(FILE *out, const tlc_mjoin *j);

#endif
