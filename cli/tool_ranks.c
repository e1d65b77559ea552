/* tlcost ranks TRACE... | DIR: one report over many ranks' traces
 * (docs/collectives.md, "Many ranks"). Traces are read one at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "input_list.h"
#include "report_args.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost ranks [--format text|json|csv] [--threshold PCT] [--link ID]\n"
	        "                    TRACE...|DIR\n\n"
	        "Reads each rank's trace (one at a time: memory is bounded by the largest) and\n"
	        "prints, per rank and phase, the FLOPs and communication bytes (analytic,\n"
	        "exact), the device kernel time, communication time and communication/\n"
	        "computation overlap (from the trace's device records, through the device-time\n"
	        "join); per rank the span, kernel, idle, compute and communication time; the\n"
	        "merged totals; and the stragglers: ranks whose compute kernel time exceeds the\n"
	        "median by more than PCT percent (default 10), with the collective the others\n"
	        "waited longest for, from the collectives' start skew after aligning the ranks'\n"
	        "clocks on the collectives' end times (when the ends do not agree, it says so).\n"
	        "Where a rank's device-time join passed its gate, the achieved algorithm and bus\n"
	        "bandwidth of each collective kind (nccl-tests' definitions) against a link\n"
	        "ceiling: --link ID (nvlink2..5, infinity-fabric-mi300x, pcie4-x16, pcie5-x16,\n"
	        "ib-hdr, ib-ndr, roce-400g), else the link of the rank's device preset.\n"
	        "A DIR argument stands for the *.json and *.json.gz regular files in it, in\n"
	        "name order; other entries with those names (a FIFO, a device) are skipped\n"
	        "with a notice in the report (ranks_entry_skipped); a FIFO named on the\n"
	        "command line is read as a stream. The same file given twice (a symbolic link\n"
	        "to it included) is refused (ranks_duplicate_input); a byte-identical copy is\n"
	        "read, with a notice (ranks_identical_input).\n");
}

enum { OPT_THRESHOLD = 1, OPT_LINK };

typedef struct ranks_args {
	tlc_ranks_options *o;
	const tlc_link_preset **link;
	const char **args;
	size_t nargs;
} ranks_args;

static int on_arg(cli_ctx *ctx, int id, const char *v, void *payload)
{
	ranks_args *a = payload;
	if (id == CLI_POS) {
		a->args[a->nargs++] = v;
		return 0;
	}
	if (id == OPT_THRESHOLD) {
		/* kept in permille: below 0.1 would round to 0, which means the default */
		double pct;
		if (ra_decimal(&pct, v) < 0 || pct < 0.1 || pct > 1000)
			return cli_usage_error(ctx, "--threshold takes a finite percentage from 0.1 to "
			                            "1000, got '%s'", v);
		a->o->threshold_permille = (uint32_t)(pct * 10 + 0.5);
		return 0;
	}
	return tlc_link_find(a->link, v) < 0 ? cli_fail(ctx) : 0;
}

typedef struct notice_sink {
	cli_ctx *ctx;
	tlc_ranks *r;
} notice_sink;

/* Notices go into the report (text, JSON); the CSV has no place for them,
 * so with --format csv they are printed on stderr too. */
static int on_notice(const char *code, const char *input, const char *message, void *payload)
{
	notice_sink *k = payload;
	if (k->ctx->format == TLC_FORMAT_CSV)
		fprintf(stderr, "%s ranks: notice: %s: %s: %s\n", k->ctx->prog, code, input, message);
	return tlc_ranks_add_notice(k->r, code, input, message);
}

/* Reads one input into the report: a directory's entry through the file
 * checked to be regular (cli_input_open), errors naming the entry. */
static int add_rank(cli_ctx *ctx, tlc_ranks *r, cli_inputs *l, cli_input *in)
{
	char path[64 + 4096];
	int o = cli_input_open(in, path, sizeof path, l);
	if (o != 0)
		return o > 0 ? 0 : cli_fail(ctx);
	ctx->read_as = strcmp(path, in->path) != 0 ? path : NULL;
	ctx->read_name = in->path;
	tlc_eval *ev;
	int rc = cli_load(ctx, path, 1, &ev);
	if (rc == 0) {
		if (tlc_ranks_add(r, ev, ctx->join, in->path) < 0)
			rc = cli_fail(ctx);
		cli_unload(ctx, ev);
	}
	ctx->read_as = ctx->read_name = NULL;
	cli_input_close(in);
	return rc;
}

int tool_ranks(cli_ctx *ctx)
{
	tlc_ranks_options o = { sizeof o, 100 };
	const tlc_link_preset *link = NULL;
	const char **args = calloc((size_t)ctx->argc + 1, sizeof *args);
	if (!args)
		return cli_usage_error(ctx, "out of memory");
	static const cli_opt opts[] = {
		{ "--threshold", 1, OPT_THRESHOLD }, { "--link", 1, OPT_LINK }, { NULL, 0, 0 }
	};
	const cli_opt *tables[] = { opts, NULL };
	ranks_args a = { &o, &link, args, 0 };
	int prc = cli_parse(ctx, tables, on_arg, &a, help);
	if (prc != 0) {
		free(args);
		return prc < 0 ? 0 : prc;
	}
	size_t nargs = a.nargs;
	if (nargs == 0) {
		free(args);
		return cli_usage_error(ctx, "give rank traces or a directory of them");
	}
	tlc_ranks *r = NULL;
	if (tlc_ranks_new(&r, &o) < 0 || tlc_ranks_set_link(r, link) < 0) {
		free(args);
		tlc_ranks_free(r);
		return cli_fail(ctx);
	}
	notice_sink sink = { ctx, r };
	cli_inputs in = { NULL, 0, 0, on_notice, &sink };
	int rc = cli_inputs_list(&in, ctx, args, nargs);
	free(args);
	for (size_t i = 0; rc == 0 && i < in.n; i++)
		rc = add_rank(ctx, r, &in, &in.v[i]);
	if (rc == 0 && tlc_ranks_write(stdout, r, ctx->format) < 0)
		rc = cli_fail(ctx);
	tlc_ranks_free(r);
	cli_inputs_free(&in);
	return rc;
}
