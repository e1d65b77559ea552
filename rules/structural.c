/* Structural ops: rows that own no compute of their own (profiler ranges,
 * autograd and module boundary markers). Their class is not_applicable and
 * their children, if any, are evaluated. A row that launches kernels itself
 * still owns those launches in the device-time join (the join never looks at
 * classes when it attributes). */
#include <stddef.h>
#include "rules.h"

#define RANGE "profiler/bookkeeping range: owns no compute"

static const struct {
	const char *name, *note;
} structural[] = {
	{ "profiler::_record_function_enter", RANGE },
	{ "profiler::_record_function_enter_new", RANGE },
	{ "profiler::_record_function_exit", RANGE },
	{ "profiler::_call_end_callbacks_on_jit_fut", RANGE },
	{ "aten::record_stream", RANGE },
	{ "aten::_record_function_enter", RANGE },
	{ "aten::_record_function_exit", RANGE },
	/* Kineto wrapper rows, as the trace reader names them (docs/kineto.md) */
	{ "autograd::engine::evaluate_function",
	  "autograd engine wrapper around one backward node (the node is the overload): "
	  "owns no compute; the ops inside it are evaluated" },
	{ "autograd::node",
	  "autograd backward node row (FooBackward0; the node name is the overload): a "
	  "boundary around the backward ops it calls, which are evaluated" },
	{ "torch::autograd::AccumulateGrad",
	  "autograd leaf gradient accumulation boundary: the add/copy it performs is an "
	  "aten child row, evaluated there" },
	{ "torch::autograd::CppNode",
	  "C++ custom autograd Function node (the Function type is the overload): a "
	  "boundary; its backward's ops are children, evaluated there" },
};

int tlc_rules__structural_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	for (size_t i = 0; i < sizeof structural / sizeof structural[0]; i++) {
		tlc_rule_def d = { sizeof d, structural[i].name, TLC_RULE_STRUCTURAL,
			           TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
			           structural[i].note, 0 };
		int rc = host->register_rule(ctx, &d);
		if (rc < 0)
			return rc;
	}
	return 0;
}
