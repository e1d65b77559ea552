/* tlcost tree FILE: the module cost tree (contract section 5). */
#include <stdio.h>
#include <string.h>
#include "report_args.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost tree [--phase P] [--top K] [--depth D] [--no-fold]\n"
	        "                   [--format text|json|csv] FILE\n\n"
	        "The module cost tree of one phase: one row per module call (the innermost\n"
	        "module owns its ops), with self (exclusive) and subtree FLOPs (fma=2) and\n"
	        "their percentages of the phase's known total; `unk` counts ops without a\n"
	        "cost in the subtree. Identical consecutive sibling blocks (same structure\n"
	        "and exactly the same costs) fold into one row `a..b (xN)` whose values cover\n"
	        "all N blocks.\n\n"
	        "  --phase P   forward (default), backward, optimizer or other\n"
	        "  --top K     keep the K largest children of each node; the rest become one\n"
	        "              `(+ N more calls)` row carrying their FLOPs\n"
	        "  --depth D   show D levels below the root; deeper calls become\n"
	        "              `(+ N calls below depth D)` rows carrying their FLOPs; a tree\n"
	        "              shows at most 256 levels (deeper: tree_too_deep, give --depth)\n"
	        "  --no-fold   never fold repeated blocks\n\n"
	        "The self column always adds up to the total; the hidden amount is printed.\n");
}

enum { O_PHASE = 1, O_TOP, O_DEPTH, O_NO_FOLD };
static const cli_opt opts[] = {
	{ "--phase", 1, O_PHASE }, { "--top", 1, O_TOP }, { "--depth", 1, O_DEPTH },
	{ "--no-fold", 0, O_NO_FOLD }, { NULL, 0, 0 }
};

static int on_opt(cli_ctx *ctx, int id, const char *v, void *payload)
{
	tlc_tree_options *o = payload;
	int p;
	switch (id) {
	case O_PHASE:
		if (ra_phase(&p, v, 0) < 0)
			return cli_usage_error(ctx, "--phase must be forward, backward, optimizer or other");
		o->phase = (tlc_phase)p;
		return 0;
	case O_TOP:
		return ra_size(&o->top, v) == 0 ? 0
		       : cli_usage_error(ctx, "--top needs a count >= 0, got '%s'", v);
	case O_DEPTH:
		return ra_size(&o->depth, v) == 0 ? 0
		       : cli_usage_error(ctx, "--depth needs a count >= 0, got '%s'", v);
	default:
		o->no_fold = 1;
		return 0;
	}
}

int tool_tree(cli_ctx *ctx)
{
	tlc_tree_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	const char *file = NULL;
	int rc = ra_parse_args(ctx, opts, on_opt, &o, help, &file, NULL);
	if (rc)
		return rc < 0 ? 0 : rc;
	tlc_eval *ev;
	if ((rc = cli_load(ctx, file, 1, &ev)) != 0)
		return rc;
	tlc_tree *t;
	rc = tlc_tree_build_joined(&t, ev, ctx->join, &o);
	if (rc == 0) {
		rc = tlc_write_tree(stdout, t, ctx->format);
		tlc_tree_free(t);
	}
	rc = rc < 0 ? cli_fail(ctx) : 0;
	cli_unload(ctx, ev);
	return rc;
}
