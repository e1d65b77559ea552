/* Common option parsing, engine setup, input loading and error printing. */
#include <errno.h>
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

/* --name VALUE or --name=VALUE at argv[*i] (advancing *i past a separate
 * value): the value, NULL when argv[*i] is not name; *missing is set when
 * the separate value is absent. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, int *missing)
{
	size_t n = strlen(name);
	*missing = 0;
	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return "";
	}
	return argv[++*i];
}

static const cli_opt common_opts[] = {
	{ "--plugin", 1, 1 }, { "--rules", 1, 2 }, { "--format", 1, 3 },
	{ "--max-input-bytes", 1, 4 }, { "--max-token-bytes", 1, 5 },
	{ "--max-held-records", 1, 6 }, { "--max-held-bytes", 1, 7 }, { "--packs", 1, 8 },
	{ NULL, 0, 0 }
};

/* A limit: a count with an optional k/M/G/T suffix (powers of 1024), or
 * "none". 0 or -1. */
static int parse_limit(uint64_t *out, const char *v)
{
	if (strcmp(v, "none") == 0) {
		*out = UINT64_MAX;
		return 0;
	}
	char *end;
	errno = 0;
	/* digits first: strtoull skips blanks and wraps " -1" to a huge limit */
	unsigned long long n = v[0] >= '0' && v[0] <= '9' ? strtoull(v, &end, 10) : 0;
	if (n == 0 || errno)
		return -1;
	int shift = *end == 'k' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : *end == 'T' ? 40 : 0;
	if (shift)
		end++;
	if (*end || (shift && n > (UINT64_MAX >> shift)))
		return -1;
	*out = (uint64_t)n << shift;
	return 0;
}

/* 1 when argv[*i] is a common option (consumed), 0 when not, or an exit
 * status after a usage error. */
static int common_option(cli_ctx *ctx, int argc, char **argv, int *i)
{
	if (strcmp(argv[*i], "--no-packs") == 0) {
		ctx->no_packs = 1;
		return 1;
	}
	for (const cli_opt *o = common_opts; o->name; o++) {
		int missing;
		const char *v = opt_value(argc, argv, i, o->name, &missing);
		if (!v)
			continue;
		if (!*v)
			return cli_error(ctx, CLI_EXIT_USAGE, "usage_error", "run `tlcost --help`",
			                 "%s needs a value", o->name);
		if (o->id == 3)
			return cli_parse_format(&ctx->format, v) == 0 ? 1
			       : cli_error(ctx, CLI_EXIT_USAGE, "usage_error", "run `tlcost --help`",
			                   "--format must be text, json or csv, got '%s'", v);
		if (o->id == 8) {
			if (ctx->packs)
				return cli_error(ctx, CLI_EXIT_USAGE, "usage_error", "run `tlcost --help`",
				                 "--packs given twice: name every pack in one list "
				                 "(--packs aiter,sglang)");
			ctx->packs = v;
			return 1;
		}
		if (o->id >= 4) {
			uint64_t *dst[] = { &ctx->limits.max_input_bytes, &ctx->limits.max_token_bytes,
			                    &ctx->limits.max_held_records, &ctx->limits.max_held_bytes };
			return parse_limit(dst[o->id - 4], v) == 0 ? 1
			       : cli_error(ctx, CLI_EXIT_USAGE, "usage_error", "run `tlcost --help`",
			                   "%s needs a count > 0 (suffix k, M, G or T) or 'none', "
			                   "got '%s'", o->name, v);
		}
		int rc = o->id == 1 ? push(&ctx->plugins, &ctx->nplugins, v)
		                    : push(&ctx->rules, &ctx->nrules, v);
		return rc == 0 ? 1 : cli_error(ctx, CLI_EXIT_INPUT, "out_of_memory", "free memory",
		                               "cannot hold the command line");
	}
	return 0;
}

int cli_parse_common(cli_ctx *ctx, int argc, char **argv)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->prog = "tlcost";
	ctx->optend = argc;
	ctx->limits.size = sizeof ctx->limits;
	ctx->argv = calloc((size_t)argc + 1, sizeof *ctx->argv);
	if (!ctx->argv)
		return cli_error(ctx, CLI_EXIT_INPUT, "out_of_memory", "free memory",
		                 "cannot hold the command line");
	int ended = 0;
	for (int i = 1; i < argc; i++) {
		if (!ended && strcmp(argv[i], "--") == 0) {
			ended = 1;
			ctx->optend = ctx->argc;
			continue;
		}
		int rc = ended ? 0 : common_option(ctx, argc, argv, &i);
		if (rc == 1)
			continue;
		if (rc != 0) {
			cli_ctx_dispose(ctx);
			return rc;
		}
		if (!ctx->command && (ended || argv[i][0] != '-'))
			ctx->command = argv[i];
		else
			ctx->argv[ctx->argc++] = argv[i];
	}
	if (!ended)
		ctx->optend = ctx->argc;
	return 0;
}

/* The option of the tables that argv[*i] names, with its value. */
static int match_option(cli_ctx *ctx, const cli_opt *const *tables, int *i, const cli_opt **hit,
                        const char **value)
{
	const char *a = ctx->argv[*i];
	for (const cli_opt *const *t = tables; *t; t++)
		for (const cli_opt *o = *t; o->name; o++) {
			size_t n = strlen(o->name);
			if (strncmp(a, o->name, n) != 0 || (a[n] != '\0' && a[n] != '='))
				continue;
			*hit = o;
			if (!o->takes_value) {
				*value = NULL;
				return a[n] == '=' ? cli_usage_error(ctx, "%s takes no value", o->name) : 0;
			}
			int missing;
			*value = opt_value(ctx->optend, ctx->argv, i, o->name, &missing);
			return missing ? cli_usage_error(ctx, "%s needs a value", o->name) : 0;
		}
	return cli_usage_error(ctx, "unknown option %s", a);
}

int cli_parse(cli_ctx *ctx, const cli_opt *const *tables, cli_on_arg on, void *payload,
              void (*help)(FILE *))
{
	for (int i = 0; i < ctx->argc; i++) {
		const char *a = ctx->argv[i];
		int rc;
		if (i >= ctx->optend || a[0] != '-' || a[1] == '\0') {
			rc = on(ctx, CLI_POS, a, payload);
		} else if (cli_is_help(a)) {
			help(stdout);
			return -1;
		} else {
			const cli_opt *o = NULL;
			const char *v = NULL;
			rc = match_option(ctx, tables, &i, &o, &v);
			if (rc == 0)
				rc = on(ctx, o->id, v, payload);
		}
		if (rc != 0)
			return rc;
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

/* Text from the input (names, messages quoting it) on the terminal: control
 * bytes other than newline and tab, DEL and UTF-8 C1 controls are shown as
 * \xNN / \uNNNN, as the library's text writers show them. */
static void put_text(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fprintf(f, "\\u%04x", *++p);
		else
			fputc(*p, f);
	}
}

/* put_text, showing ctx->read_as as the input's name (cli_ctx). */
static void put_input_text(FILE *f, const cli_ctx *ctx, const char *s)
{
	const char *as = ctx ? ctx->read_as : NULL;
	const char *hit = as && s ? strstr(s, as) : NULL;
	if (!hit) {
		put_text(f, s);
		return;
	}
	char *head = strndup(s, (size_t)(hit - s));
	put_text(f, head ? head : "");
	free(head);
	put_text(f, ctx->read_name);
	put_input_text(f, ctx, hit + strlen(as));
}

static const char *who(const cli_ctx *ctx, char *buf, size_t cap)
{
	const char *prog = ctx && ctx->prog ? ctx->prog : "tlcost";
	if (ctx && ctx->command)
		snprintf(buf, cap, "%s %s", prog, ctx->command);
	else
		snprintf(buf, cap, "%s", prog);
	return buf;
}

int cli_error(const cli_ctx *ctx, int status, const char *code, const char *remedy,
              const char *fmt, ...)
{
	char w[128], msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: error: %s: ", who(ctx, w, sizeof w), code);
	put_text(stderr, msg);
	fputs("\n  remedy: ", stderr);
	put_text(stderr, remedy);
	fputc('\n', stderr);
	return status;
}

static void print_last(const cli_ctx *ctx)
{
	const tlc_error *e = tlc_error_last();
	fprintf(stderr, "%s: error: %s: ", ctx && ctx->prog ? ctx->prog : "tlcost", e->code);
	put_input_text(stderr, ctx, e->message);
	fputc('\n', stderr);
	if (e->file) {
		fputs(e->line ? "  at " : "  in ", stderr);
		put_input_text(stderr, ctx, e->file);
		if (e->line && e->column)
			fprintf(stderr, ":%llu:%llu", (unsigned long long)e->line,
			        (unsigned long long)e->column);
		else if (e->line)
			fprintf(stderr, ":%llu", (unsigned long long)e->line);
		fputc('\n', stderr);
	}
	fputs("  remedy: ", stderr);
	put_text(stderr, e->remedy);
	fputc('\n', stderr);
}

int cli_fail(const cli_ctx *ctx)
{
	print_last(ctx);
	const char *code = tlc_error_last()->code;
	return code && strncmp(code, "output_", 7) == 0 ? CLI_EXIT_OUTPUT : CLI_EXIT_INPUT;
}

int cli_fail_usage(const cli_ctx *ctx)
{
	print_last(ctx);
	return CLI_EXIT_USAGE;
}

int cli_usage_error(const cli_ctx *ctx, const char *fmt, ...)
{
	char w[128], msg[1024], remedy[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(remedy, sizeof remedy, "run `%s --help`", who(ctx, w, sizeof w));
	return cli_error(ctx, CLI_EXIT_USAGE, "usage_error", remedy, "%s", msg);
}

int cli_finish(const cli_ctx *ctx, int status)
{
	errno = 0;
	int bad = fflush(stdout) != 0 || ferror(stdout);
	int e = errno;
	if (fclose(stdout) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad || status != 0)
		return status;
	return cli_error(ctx, CLI_EXIT_OUTPUT, "output_write_failed",
	                 "check that the output has free space and is still open (a pipe whose "
	                 "reader exited, a full disk or quota)",
	                 "writing standard output failed (%s): what was written is incomplete",
	                 strerror(e ? e : EIO));
}

/* --packs LIST: each comma-separated name, in order; an unknown one is a
 * usage error (pack_unknown lists the packs). */
static int load_packs(cli_ctx *ctx)
{
	for (const char *p = ctx->packs; p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
		if (tlc_engine_load_pack(ctx->eng, name) < 0)
			return cli_fail_usage(ctx);
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

int cli_engine(cli_ctx *ctx)
{
	if (ctx->eng)
		return 0;
	if (ctx->no_packs && ctx->packs)
		return cli_usage_error(ctx, "--no-packs and --packs exclude each other: give "
		                       "--packs LIST for some packs, --no-packs for none");
	tlc_engine_options opts = { sizeof opts, 0, NULL };
	if (ctx->no_packs || ctx->packs)
		opts.flags |= TLC_ENGINE_NO_PACKS;
	if (tlc_engine_new(&ctx->eng, &opts) < 0)
		return cli_fail(ctx);
	int prc = load_packs(ctx);
	if (prc != 0)
		return prc;
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
		fprintf(stderr, "%s: notice: %s: ", ctx->prog, n->code);
		put_text(stderr, n->message);
		fputc('\n', stderr);
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

int cli_capture_pair(cli_ctx *ctx, tlc_eval *ev)
{
	return ctx->ncaptures ? tlc_capture_pair(ev, ctx->captures, ctx->ncaptures, &ctx->limits) : 0;
}

int cli_add_capture(cli_ctx *ctx, const char *path)
{
	if (!*path)
		return cli_usage_error(ctx, "--capture needs a capture trace or a directory");
	if (ctx->ncaptures >= sizeof ctx->captures / sizeof *ctx->captures)
		return cli_usage_error(ctx, "at most 64 --capture paths");
	ctx->captures[ctx->ncaptures++] = path;
	return 0;
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
	if (tlc_input_read_limited(ev, path, &ctx->limits) < 0 || cli_capture_pair(ctx, ev) < 0 ||
	    tlc_eval_finish(ev) < 0 || (keep_ops && auto_join(ctx, ev) < 0)) {
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
