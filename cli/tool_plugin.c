/* tlcost plugin check SO: what a rule plugin declares and whether this host
 * accepts it, read without registering anything (tlc_plugin_inspect). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

#define ABI_MIN (TLC_PLUGIN_ABI_VERSION - TLC_PLUGIN_ABI_AGE)

static const char *kind_name(tlc_rule_kind k)
{
	static const char *const names[] = { "cost", "zero", "decomposed", "structural" };
	return (unsigned)k <= TLC_RULE_STRUCTURAL ? names[k] : "?";
}

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

/* JSON string literal (control characters escaped; UTF-8 passed through). */
static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void json_key(FILE *out, const char *key, int first)
{
	fputs(first ? "\n  " : ",\n  ", out);
	json_str(out, key);
	fputs(": ", out);
}

static void print_text(const tlc_plugin_info *info, const char *path)
{
	printf("plugin: %s\nversion: %s\nfile: %s\n", info->name,
	       info->version[0] ? info->version : "(none)", path);
	printf("abi version: %u (this host accepts %d to %d)\naccepted: yes\n",
	       (unsigned)info->abi_version, ABI_MIN, TLC_PLUGIN_ABI_VERSION);
	printf("rules: %zu\n", info->nrules);
	for (size_t i = 0; i < info->nrules; i++) {
		const tlc_rule_def *r = &info->rules[i];
		printf("  %-40s %-10s %-13s %s\n", r->name, kind_name(r->kind),
		       tlc_evidence_name(r->evidence), r->note);
	}
}

static void print_json_host(void)
{
	json_key(stdout, "host_abi", 0);
	printf("{\"min\": %d, \"max\": %d}", ABI_MIN, TLC_PLUGIN_ABI_VERSION);
}

static void print_json(const tlc_plugin_info *info, const char *path)
{
	printf("{");
	json_key(stdout, "schema", 1);
	json_str(stdout, "tlcost.plugin_check/1");
	json_key(stdout, "file", 0);
	json_str(stdout, path);
	json_key(stdout, "name", 0);
	json_str(stdout, info->name);
	json_key(stdout, "version", 0);
	json_str(stdout, info->version);
	json_key(stdout, "abi_version", 0);
	printf("%u", (unsigned)info->abi_version);
	print_json_host();
	json_key(stdout, "accepted", 0);
	printf("true");
	json_key(stdout, "rules", 0);
	printf("[");
	for (size_t i = 0; i < info->nrules; i++) {
		const tlc_rule_def *r = &info->rules[i];
		printf("%s\n    {\"name\": ", i ? "," : "");
		json_str(stdout, r->name);
		printf(", \"kind\": \"%s\", \"evidence\": \"%s\", \"note\": ", kind_name(r->kind),
		       tlc_evidence_name(r->evidence));
		json_str(stdout, r->note);
		printf("}");
	}
	printf("%s]\n}\n", info->nrules ? "\n  " : "");
}

/* A refused plugin: the verdict on stdout, the typed error on stderr. */
static int print_refusal(const cli_ctx *ctx, const char *path)
{
	const tlc_error *e = tlc_error_last();
	if (ctx->format == TLC_FORMAT_JSON) {
		printf("{");
		json_key(stdout, "schema", 1);
		json_str(stdout, "tlcost.plugin_check/1");
		json_key(stdout, "file", 0);
		json_str(stdout, path);
		print_json_host();
		json_key(stdout, "accepted", 0);
		printf("false");
		json_key(stdout, "error", 0);
		printf("{\"code\": ");
		json_str(stdout, e->code);
		printf(", \"message\": ");
		json_str(stdout, e->message);
		printf(", \"remedy\": ");
		json_str(stdout, e->remedy);
		printf("}\n}\n");
	} else {
		printf("file: %s\naccepted: no (%s)\n", path, e->code);
	}
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
	if (ctx->format == TLC_FORMAT_JSON)
		print_json(info, path);
	else
		print_text(info, path);
	tlc_plugin_info_free(info);
	return 0;
}
