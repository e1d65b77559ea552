/* tlcost join FILE: the device-time join of a trace or op log (contract
 * section 8): path used and why, per-device and per-phase shares, the
 * named remainder and the 95% gate; per-launch rows in JSON and CSV. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

static void help(FILE *out)
{
	fprintf(out,
	        "usage: tlcost join [--format text|json|csv] [--force-correlation|--force-containment]\n"
	        "                   [--save OUT] FILE\n\n"
	        "Attributes device activity (kernels, memcpy, memset) of a PyTorch profiler\n"
	        "trace or an op log with kernel/runtime records to the ops that launched them:\n"
	        "by correlation id (launch -> runtime call -> op by external id), or, when the\n"
	        "external ids are unusable, by containment (the innermost op on the runtime\n"
	        "call's host thread). Never by name. Prints the path used and why, per-device\n"
	        "busy time (union of intervals), attributed/ambiguous/unattributed time, the\n"
	        "unattributed remainder by name, and the gate: at least 95%% of kernel time\n"
	        "attributed, forward and backward separately. --format csv writes one row per\n"
	        "launch (name, device, stream, duration, correlation, status, owning op or\n"
	        "ambiguous group). Exit status 0 whether or not the gate passes.\n\n"
	        "--save OUT writes the joined result (op records, device and runtime records,\n"
	        "attribution and gate verdict) as an op log. Joining a saved file re-derives\n"
	        "everything from its records and refuses it (saved_join_mismatch) when the\n"
	        "stored attribution or verdict disagrees.\n");
}

typedef struct join_args {
	const char *file;
	const char *save;
	unsigned flags;
} join_args;

static int parse(cli_ctx *ctx, join_args *ja)
{
	const char **file = &ja->file;
	unsigned *flags = &ja->flags;
	for (int i = 0; i < ctx->argc; i++) {
		const char *a = ctx->argv[i];
		if (cli_is_help(a)) {
			help(stdout);
			return -1;
		}
		if (strcmp(a, "--save") == 0) {
			if (i + 1 >= ctx->argc)
				return cli_usage_error(ctx, "--save needs an output path");
			ja->save = ctx->argv[++i];
		} else if (strcmp(a, "--force-correlation") == 0)
			*flags |= TLC_JOIN_FORCE_CORRELATION;
		else if (strcmp(a, "--force-containment") == 0)
			*flags |= TLC_JOIN_FORCE_CONTAINMENT;
		else if (a[0] == '-' && a[1])
			return cli_usage_error(ctx, "unknown option %s", a);
		else if (*file)
			return cli_usage_error(ctx, "give exactly one FILE");
		else
			*file = a;
	}
	if (!*file)
		return cli_usage_error(ctx, "give a FILE (trace or op log)");
	(void)file;
	if (*flags == (TLC_JOIN_FORCE_CORRELATION | TLC_JOIN_FORCE_CONTAINMENT))
		return cli_usage_error(ctx, "--force-correlation and --force-containment exclude each other");
	return 0;
}

/* Like cli_load, with an op recorder attached when the result is saved. */
static int load(cli_ctx *ctx, const char *path, tlc_op_recorder *rec, tlc_eval **out)
{
	if (!rec)
		return cli_load(ctx, path, 1, out);
	*out = NULL;
	int rc = cli_engine(ctx);
	if (rc != 0)
		return rc;
	tlc_eval_options opts = { sizeof opts, 1, tlc_op_recorder_on_op, rec };
	tlc_eval *ev;
	if (tlc_eval_new(&ev, ctx->eng, &opts) < 0)
		return cli_fail(ctx);
	if (tlc_input_read(ev, path) < 0 || tlc_eval_finish(ev) < 0) {
		rc = cli_fail(ctx);
		tlc_eval_free(ev);
		return rc;
	}
	*out = ev;
	return 0;
}

static int save(cli_ctx *ctx, const char *path, const tlc_join *j, const tlc_eval *ev,
                const tlc_op_recorder *rec)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "tlcost: error: io_error: cannot write '%s'\n  remedy: check the path "
		        "and its permissions\n", path);
		return 1;
	}
	int rc = tlc_join_save(f, j, ev, rec);
	if (fclose(f) != 0 && rc == 0) {
		fprintf(stderr, "tlcost: error: io_error: writing '%s' failed\n  remedy: check free "
		        "space\n", path);
		return 1;
	}
	return rc < 0 ? cli_fail(ctx) : 0;
}

/* Loads, joins, verifies a saved join, prints, saves. */
static int run(cli_ctx *ctx, const join_args *ja, tlc_op_recorder *rec)
{
	tlc_eval *ev;
	ctx->no_auto_join = 1; /* this command runs the join with its own options */
	int rc = load(ctx, ja->file, rec, &ev);
	if (rc != 0)
		return rc;
	tlc_join_options opts = { sizeof opts, ja->flags, 0 };
	tlc_join *j = NULL;
	int saved = 0;
	if (tlc_join_run(&j, ev, &opts) < 0 || tlc_join_verify_saved(&saved, j, ev) < 0)
		rc = cli_fail(ctx);
	if (rc == 0 && saved && ctx->format == TLC_FORMAT_TEXT)
		printf("saved join verified: the stored attribution and gate verdict are what the "
		       "file's own records give\n");
	if (rc == 0 && tlc_write_join(stdout, j, ev, ctx->format) < 0)
		rc = cli_fail(ctx);
	if (rc == 0 && ja->save)
		rc = save(ctx, ja->save, j, ev, rec);
	tlc_join_free(j);
	tlc_eval_free(ev);
	return rc;
}

int tool_join(cli_ctx *ctx)
{
	join_args ja = { NULL, NULL, 0 };
	int rc = parse(ctx, &ja);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	tlc_op_recorder *rec = NULL;
	if (ja.save && tlc_op_recorder_new(&rec) < 0)
		return cli_fail(ctx);
	rc = run(ctx, &ja, rec);
	tlc_op_recorder_free(rec);
	return rc;
}
