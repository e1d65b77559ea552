# engine/eval: evaluation, coverage and the unknown ledger.
libtl_eval_la_SOURCES += engine/eval/eval.c engine/eval/eval.h \
	engine/eval/comm.c engine/eval/comm.h \
	engine/eval/rows.c engine/eval/rows.h \
	engine/eval/overlay.c engine/eval/overlay.h
