/*
 * Compatibility header: collectives.h held four modules until issue 24;
 * they now have their own headers, which it includes: <tlcost/comm.h>
 * (communication cost, link ceilings), <tlcost/merge.h> (merge of
 * partials) and <tlcost/ranks.h> (the multi-rank report). New code includes
 * those (or <tlcost/tlcost.h>); this header stays so that no caller breaks.
 */
#ifndef TLCOST_COLLECTIVES_H
#define TLCOST_COLLECTIVES_H

#include "comm.h"
#include "merge.h"
#include "ranks.h"
/* what collectives.h also included before the split */
#include "devices.h"
#include "writers.h"

#endif /* TLCOST_COLLECTIVES_H */
