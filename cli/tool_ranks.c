/* tlcost ranks TRACE... | DIR: one report over many ranks' traces
 * (docs/collectives.md, "Many ranks"). Traces are read one at a time. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"

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
	        "A DIR argument stands for the *.json and *.json.gz files in it, in name order.\n");
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_trace_name(const char *s)
{
	size_t n = strlen(s);
	return (n > 5 && strcmp(s + n - 5, ".json") == 0) || (n > 8 && strcmp(s + n - 8, ".json.gz") == 0);
}

/* The inputs: files as given, directories expanded (sorted). */
static int list_inputs(char ***out, size_t *n, cli_ctx *ctx, const char *const *args, size_t nargs)
{
	char **v = NULL;
	size_t cnt = 0, cap = 0;
	for (size_t i = 0; i < nargs; i++) {
		struct stat st;
		DIR *d = stat(args[i], &st) == 0 && S_ISDIR(st.st_mode) ? opendir(args[i]) : NULL;
		size_t from = cnt;
		for (struct dirent *e = d ? readdir(d) : NULL; d && e; e = readdir(d)) {
			if (!is_trace_name(e->d_name))
				continue;
			if (cnt == cap) {
				cap = cap ? cap * 2 : 64;
				char **q = realloc(v, cap * sizeof *q);
				if (!q)
					break;
				v = q;
			}
			size_t len = strlen(args[i]) + strlen(e->d_name) + 2;
			if (!(v[cnt] = malloc(len)))
				break;
			snprintf(v[cnt++], len, "%s/%s", args[i], e->d_name);
		}
		if (d) {
			closedir(d);
			qsort(v + from, cnt - from, sizeof *v, by_name);
			if (cnt == from)
				return cli_usage_error(ctx, "no *.json or *.json.gz trace in %s", args[i]);
			continue;
		}
		if (cnt == cap) {
			cap = cap ? cap * 2 : 64;
			char **q = realloc(v, cap * sizeof *q);
			if (!q)
				return cli_usage_error(ctx, "out of memory");
			v = q;
		}
		v[cnt++] = strdup(args[i]);
	}
	*out = v;
	*n = cnt;
	return 0;
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
		char *end;
		double pct = strtod(v, &end);
		if (!*v || *end || pct <= 0 || pct > 1000)
			return cli_usage_error(ctx, "--threshold takes a percentage in (0, 1000]");
		a->o->threshold_permille = (uint32_t)(pct * 10 + 0.5);
		return 0;
	}
	return tlc_link_find(a->link, v) < 0 ? cli_fail(ctx) : 0;
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
	char **files = NULL;
	size_t nfiles = 0;
	int rc = list_inputs(&files, &nfiles, ctx, args, nargs);
	free(args);
	tlc_ranks *r = NULL;
	if (rc == 0 && (tlc_ranks_new(&r, &o) < 0 || tlc_ranks_set_link(r, link) < 0))
		rc = cli_fail(ctx);
	for (size_t i = 0; rc == 0 && i < nfiles; i++) {
		tlc_eval *ev;
		rc = cli_load(ctx, files[i], 1, &ev);
		if (rc != 0)
			break;
		if (tlc_ranks_add(r, ev, ctx->join, files[i]) < 0)
			rc = cli_fail(ctx);
		cli_unload(ctx, ev);
	}
	if (rc == 0 && tlc_ranks_write(stdout, r, ctx->format) < 0)
		rc = cli_fail(ctx);
	tlc_ranks_free(r);
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	return rc;
}
