/* tlcost plugin check SO: what a rule plugin declares and whether this host
 * accepts it, read without registering anything (tlc_plugin_inspect). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

#define ABI_MIN (TLC_PLUGIN_ABI_VERSION - TLC_PLUGIN_ABI_AGE)

static int usage(void)
{
	printf("usage: tlcost plugin check SO [--format text|json]\n\n"
	       "Opens the rule plugin SO, checks its descriptor and plugin ABI version\n"
	       "against this host (accepted: %d to %d), runs its init() against a\n"
	       "scratch registry and prints its name, version, ABI version, whether\n"
	       "this host accepts it, and every rule it registers with kind, evidence\n"
	       "and note. Nothing is registered and --plugin/TLCOST_PLUGIN_PATH are\n"
	       "not loaded. Exit status 0 when the plugin is accepted; otherwise the\n"
	       "typed error (plugin_open_failed, plugin_entry_missing,\n"
	       "plugin_abi_unsupported, plugin_descriptor_invalid, plugin_init_failed,\n"
	       "rule_invalid, ...) is printed with its remedy and the status is non-zero.\n"
	       "Writing a plugin: docs/plugin-guide.md.\n",
	       ABI_MIN, TLC_PLUGIN_ABI_VERSION);
	return 0;
}

/* A refused plugin: the verdict on stdout, the typed error on stderr. */
static int print_refusal(const cli_ctx *ctx, const char *path)
{
	tlc_error e = *tlc_error_last();
	if (tlc_write_plugin_check(stdout, NULL, path, &e, ctx->format) < 0)
		return cli_fail(ctx);
	fflush(stdout);
	return cli_fail(ctx);
}

typedef struct pos {
	const char *v[2];
	int n;
} pos;

static int on_arg(cli_ctx *ctx, int id, const char *v, void *payload)
{
	(void)id; /* only positionals: `plugin` has no options of its own */
	pos *p = payload;
	if (p->n == 2)
		return cli_usage_error(ctx, "plugin check takes exactly one plugin path");
	p->v[p->n++] = v;
	return 0;
}

static void help(FILE *out)
{
	(void)out;
	usage();
}

int tool_plugin(cli_ctx *ctx)
{
	static const cli_opt none[] = { { NULL, 0, 0 } };
	const cli_opt *tables[] = { none, NULL };
	pos p = { { NULL, NULL }, 0 };
	int rc = cli_parse(ctx, tables, on_arg, &p, help);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (p.n == 0)
		return cli_usage_error(ctx, "missing subcommand: tlcost plugin check SO");
	if (strcmp(p.v[0], "check") != 0)
		return cli_usage_error(ctx, "unknown plugin subcommand '%s' (known: check)", p.v[0]);
	if (p.n != 2)
		return cli_usage_error(ctx, "plugin check takes exactly one plugin path");
	if (ctx->format == TLC_FORMAT_CSV)
		return cli_usage_error(ctx, "plugin check supports --format text or json");
	const char *path = p.v[1];
	tlc_plugin_info *info = NULL;
	if (tlc_plugin_inspect(&info, path) < 0)
		return print_refusal(ctx, path);
	rc = tlc_write_plugin_check(stdout, info, path, NULL, ctx->format) < 0 ? cli_fail(ctx) : 0;
	tlc_plugin_info_free(info);
	return rc;
}
