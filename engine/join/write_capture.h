/* The join's capture-pairing lines (semi-private): what tlc_capture_pair
 * found and how much kernel time the join attributed through it
 * (docs/join.md, "Capture pairing"). Nothing is written for an eval that
 * was not paired. */
#ifndef TLC_ENGINE_WRITE_CAPTURE_H
#define TLC_ENGINE_WRITE_CAPTURE_H

#include <stdio.h>
#include <yajl/yajl_gen.h>
#include "tlcost/tlcost.h"

void tlc_join__text_capture(FILE *out, const tlc_join *j, const tlc_eval *ev);
void tlc_join__json_capture(yajl_gen g, const tlc_join *j, const tlc_eval *ev);

#endif
