# engine/eval: evaluation, coverage and the unknown ledger.
libtl_eval_la_SOURCES += engine/eval/eval.c engine/eval/eval.h
