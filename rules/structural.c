/* Structural ops: rows that own no compute of their own (profiler ranges,
 * autograd and module boundary markers). Their class is not_applicable and
 * their children, if any, are evaluated. */
#include <stddef.h>
#include "rules.h"

static const char *const structural[] = {
	"profiler::_record_function_enter",
	"profiler::_record_function_enter_new",
	"profiler::_record_function_exit",
	"profiler::_call_end_callbacks_on_jit_fut",
	"aten::record_stream",
	"aten::_record_function_enter",
	"aten::_record_function_exit",
};

int tlc_rules__structural_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	for (size_t i = 0; i < sizeof structural / sizeof structural[0]; i++) {
		tlc_rule_def d = { sizeof d, structural[i], TLC_RULE_STRUCTURAL,
			           TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
			           "profiler/bookkeeping range: owns no compute", 0 };
		int rc = host->register_rule(ctx, &d);
		if (rc < 0)
			return rc;
	}
	return 0;
}
