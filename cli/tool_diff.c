/* tlcost diff A B: what changed between two runs (docs/diff.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "input_list.h"
#include "report_args.h"

#define EXIT_CONDITION 4 /* a --fail-if condition holds */

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost diff [--by group|type|module] [--top K] [--fail-if EXPR]...\n"
	        "                   [--format text|json|csv] A B\n\n"
	        "What changed from A to B (op logs, traces or saved joins; or two directories\n"
	        "of per-rank traces, diffed rank by rank in name order and in total). Op rows\n"
	        "are aligned most specific first: the same call (phase, module, op, overload,\n"
	        "shapes and dtypes, n-th occurrence), then the same op at the same module with\n"
	        "other shapes or dtypes, then the same op type; the rest is only in A or only in\n"
	        "B. Per group: the change of count, MACs, other FLOPs and bytes (exact, B - A)\n"
	        "and, where both inputs' device-time joins passed their gate, of attributed\n"
	        "kernel time split into work (B's work at A's rate) and rate (the rest).\n\n"
	        "  --by B          group (default), type or module\n"
	        "  --top K         rows to show (default 25; 0 = all)\n"
	        "  --fail-if EXPR  exit 4 when EXPR holds on the totals (repeatable), e.g.\n"
	        "                  forward.flops>+1%%, kernel_time>+5%%, coverage.unknown>0;\n"
	        "                  [PHASE.]FIGURE OP VALUE[%%] with FIGURE one of count, macs,\n"
	        "                  other_flops, flops, bytes, kernel_time, work_time,\n"
	        "                  rate_time, coverage.unknown, coverage.changed; the change\n"
	        "                  B - A is compared (in %% of A with a %% sign)\n");
}

enum { O_BY = 1, O_TOP, O_FAIL_IF };

typedef struct args {
	tlc_diff_options o;
	const char **conds;
	size_t nconds;
	const char *file[2];
	size_t nfiles;
} args;

static int on_arg(cli_ctx *ctx, int id, const char *v, void *payload)
{
	args *a = payload;
	static const char *const by[] = { "group", "type", "module" };
	switch (id) {
	case CLI_POS:
		if (a->nfiles == 2)
			return cli_usage_error(ctx, "give two inputs, A and B; '%s' is a third", v);
		a->file[a->nfiles++] = v;
		return 0;
	case O_BY:
		for (int k = 0; k < 3; k++)
			if (strcmp(v, by[k]) == 0) {
				a->o.by = (tlc_diff_by)k;
				return 0;
			}
		return cli_usage_error(ctx, "--by must be group, type or module");
	case O_TOP:
		return ra_size(&a->o.top, v) == 0 ? 0
		       : cli_usage_error(ctx, "--top needs a count >= 0, got '%s'", v);
	default:
		a->conds[a->nconds++] = v;
		return 0;
	}
}

/* Checks every condition: 0 when none holds, EXIT_CONDITION when one does,
 * or the exit status of a refused condition. Conditions and figures go to
 * stderr. */
static int check(cli_ctx *ctx, const tlc_diff *d, const args *a, const char *label)
{
	int rc = 0;
	for (size_t i = 0; i < a->nconds; i++) {
		int holds = 0;
		char *why = NULL;
		if (tlc_diff_condition(&holds, &why, d, a->conds[i]) < 0) {
			const tlc_error *e = tlc_error_last();
			return e && strcmp(e->code, "diff_condition_invalid") == 0 ? cli_fail_usage(ctx)
			                                                          : cli_fail(ctx);
		}
		fprintf(stderr, "%s diff: %s%s%s\n", ctx->prog, label ? label : "", label ? ": " : "",
		        why ? why : a->conds[i]);
		tlc_free(why);
		if (holds)
			rc = EXIT_CONDITION;
	}
	if (rc)
		fprintf(stderr, "%s diff: a --fail-if condition holds: exit status 4\n", ctx->prog);
	return rc;
}

/* "flops" or "join" when the file is a partial (`tlcost flops/join --format
 * json`: one JSON object naming its schema), else NULL. */
static const char *partial_kind(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL; /* the reader reports it */
	char buf[4096];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = buf;
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (*p != '{')
		return NULL;
	if (strstr(p, "\"schema\": \"tlcost.flops/") || strstr(p, "\"schema\":\"tlcost.flops/"))
		return "flops";
	if (strstr(p, "\"schema\": \"tlcost.join/") || strstr(p, "\"schema\":\"tlcost.join/"))
		return "join";
	return NULL;
}

/* One side of a partial diff as flops partial JSON: the file itself, or
 * the flops partial of the op log or trace it is (evaluated, then freed). */
static int partial_text(cli_ctx *ctx, const char *path, const char *name, char **buf,
                        size_t *len)
{
	*buf = NULL;
	*len = 0;
	if (partial_kind(path)) {
		FILE *f = fopen(path, "rb");
		FILE *m = f ? open_memstream(buf, len) : NULL;
		char chunk[65536];
		size_t n;
		while (f && m && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
			fwrite(chunk, 1, n, m);
		int err = !f || !m || ferror(f);
		if (f)
			fclose(f);
		if (m)
			fclose(m);
		return err ? cli_error(ctx, CLI_EXIT_INPUT, "io_error", "check the file and retry",
		                       "%s: cannot be read", name) : 0;
	}
	ctx->read_as = name && strcmp(path, name) != 0 ? path : NULL;
	ctx->read_name = name;
	tlc_eval *ev;
	int rc = cli_load(ctx, path, 0, &ev);
	ctx->read_as = ctx->read_name = NULL;
	if (rc)
		return rc;
	FILE *m = open_memstream(buf, len);
	if (!m || tlc_write_flops(m, ev, TLC_FORMAT_JSON) < 0)
		rc = m ? cli_fail(ctx) : cli_error(ctx, CLI_EXIT_INPUT, "out_of_memory",
		                                   "free memory and retry", "no memory for %s", name);
	if (m)
		fclose(m);
	cli_unload(ctx, ev);
	return rc;
}

/* A or B is a partial: the diff of their flops partials (totals only). */
static int diff_partials(cli_ctx *ctx, const args *a, const char *pa, const char *na,
                         const char *pb, const char *nb)
{
	char *buf[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 };
	int rc = partial_text(ctx, pa, na, &buf[0], &len[0]);
	if (rc == 0)
		rc = partial_text(ctx, pb, nb, &buf[1], &len[1]);
	tlc_diff *d = NULL;
	if (rc == 0 && tlc_diff_build_partials(&d, buf[0], len[0], na, buf[1], len[1], nb) < 0)
		rc = cli_fail(ctx);
	if (rc == 0 && a->o.by != TLC_DIFF_BY_GROUP)
		fprintf(stderr, "%s diff: notice: --by is ignored: a flops partial has totals only\n",
		        ctx->prog);
	if (rc == 0 && tlc_write_diff(stdout, d, ctx->format) < 0)
		rc = cli_fail(ctx);
	if (rc == 0)
		rc = check(ctx, d, a, NULL);
	tlc_diff_free(d);
	free(buf[0]);
	free(buf[1]);
	return rc;
}

/* Loads one input; its join (or NULL) is handed over in *j. */
static int load(cli_ctx *ctx, const char *path, const char *name, tlc_eval **ev, tlc_join **j)
{
	*ev = NULL;
	*j = NULL;
	ctx->read_as = name && strcmp(path, name) != 0 ? path : NULL;
	ctx->read_name = name;
	int rc = cli_load(ctx, path, 1, ev);
	ctx->read_as = ctx->read_name = NULL;
	*j = rc == 0 ? ctx->join : NULL;
	ctx->join = NULL;
	return rc;
}

static void unload(tlc_eval *ev, tlc_join *j)
{
	tlc_join_free(j);
	tlc_eval_free(ev);
}

/* One diff of two loaded inputs: built, written, its conditions checked. */
static int diff_pair(cli_ctx *ctx, const args *a, const char *pa, const char *na,
                     const char *pb, const char *nb, const char *label, tlc_diff **keep)
{
	if (!keep && (partial_kind(pa) || partial_kind(pb)))
		return diff_partials(ctx, a, pa, na, pb, nb);
	tlc_eval *ev[2] = { NULL, NULL };
	tlc_join *j[2] = { NULL, NULL };
	int rc = load(ctx, pa, na, &ev[0], &j[0]);
	if (rc == 0)
		rc = load(ctx, pb, nb, &ev[1], &j[1]);
	tlc_diff *d = NULL;
	if (rc == 0 && tlc_diff_build(&d, ev[0], j[0], ev[1], j[1], &a->o) < 0)
		rc = cli_fail(ctx);
	if (rc == 0 && label && ctx->format == TLC_FORMAT_TEXT)
		printf("== %s: %s -> %s\n", label, na, nb);
	if (rc == 0 && label && ctx->format == TLC_FORMAT_JSON && strcmp(label, "rank 0") != 0)
		fputc(',', stdout); /* the next element of "ranks" */
	if (rc == 0 && tlc_write_diff(stdout, d, ctx->format) < 0)
		rc = cli_fail(ctx);
	if (rc == 0)
		rc = check(ctx, d, a, label);
	if (keep && (rc == 0 || rc == EXIT_CONDITION) && tlc_diff_sum_add(*keep, d) < 0)
		rc = cli_fail(ctx);
	tlc_diff_free(d);
	unload(ev[0], j[0]);
	unload(ev[1], j[1]);
	return rc;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A directory's notices (an entry skipped, an identical copy): stderr. */
static int on_notice(const char *code, const char *input, const char *message, void *payload)
{
	const cli_ctx *ctx = payload;
	fprintf(stderr, "%s diff: notice: %s: %s: %s\n", ctx->prog, code, input, message);
	return 0;
}

/* Two directories of per-rank traces: rank k of A against rank k of B, in
 * name order, one pair in memory at a time; then the sum over ranks. */
static int diff_dirs(cli_ctx *ctx, const args *a)
{
	cli_inputs in[2] = { { NULL, 0, 0, on_notice, ctx }, { NULL, 0, 0, on_notice, ctx } };
	int rc = cli_inputs_list(&in[0], ctx, &a->file[0], 1);
	if (rc == 0)
		rc = cli_inputs_list(&in[1], ctx, &a->file[1], 1);
	if (rc == 0 && in[0].n != in[1].n)
		rc = cli_error(ctx, CLI_EXIT_INPUT, "diff_rank_count_mismatch",
		               "give two directories with one trace per rank each, the same ranks",
		               "%s holds %zu rank traces and %s holds %zu: ranks are paired in name "
		               "order", a->file[0], in[0].n, a->file[1], in[1].n);
	if (rc == 0 && ctx->format == TLC_FORMAT_CSV)
		rc = cli_usage_error(ctx, "--format csv takes two files; for two directories use "
		                     "text or json");
	tlc_diff *sum = NULL;
	if (rc == 0 && tlc_diff_sum_new(&sum) < 0)
		rc = cli_fail(ctx);
	int json = ctx->format == TLC_FORMAT_JSON;
	if (rc == 0 && json)
		printf("{\"schema\":\"tlcost.diff-ranks/1\",\"report\":\"diff\",\"ranks\":[");
	int cond = 0;
	for (size_t k = 0; rc == 0 && k < in[0].n; k++) {
		char pa[64 + 4096], pb[64 + 4096], label[32];
		if (cli_input_open(&in[0].v[k], pa, sizeof pa, &in[0]) != 0 ||
		    cli_input_open(&in[1].v[k], pb, sizeof pb, &in[1]) != 0) {
			rc = cli_fail(ctx);
			break;
		}
		snprintf(label, sizeof label, "rank %zu", k);
		rc = diff_pair(ctx, a, pa, in[0].v[k].path, pb, in[1].v[k].path, label, &sum);
		cli_input_close(&in[0].v[k]);
		cli_input_close(&in[1].v[k]);
		if (rc == EXIT_CONDITION) {
			cond = rc;
			rc = 0;
		}
	}
	if (rc == 0 && tlc_diff_sum_finish(sum) < 0)
		rc = cli_fail(ctx);
	if (rc == 0 && ctx->format == TLC_FORMAT_TEXT)
		printf("== all %zu ranks: %s -> %s\n", in[0].n, a->file[0], a->file[1]);
	if (rc == 0 && json)
		printf("],\"total\":");
	if (rc == 0 && tlc_write_diff(stdout, sum, ctx->format) < 0)
		rc = cli_fail(ctx);
	if (rc == 0 && json)
		printf("}\n");
	if (rc == 0)
		rc = check(ctx, sum, a, "all ranks");
	tlc_diff_free(sum);
	cli_inputs_free(&in[0]);
	cli_inputs_free(&in[1]);
	return rc ? rc : cond;
}

int tool_diff(cli_ctx *ctx)
{
	args a;
	memset(&a, 0, sizeof a);
	a.o.size = sizeof a.o;
	a.o.top = 25;
	a.conds = calloc((size_t)ctx->argc + 1, sizeof *a.conds);
	if (!a.conds)
		return cli_usage_error(ctx, "out of memory");
	static const cli_opt opts[] = {
		{ "--by", 1, O_BY }, { "--top", 1, O_TOP }, { "--fail-if", 1, O_FAIL_IF }, { NULL, 0, 0 }
	};
	const cli_opt *tables[] = { opts, NULL };
	int rc = cli_parse(ctx, tables, on_arg, &a, help);
	if (rc == 0 && a.nfiles != 2)
		rc = cli_usage_error(ctx, "give two inputs, A and B (files, or two directories of "
		                     "rank traces)");
	if (rc == 0) {
		int da = is_dir(a.file[0]), db = is_dir(a.file[1]);
		if (da != db)
			rc = cli_usage_error(ctx, "give two files or two directories, not one of each");
		else if (da)
			rc = diff_dirs(ctx, &a);
		else
			rc = diff_pair(ctx, &a, a.file[0], a.file[0], a.file[1], a.file[1], NULL, NULL);
	}
	free(a.conds);
	return rc < 0 ? 0 : rc;
}
