/*
 * Compatibility header: writers.h gathered writers of several modules until
 * issue 24; each now lives in the header of its module, which it includes:
 * the flops report and the unknown ledger in <tlcost/flops.h>, the rule
 * listing and the plugin check in <tlcost/engine.h>, the atomic output file
 * in <tlcost/outfile.h>. New code includes those (or <tlcost/tlcost.h>);
 * this header stays so that no caller breaks.
 */
#ifndef TLCOST_WRITERS_H
#define TLCOST_WRITERS_H

#include "common.h"
#include "engine.h"
#include "eval.h"
#include "errors.h"
#include "flops.h"
#include "outfile.h"

#endif /* TLCOST_WRITERS_H */
