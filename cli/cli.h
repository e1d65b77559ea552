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
	int optend;                /* argv[optend..] came after "--": never options */
	tlc_input_limits limits;   /* --max-input-bytes, --max-token-bytes, ... (0: default) */
	tlc_join *join;            /* device-time join of the last cli_load, or NULL */
	int no_auto_join;          /* set by `join`, which runs its own */
	const char *captures[64];  /* --capture: traces of the replayed graphs' capture */
	size_t ncaptures;
	const char *read_as;       /* an input read through another path (/proc/self/fd/N)... */
	const char *read_name;     /* ...and its name, which errors show instead */
	int no_packs;              /* --no-packs */
	const char *packs;         /* --packs LIST (comma-separated pack names), or NULL */
} cli_ctx;

/* Exit status policy (docs/errors.md "Exit status", tlcost(1) EXIT
 * STATUS): one meaning per number, for every subcommand. */
enum {
	CLI_EXIT_OK = 0,     /* success (also --help; `join` whether or not its gate passes) */
	CLI_EXIT_INPUT = 1,  /* an input, rule file, plugin, device file or the evaluation was
	                        refused: a typed error from the library */
	CLI_EXIT_USAGE = 2,  /* the command line is wrong (usage_error, unknown_command, or an
	                        option value the library refused) */
	CLI_EXIT_OUTPUT = 3  /* the output could not be written whole (output_write_failed,
	                        output_open_failed): stdout, --save or --svg */
};

/** Splits argv into common options and the rest (ctx->argc/argv hold the
 *  arguments after the command, with common options removed; "--" ends
 *  options everywhere and is dropped, ctx->optend marking where it was).
 *  Returns 0, or an exit status (>0) after printing a usage error. */
int cli_parse_common(cli_ctx *ctx, int argc, char **argv);

/** Frees what cli_parse_common and cli_engine allocated. */
void cli_ctx_dispose(cli_ctx *ctx);

/** Parses --format's value; 0 or -1. */
int cli_parse_format(tlc_format *out, const char *s);

/** Prints "tlcost[ COMMAND]: error: CODE: message\n  remedy: ...\n" on
 *  stderr and returns status: every error the CLI itself raises goes
 *  through here (tools/error_catalogue.py lists its codes). */
int cli_error(const cli_ctx *ctx, int status, const char *code, const char *remedy,
              const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

/** Prints the last library error as "tlcost: error: CODE: message\n  at
 *  file:line:col\n  remedy: ..." on stderr and returns the exit status of
 *  the policy: CLI_EXIT_OUTPUT for output_* codes, else CLI_EXIT_INPUT. */
int cli_fail(const cli_ctx *ctx);

/** Same print, for a library refusal of a command-line value (--basis,
 *  --dtype): returns CLI_EXIT_USAGE. */
int cli_fail_usage(const cli_ctx *ctx);

/** Prints a usage error for this subcommand and returns CLI_EXIT_USAGE. */
int cli_usage_error(const cli_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/** Flushes and closes stdout: a write that failed (a full disk, a pipe
 *  whose reader exited with SIGPIPE ignored) is output_write_failed and
 *  CLI_EXIT_OUTPUT, unless status already reports a failure. */
int cli_finish(const cli_ctx *ctx, int status);

/** Creates ctx->eng with built-ins, TLCOST_PLUGIN_PATH, --plugin and --rules
 *  loaded, and prints engine notices (overrides) on stderr. 0 or exit code. */
int cli_engine(cli_ctx *ctx);

/** Reads one input (op log or trace, detected from content) into a new,
 *  finished evaluation. keep_ops keeps per-op rows; then, when the input
 *  carries device records (or a profiler statement), the device-time join
 *  runs and fills each row's device time (ctx->join). Free with
 *  cli_unload. 0 or exit code (error already printed). */
/** --capture (docs/join.md, "Capture pairing"): records a path; the usage
 *  error's return value otherwise. */
int cli_add_capture(cli_ctx *ctx, const char *path);
/** Pairs ev (read, not finished) with ctx's --capture paths, if any. */
int cli_capture_pair(cli_ctx *ctx, tlc_eval *ev);
int cli_load(cli_ctx *ctx, const char *path, int keep_ops, tlc_eval **out);

/** Frees ev and the join cli_load made for it. */
void cli_unload(cli_ctx *ctx, tlc_eval *ev);

/* ---- the one option parser of every subcommand ---- */

/** One option of a subcommand: its name ("--top"), whether it takes a
 *  value (--top K or --top=K) and the id handed to the callback. A table
 *  ends with a NULL name. */
typedef struct cli_opt {
	const char *name;
	int takes_value;
	int id;
} cli_opt;

#define CLI_POS 0 /* id of a positional argument (FILE, SO, ...) */

/** Called for each option (value NULL for a flag) and each positional
 *  argument (id CLI_POS, value the argument). 0 or an exit status. */
typedef int (*cli_on_arg)(cli_ctx *ctx, int id, const char *value, void *payload);

/** Walks ctx->argv once: -h/--help prints help on stdout and returns -1;
 *  an option of one of the tables (a NULL-terminated list) calls on; "-"
 *  and anything not starting with '-', and everything after "--", is
 *  positional. An unknown option, a missing value, or a value given to a
 *  flag is a usage error. Returns 0, -1 or an exit status. */
int cli_parse(cli_ctx *ctx, const cli_opt *const *tables, cli_on_arg on, void *payload,
              void (*help)(FILE *));

/** Nonzero when arg is -h or --help. */
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
int tool_diff(cli_ctx *ctx);
int tool_html(cli_ctx *ctx);
int tool_annotate(cli_ctx *ctx);
int tool_steps(cli_ctx *ctx);

#endif
