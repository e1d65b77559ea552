/* tlcost merge PARTIAL...: exact merge of flops partials (docs/collectives.md). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost merge [--format text|json] PARTIAL.json...\n\n"
	        "Merges the JSON of `tlcost flops --format json` (or of an earlier merge) from\n"
	        "many inputs (files, ranks) into one partial, exactly: every total, coverage\n"
	        "count, ledger entry, op type and communication total is summed; each input\n"
	        "keeps its identity (rank from distributedInfo, file name). The result equals a\n"
	        "single evaluation of all the ops, whatever the order of the inputs, and can be\n"
	        "merged again. Refused: other schema versions (merge_schema_mismatch), the same\n"
	        "rank twice (merge_duplicate_rank), a document that is not a flops partial\n"
	        "(merge_input_invalid). --format json writes the merged partial.\n\n"
	        "The JSON of `tlcost join --format json` merges the same way: launch, kernel\n"
	        "and time counts, the gate's per-phase sums (verdict formed again), devices,\n"
	        "the remainder and the collectives' bytes and device time are summed; join and\n"
	        "flops partials do not mix (merge_incompatible).\n");
}

int tool_merge(cli_ctx *ctx)
{
	for (int i = 0; i < ctx->argc; i++) {
		if (cli_is_help(ctx->argv[i])) {
			help(stdout);
			return 0;
		}
		if (ctx->argv[i][0] == '-' && ctx->argv[i][1])
			return cli_usage_error(ctx, "unknown option %s", ctx->argv[i]);
	}
	if (ctx->argc == 0)
		return cli_usage_error(ctx, "give at least one PARTIAL.json");
	if (ctx->format == TLC_FORMAT_CSV)
		return cli_usage_error(ctx, "merge supports --format text or json");
	tlc_merge *m;
	if (tlc_merge_new(&m) < 0)
		return cli_fail(ctx);
	int rc = 0;
	for (int i = 0; i < ctx->argc && rc == 0; i++)
		if (tlc_merge_add_file(m, ctx->argv[i]) < 0)
			rc = cli_fail(ctx);
	if (rc == 0 && tlc_merge_write(stdout, m, ctx->format) < 0)
		rc = cli_fail(ctx);
	/* the text prints the notices; the merged JSON (a partial to merge
	 * again) has no place for them: stderr */
	for (size_t i = 0; rc == 0 && ctx->format == TLC_FORMAT_JSON &&
	                   i < tlc_merge_notice_count(m); i++) {
		const char *code, *input, *msg;
		if (tlc_merge_notice_get(m, i, &code, &input, &msg) == 0)
			fprintf(stderr, "%s merge: notice: %s: %s: %s\n", ctx->prog, code, input, msg);
	}
	tlc_merge_free(m);
	return rc;
}
