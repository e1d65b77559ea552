/* tlcost plugin check SO: what a rule plugin declares and whether this host
 * accepts it, read without registering anything (tlc_plugin_inspect). The
 * plugin's code (its describe and init) runs in a child process, so a
 * plugin that crashes is reported (plugin_crashed), not fatal to the check
 * a user runs to vet it. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
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
	       "The plugin runs in a child process: one that crashes (a signal in its\n"
	       "describe or init) is refused with plugin_crashed, exit status 1.\n"
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

/* The check itself: opens the plugin and runs its init (in the child). */
static int check(const cli_ctx *ctx, const char *path)
{
	tlc_plugin_info *info = NULL;
	if (tlc_plugin_inspect(&info, path) < 0)
		return print_refusal(ctx, path);
	int rc = tlc_write_plugin_check(stdout, info, path, NULL, ctx->format) < 0 ? cli_fail(ctx) : 0;
	tlc_plugin_info_free(info);
	return rc;
}

static const char *signal_name(int sig)
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" }, { SIGABRT, "SIGABRT" },
		{ SIGFPE, "SIGFPE" }, { SIGILL, "SIGILL" }, { SIGKILL, "SIGKILL" },
		{ SIGTERM, "SIGTERM" }, { SIGTRAP, "SIGTRAP" }, { SIGSYS, "SIGSYS" },
		{ SIGPIPE, "SIGPIPE" }, { SIGINT, "SIGINT" }, { SIGALRM, "SIGALRM" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].sig == sig)
			return names[i].name;
	return "signal";
}

#define CRASH_REMEDY "the plugin's describe or init crashed: run it under a debugger or valgrind (`valgrind tlcost plugin check SO`), fix it and rebuild; do not load it with --plugin or TLCOST_PLUGIN_PATH until then (docs/plugin-guide.md)"

/* The child died of sig: the verdict on stdout, plugin_crashed on stderr. */
static int report_crash(const cli_ctx *ctx, const char *path, int sig)
{
	const char *remedy = CRASH_REMEDY;
	char msg[512];
	snprintf(msg, sizeof msg, "plugin %s crashed while it was checked: %s (%d, %s)", path,
	         signal_name(sig), sig, strsignal(sig));
	tlc_error e = { TLC_ERROR, "plugin_crashed", msg, remedy, NULL, 0, 0 };
	if (tlc_write_plugin_check(stdout, NULL, path, &e, ctx->format) < 0)
		return cli_fail(ctx);
	fflush(stdout);
	return cli_error(ctx, CLI_EXIT_INPUT, "plugin_crashed", CRASH_REMEDY "", "%s", msg);
}

/* Runs check() in a child: its exit status is the check's; a signal that
 * ends it is the plugin's crash. */
static int check_isolated(const cli_ctx *ctx, const char *path)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return cli_error(ctx, CLI_EXIT_INPUT, "plugin_check_failed",
		                 "free processes or memory and retry",
		                 "cannot start the process that checks %s: %s", path, strerror(errno));
	if (pid == 0) {
		int rc = check(ctx, path);
		fflush(stdout);
		fflush(stderr);
		_exit(ferror(stdout) && rc == 0 ? CLI_EXIT_OUTPUT : rc);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return cli_error(ctx, CLI_EXIT_INPUT, "plugin_check_failed",
			                 "retry the check", "lost the process that checks %s: %s", path,
			                 strerror(errno));
	if (WIFSIGNALED(st))
		return report_crash(ctx, path, WTERMSIG(st));
	return WEXITSTATUS(st);
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
	return check_isolated(ctx, p.v[1]);
}
