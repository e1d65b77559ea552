/* Common option parsing, engine setup, input loading and error printing. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

int cli_parse_format(tlc_format *out, const char *s)
{
	if (strcmp(s, "text") == 0)
		*out = TLC_FORMAT_TEXT;
	else if (strcmp(s, "json") == 0)
		*out = TLC_FORMAT_JSON;
	else if (strcmp(s, "csv") == 0)
		*out = TLC_FORMAT_CSV;
	else
		return -1;
	return 0;
}

static int push(const char ***list, size_t *n, const char *v)
{
	const char **l = realloc((void *)*list, (*n + 1) * sizeof **list);
	if (!l)
		return -1;
	l[(*n)++] = v;
	*list = l;
	return 0;
}

const char *cli_opt_value(int argc, char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);
	if (strncmp(argv[*i], opt, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return NULL;
	if (*i + 1 >= argc)
		return "";
	return argv[++*i];
}

static int common_option(cli_ctx *ctx, int argc, char **argv, int *i)
{
	const char *v;
	if ((v = cli_opt_value(argc, argv, i, "--plugin")))
		return *v ? push(&ctx->plugins, &ctx->nplugins, v) : 2;
	if ((v = cli_opt_value(argc, argv, i, "--rules")))
		return *v ? push(&ctx->rules, &ctx->nrules, v) : 2;
	if ((v = cli_opt_value(argc, argv, i, "--format")))
		return cli_parse_format(&ctx->format, v) < 0 ? 3 : 0;
	return 1; /* not a common option */
}

int cli_parse_common(cli_ctx *ctx, int argc, char **argv)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->prog = "tlcost";
	ctx->argv = calloc((size_t)argc + 1, sizeof *ctx->argv);
	if (!ctx->argv) {
		fprintf(stderr, "tlcost: error: out_of_memory\n  remedy: free memory\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		int rc = common_option(ctx, argc, argv, &i);
		if (rc == 0)
			continue;
		if (rc == 2 || rc == 3) {
			fprintf(stderr, "tlcost: error: usage_error: %s\n  remedy: run `tlcost --help`\n",
			        rc == 2 ? "--plugin/--rules need a path" : "--format must be text, json or csv");
			cli_ctx_dispose(ctx);
			return 2;
		}
		if (rc < 0) {
			cli_ctx_dispose(ctx);
			return 1;
		}
		if (!ctx->command && argv[i][0] != '-')
			ctx->command = argv[i];
		else
			ctx->argv[ctx->argc++] = argv[i];
	}
	return 0;
}

void cli_ctx_dispose(cli_ctx *ctx)
{
	tlc_join_free(ctx->join);
	free((void *)ctx->plugins);
	free((void *)ctx->rules);
	free(ctx->argv);
	tlc_engine_free(ctx->eng);
	memset(ctx, 0, sizeof *ctx);
}

int cli_fail(const cli_ctx *ctx)
{
	const tlc_error *e = tlc_error_last();
	fprintf(stderr, "%s: error: %s: %s\n", ctx && ctx->prog ? ctx->prog : "tlcost", e->code,
	        e->message);
	if (e->file && e->line && e->column)
		fprintf(stderr, "  at %s:%llu:%llu\n", e->file, (unsigned long long)e->line,
		        (unsigned long long)e->column);
	else if (e->file && e->line)
		fprintf(stderr, "  at %s:%llu\n", e->file, (unsigned long long)e->line);
	else if (e->file)
		fprintf(stderr, "  in %s\n", e->file);
	fprintf(stderr, "  remedy: %s\n", e->remedy);
	switch (e->klass) {
	case TLC_EINVAL: case TLC_EPARSE: case TLC_EINPUT: case TLC_EVERSION:
		return 2;
	default:
		return 1;
	}
}

int cli_usage_error(const cli_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s %s: error: usage_error: ", ctx->prog, ctx->command ? ctx->command : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n  remedy: run `%s %s --help`\n", ctx->prog, ctx->command ? ctx->command : "");
	return 2;
}

int cli_engine(cli_ctx *ctx)
{
	if (ctx->eng)
		return 0;
	if (tlc_engine_new(&ctx->eng, NULL) < 0)
		return cli_fail(ctx);
	if (tlc_engine_load_plugin_env(ctx->eng) < 0)
		return cli_fail(ctx);
	for (size_t i = 0; i < ctx->nplugins; i++)
		if (tlc_engine_load_plugin(ctx->eng, ctx->plugins[i]) < 0)
			return cli_fail(ctx);
	for (size_t i = 0; i < ctx->nrules; i++)
		if (tlc_engine_load_rules_file(ctx->eng, ctx->rules[i]) < 0)
			return cli_fail(ctx);
	for (size_t i = 0; i < tlc_engine_notice_count(ctx->eng); i++) {
		const tlc_notice *n = tlc_engine_notice_at(ctx->eng, i);
		fprintf(stderr, "%s: notice: %s: %s\n", ctx->prog, n->code, n->message);
	}
	return 0;
}

/* Device time exists only from a join: run it whenever the input brought
 * something to join (contract section 7). */
static int auto_join(cli_ctx *ctx, tlc_eval *ev)
{
	tlc_join_free(ctx->join);
	ctx->join = NULL;
	tlc_coverage c = TLC_COVERAGE_INIT;
	tlc_eval_coverage(&c, ev);
	const tlc_profiler_status *ps = tlc_eval_profiler_status(ev);
	if (ctx->no_auto_join || (c.device_records == 0 && ps->state == TLC_PROFILER_UNKNOWN))
		return 0;
	return tlc_join_run(&ctx->join, ev, NULL);
}

int cli_load(cli_ctx *ctx, const char *path, int keep_ops, tlc_eval **out)
{
	*out = NULL;
	int rc = cli_engine(ctx);
	if (rc != 0)
		return rc;
	tlc_eval_options opts = { sizeof opts, keep_ops, NULL, NULL };
	tlc_eval *ev;
	if (tlc_eval_new(&ev, ctx->eng, &opts) < 0)
		return cli_fail(ctx);
	if (tlc_input_read(ev, path) < 0 || tlc_eval_finish(ev) < 0 ||
	    (keep_ops && auto_join(ctx, ev) < 0)) {
		rc = cli_fail(ctx);
		tlc_eval_free(ev);
		return rc;
	}
	*out = ev;
	return 0;
}

void cli_unload(cli_ctx *ctx, tlc_eval *ev)
{
	tlc_join_free(ctx->join);
	ctx->join = NULL;
	tlc_eval_free(ev);
}
