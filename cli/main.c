/* tlcost: entry point and subcommand dispatch. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

typedef struct command {
	const char *name;
	int (*run)(cli_ctx *ctx);
	const char *summary;
} command;

static const command commands[] = {
	{ "report", tool_report, "one-screen overview: headline, coverage, ledger, tree, roofline" },
	{ "flops", tool_flops, "exact per-phase FLOP and byte totals with coverage" },
	{ "ledger", tool_ledger, "the unknown-cost ledger with remedies" },
	{ "tree", tool_tree, "module cost tree (self and subtree FLOPs)" },
	{ "profile", tool_profile, "per op, op type or module tables" },
	{ "roofline", tool_roofline, "roofline hypotheses against a device preset" },
	{ "devices", tool_devices, "list device presets" },
	{ "mfu", tool_mfu, "model FLOP utilization against the step wall time" },
	{ "join", tool_join, "attribute device time to ops (Kineto traces, kernel records)" },
	{ "rules", tool_rules, "list every registered rule with its evidence and provider" },
	{ "plugin", tool_plugin, "inspect a rule plugin (plugin check SO)" },
	{ "merge", tool_merge, "merge flops partials (files, ranks) exactly" },
	{ "annotate", tool_annotate, "the trace with each op's cost in its args, for Perfetto" },
	{ "ranks", tool_ranks, "one report over many ranks' traces: per rank, totals, stragglers" },
	{ "diff", tool_diff, "what changed between two runs: work and speed, exact, with CI conditions" },
	{ "html", tool_html, "one self-contained HTML page of every report (docs/html.md)" },
	{ "steps", tool_steps, "where each profiler step went: time buckets per device, exact" },
};

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: tlcost [--plugin SO]... [--rules FILE]... [--no-packs | --packs LIST] "
	        "[--format text|json|csv] "
	        "COMMAND [ARGS]\n\n"
	        "Exact analytic FLOP and byte costs of ML operators from op logs and PyTorch\n"
	        "profiler traces. Counts are actual-path analytic, never measured.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
	        "\ncommon options (before or after COMMAND):\n"
	        "  --plugin SO     load a rule plugin (repeatable; also TLCOST_PLUGIN_PATH)\n"
	        "  --rules FILE    load a declarative rule file (repeatable)\n"
	        "  --no-packs      without the rule packs for vendor kernels (docs/packs.md)\n"
	        "  --packs LIST    only these packs, comma-separated (e.g. aiter,sglang)\n"
	        "  --format F      text (default), json or csv where the command supports it\n"
	        "  --max-input-bytes N   decompressed bytes of one input (default 64G)\n"
	        "  --max-token-bytes N   one JSON string or number (default 8M)\n"
	        "  --max-held-records N  records held before they can be evaluated: a trace's\n"
	        "                        cpu_ops, op log records before their parent (4000000)\n"
	        "  --max-held-bytes N    bytes those held records take (default 1G)\n"
	        "                  (N: a count, suffix k M G T = powers of 1024, or none)\n"
	        "  --              end of options: what follows is a file name\n"
	        "  --help          help for tlcost or for COMMAND\n"
	        "  --version       print the version\n\n"
	        "Run `tlcost COMMAND --help` for a command's options; `man tlcost` for more.\n");
}

static const command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	cli_ctx ctx;
	int rc = cli_parse_common(&ctx, argc, argv);
	if (rc != 0)
		return rc;
	if (!ctx.command) {
		if (ctx.argc > 0 && strcmp(ctx.argv[0], "--version") == 0) {
			printf("tlcost %s (plugin ABI %d, age %d)\n", tlc_version(NULL, NULL, NULL),
			       TLC_PLUGIN_ABI_VERSION, TLC_PLUGIN_ABI_AGE);
			rc = CLI_EXIT_OK;
		} else if (ctx.argc > 0 && cli_is_help(ctx.argv[0])) {
			usage(stdout);
			rc = CLI_EXIT_OK;
		} else {
			usage(stderr);
			rc = CLI_EXIT_USAGE;
		}
	} else {
		const command *cmd = find_command(ctx.command);
		if (cmd) {
			rc = cmd->run(&ctx);
		} else {
			const char *name = ctx.command;
			ctx.command = NULL;
			rc = cli_error(&ctx, CLI_EXIT_USAGE, "unknown_command",
			               "run `tlcost --help` for the list of commands",
			               "'%s' is not a tlcost command", name);
		}
	}
	rc = cli_finish(&ctx, rc);
	cli_ctx_dispose(&ctx);
	return rc;
}
