/* Shared pieces of the tlcost command (one file per subcommand: tool_*.c). */
#ifndef TLC_CLI_H
#define TLC_CLI_H

#include <stdio.h>
#include "tlcost/tlcost.h"

/* Options common to every subcommand, parsed before and after the
 * subcommand name: --plugin PATH (repeatable), --rules FILE (repeatable),
 * --format text|json|csv. */
typedef struct cli_ctx {
	const char *prog;          /* "tlcost" */
	const char *command;       /* subcommand name */
	tlc_format format;
	const char **plugins;
	size_t nplugins;
	const char **rules;
	size_t nrules;
	tlc_engine *eng;           /* created by cli_engine() */
	int argc;                  /* remaining (non-common) arguments */
	char **argv;
	tlc_join *join;            /* device-time join of the last cli_load, or NULL */
	int no_auto_join;          /* set by `join`, which runs its own */
} cli_ctx;

/** Splits argv into common options and the rest (ctx->argc/argv hold the
 *  arguments after the command, with common options removed). Returns 0, or
 *  an exit status (>0) after printing a usage error. */
int cli_parse_common(cli_ctx *ctx, int argc, char **argv);

/** Frees what cli_parse_common and cli_engine allocated. */
void cli_ctx_dispose(cli_ctx *ctx);

/** Parses --format's value; 0 or -1. */
int cli_parse_format(tlc_format *out, const char *s);

/** Prints the last library error as "tlcost: error: CODE: message\n  at
 *  file:line:col\n  remedy: ..." on stderr and returns the exit status to use
 *  (2 for usage/input errors, 1 otherwise). */
int cli_fail(const cli_ctx *ctx);

/** Prints a usage error for this subcommand and returns 2. */
int cli_usage_error(const cli_ctx *ctx, const char *fmt, ...);

/** Creates ctx->eng with built-ins, TLCOST_PLUGIN_PATH, --plugin and --rules
 *  loaded, and prints engine notices (overrides) on stderr. 0 or exit code. */
int cli_engine(cli_ctx *ctx);

/** Reads one input (op log or trace, detected from content) into a new,
 *  finished evaluation. keep_ops keeps per-op rows; then, when the input
 *  carries device records (or a profiler statement), the device-time join
 *  runs and fills each row's device time (ctx->join). Free with
 *  cli_unload. 0 or exit code (error already printed). */
int cli_load(cli_ctx *ctx, const char *path, int keep_ops, tlc_eval **out);

/** Frees ev and the join cli_load made for it. */
void cli_unload(cli_ctx *ctx, tlc_eval *ev);

/** --opt VALUE or --opt=VALUE at argv[*i] (advancing *i past a separate
 *  value): the value, "" when it is missing, NULL when argv[*i] is not opt. */
const char *cli_opt_value(int argc, char **argv, int *i, const char *opt);

/** Nonzero when argv[i] is -h or --help. */
int cli_is_help(const char *arg);

/* Subcommands: int tool_NAME(cli_ctx *ctx); each prints its own --help. */
int tool_flops(cli_ctx *ctx);
int tool_ledger(cli_ctx *ctx);
int tool_rules(cli_ctx *ctx);
int tool_plugin(cli_ctx *ctx);
int tool_tree(cli_ctx *ctx);
int tool_profile(cli_ctx *ctx);
int tool_roofline(cli_ctx *ctx);
int tool_devices(cli_ctx *ctx);
int tool_mfu(cli_ctx *ctx);
int tool_report(cli_ctx *ctx);
int tool_join(cli_ctx *ctx);
int tool_merge(cli_ctx *ctx);
int tool_ranks(cli_ctx *ctx);

#endif
