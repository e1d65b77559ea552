/* tlcost html FILE... -o OUT: one self-contained HTML page (docs/html.md)
 * holding the JSON documents of flops, tree, profile, roofline, join and,
 * for several inputs, ranks, with the roofline SVG; written whole or not
 * at all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_args.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost html [CEILINGS] [--top K] [--depth D] [--title T]\n"
	        "                   [--chart-points N] [--diff] -o OUT FILE...\n\n"
	        "One self-contained HTML page (inline CSS, JS and SVG; no network) to open\n"
	        "from disk or share: per input the headline (COMPLETE or LOWER BOUND and\n"
	        "why), coverage and the unknown-cost ledger with remedies, the collapsible\n"
	        "module tree, sortable and filterable tables of the top ops, op types and\n"
	        "modules, the roofline chart (hypotheses from ideal traffic), the device-time\n"
	        "join and its gate, the unique-args table with attributed kernel utilization\n"
	        "(a passed gate and known ceilings) and the step-time buckets (device\n"
	        "records); with several inputs, the per-rank table. Every figure\n"
	        "is one of the JSON documents the other commands write, embedded in the\n"
	        "page; sections without data say why. OUT is replaced only when the whole\n"
	        "page was written.\n\n"
	        RA_CEIL_HELP
	        "  -o, --output OUT  the page to write (required)\n"
	        "  --top K          rows of the top-ops, per-module and unique-args tables\n"
	        "                   (default 100)\n"
	        "  --depth D        module tree depth (default 8)\n"
	        "  --title T        page title (default: tlcost report: FILE)\n"
	        "  --diff           with exactly two inputs A B: add the diff of B against A\n"
	        "                   (the document of `tlcost diff --format json A B`)\n"
	        "  --chart-points N the roofline chart (one point per covered op) is embedded\n"
	        "                   up to N points (default 20000); above, the page says how\n"
	        "                   many and `tlcost roofline --svg` draws them\n");
}

typedef struct args {
	ra_ceil rc;
	tlc_html_options o;
	const char *out;
	const char **files;
	size_t nfiles;
	char ranks_refusal[512];
	int diff;             /* --diff: keep both inputs for tlc_diff_build */
	tlc_eval *kept[2];
	tlc_join *kept_join[2];
} args;

enum { O_OUT = 1, O_TOP, O_DEPTH, O_TITLE, O_CHART_POINTS, O_DIFF };
static const cli_opt opts[] = {
	{ "-o", 1, O_OUT }, { "--output", 1, O_OUT }, { "--top", 1, O_TOP },
	{ "--depth", 1, O_DEPTH }, { "--title", 1, O_TITLE },
	{ "--chart-points", 1, O_CHART_POINTS }, { "--diff", 0, O_DIFF }, { NULL, 0, 0 }
};

static int on_arg(cli_ctx *ctx, int id, const char *v, void *payload)
{
	args *a = payload;
	switch (id) {
	case CLI_POS: {
		const char **f = realloc(a->files, (a->nfiles + 1) * sizeof *f);
		if (!f)
			return cli_error(ctx, CLI_EXIT_INPUT, "out_of_memory", "free some memory",
			                 "cannot hold the list of inputs");
		a->files = f;
		a->files[a->nfiles++] = v;
		return 0;
	}
	case O_OUT:
		return *v ? (a->out = v, 0) : cli_usage_error(ctx, "-o needs an output path");
	case O_TOP:
		return ra_size(&a->o.top_ops, v) == 0 && a->o.top_ops > 0 ? 0
		       : cli_usage_error(ctx, "--top needs a count > 0, got '%s'", v);
	case O_DEPTH:
		return ra_size(&a->o.tree_depth, v) == 0 && a->o.tree_depth > 0 ? 0
		       : cli_usage_error(ctx, "--depth needs a count > 0, got '%s'", v);
	case O_TITLE:
		a->o.title = v;
		return 0;
	case O_DIFF:
		a->diff = 1;
		return 0;
	case O_CHART_POINTS:
		return ra_size(&a->o.chart_points_max, v) == 0 && a->o.chart_points_max > 0 ? 0
		       : cli_usage_error(ctx, "--chart-points needs a count > 0, got '%s'", v);
	default:
		return ra_ceil_arg(ctx, id, v, &a->rc);
	}
}

/* One input: loaded (with its join when it has device records), written
 * into the page, added to the ranks when there are several, freed. */
static int one_input(cli_ctx *ctx, FILE *f, size_t i, const char *file, args *a,
                     tlc_ranks **ranks)
{
	tlc_eval *ev;
	int rc = cli_load(ctx, file, 1, &ev);
	if (rc != 0)
		return rc;
	if (tlc_html_write_input(f, i, file, ev, ctx->join, &a->o) < 0)
		rc = cli_fail(ctx);
	/* inputs that are not one job's ranks (the same rank twice: two runs
	 * compared) still get their page; the per-rank table says why not */
	if (rc == 0 && *ranks && tlc_ranks_add(*ranks, ev, ctx->join, file) < 0) {
		snprintf(a->ranks_refusal, sizeof a->ranks_refusal,
		         "no per-rank table: %s (%s)", tlc_error_last()->message,
		         tlc_error_last()->code);
		a->o.ranks_refusal = a->ranks_refusal;
		tlc_ranks_free(*ranks);
		*ranks = NULL;
	}
	if (rc == 0 && a->diff) { /* both inputs stay for the diff */
		a->kept[i] = ev;
		a->kept_join[i] = ctx->join;
		ctx->join = NULL;
		return 0;
	}
	cli_unload(ctx, ev);
	return rc;
}

static int write_page(cli_ctx *ctx, args *a)
{
	tlc_ranks *ranks = NULL;
	tlc_ranks_options ro = { sizeof ro, 0 };
	if (a->nfiles > 1 && tlc_ranks_new(&ranks, &ro) < 0)
		return cli_fail(ctx);
	tlc_outfile *o;
	FILE *f;
	if (tlc_outfile_open(&o, &f, a->out) < 0) {
		tlc_ranks_free(ranks);
		return cli_fail(ctx);
	}
	int rc = tlc_html_write_head(f, &a->o) < 0 ? cli_fail(ctx) : 0;
	for (size_t i = 0; i < a->nfiles && rc == 0; i++)
		rc = one_input(ctx, f, i, a->files[i], a, &ranks);
	tlc_diff *d = NULL;
	if (rc == 0 && a->diff) {
		tlc_diff_options dopt = TLC_DIFF_OPTIONS_INIT;
		if (tlc_diff_build(&d, a->kept[0], a->kept_join[0], a->kept[1], a->kept_join[1],
		                   &dopt) < 0)
			rc = cli_fail(ctx);
		a->o.diff = d;
	}
	if (rc == 0 && tlc_html_write_tail(f, ranks, &a->o) < 0)
		rc = cli_fail(ctx);
	tlc_diff_free(d);
	a->o.diff = NULL;
	for (int k = 0; k < 2; k++) {
		tlc_join_free(a->kept_join[k]);
		tlc_eval_free(a->kept[k]);
		a->kept[k] = NULL;
		a->kept_join[k] = NULL;
	}
	tlc_ranks_free(ranks);
	if (rc != 0) {
		tlc_outfile_abort(o);
		return rc;
	}
	return tlc_outfile_commit(o) < 0 ? cli_fail(ctx) : 0;
}

int tool_html(cli_ctx *ctx)
{
	args a;
	memset(&a, 0, sizeof a);
	a.o.size = sizeof a.o;
	const cli_opt *tables[] = { opts, ra_ceil_opts, NULL };
	int rc = cli_parse(ctx, tables, on_arg, &a, help);
	if (rc == 0 && !a.nfiles)
		rc = cli_usage_error(ctx, "give at least one FILE (op log or trace)");
	if (rc == 0 && !a.out)
		rc = cli_usage_error(ctx, "give the page to write: -o OUT");
	if (rc == 0 && a.diff && a.nfiles != 2)
		rc = cli_usage_error(ctx, "--diff needs exactly two inputs (A B), got %zu", a.nfiles);
	char *title = NULL;
	if (rc == 0 && !a.o.title) {
		size_t n = strlen(a.files[0]) + sizeof "tlcost report: " + (a.nfiles > 1 ? 16 : 0);
		title = malloc(n);
		if (title) {
			if (a.nfiles > 1)
				snprintf(title, n, "tlcost report: %zu inputs", a.nfiles);
			else
				snprintf(title, n, "tlcost report: %s", a.files[0]);
		}
		a.o.title = title;
	}
	if (rc == 0) {
		a.o.ceilings = a.rc.c;
		rc = write_page(ctx, &a);
	}
	free(title);
	free(a.files);
	tlc_devices_free(a.rc.devs);
	return rc < 0 ? 0 : rc;
}
