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
	        "              `(+ N calls below depth D)` rows carrying their FLOPs\n"
	        "  --no-fold   never fold repeated blocks\n\n"
	        "The self column always adds up to the total; the hidden amount is printed.\n");
}

static int parse(cli_ctx *ctx, tlc_tree_options *o, const char **file)
{
	for (int i = 0; i < ctx->argc; i++) {
		const char *v;
		int p;
		if (cli_is_help(ctx->argv[i])) {
			help(stdout);
			return -1;
		}
		if ((v = ra_value(ctx, &i, "--phase"))) {
			if (ra_phase(&p, v, 0) < 0)
				return cli_usage_error(ctx, "--phase must be forward, backward, optimizer or other");
			o->phase = (tlc_phase)p;
		} else if ((v = ra_value(ctx, &i, "--top"))) {
			if (ra_size(&o->top, v) < 0)
				return cli_usage_error(ctx, "--top needs a count >= 0, got '%s'", v);
		} else if ((v = ra_value(ctx, &i, "--depth"))) {
			if (ra_size(&o->depth, v) < 0)
				return cli_usage_error(ctx, "--depth needs a count >= 0, got '%s'", v);
		} else if (strcmp(ctx->argv[i], "--no-fold") == 0) {
			o->no_fold = 1;
		} else {
			int rc = ra_positional(ctx, i, file);
			if (rc)
				return rc;
		}
	}
	return *file ? 0 : cli_usage_error(ctx, "give one FILE");
}

int tool_tree(cli_ctx *ctx)
{
	tlc_tree_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	const char *file = NULL;
	int rc = parse(ctx, &o, &file);
	if (rc)
		return rc < 0 ? 0 : rc;
	tlc_eval *ev;
	if ((rc = cli_load(ctx, file, 1, &ev)) != 0)
		return rc;
	tlc_tree *t;
	rc = tlc_tree_build(&t, ev, &o);
	if (rc == 0) {
		rc = tlc_write_tree(stdout, t, ctx->format);
		tlc_tree_free(t);
	}
	rc = rc < 0 ? cli_fail(ctx) : 0;
	cli_unload(ctx, ev);
	return rc;
}
