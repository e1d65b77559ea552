/*
 * libtlcost application API: engine, inputs, evaluation, reports.
 *
 * Conventions: functions return 0 on success or a negative TLC_E* code; the
 * detail (stable snake_case code, message, remedy, input position) is read
 * with tlc_error_last(). Out parameters come first. The library never prints
 * to the terminal, never exits and never aborts on bad input.
 *
 * Typical use:
 *     tlc_engine *eng;  tlc_eval *ev;
 *     tlc_engine_new(&eng, NULL);                 built-in rules registered
 *     tlc_engine_load_plugin(eng, "./myrules.so"); optional
 *     tlc_eval_new(&ev, eng, NULL);
 *     tlc_input_read(ev, "model.oplog.jsonl.gz"); or tlc_eval_push_op() per op
 *     tlc_eval_finish(ev);
 *     ... tlc_eval_total_str(), tlc_eval_coverage(), tlc_eval_ledger_entry() ...
 *     tlc_eval_free(ev); tlc_engine_free(eng);
 */
#ifndef TLCOST_TLCOST_H
#define TLCOST_TLCOST_H

/* The umbrella header: every module of the public API. An application may
 * include just the module headers it uses (each compiles on its own). */
#include "common.h"
#include "errors.h"
#include "plugin.h"
#include "engine.h"
#include "cost.h"
#include "eval.h"
#include "input.h"
#include "join.h"
#include "devices.h"
#include "tree.h"
#include "profile.h"
#include "roofline.h"
#include "mfu.h"
#include "report.h"
#include "writers.h"

#ifdef __cplusplus
extern "C" {
#endif

/* New declarations not yet sorted into a module header go here, in one
 * block per module starting with a comment line. */

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_TLCOST_H */
