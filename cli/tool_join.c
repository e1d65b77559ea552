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
	        "                   [--save OUT] [--link ID] [--capture CAPTURE]... FILE\n\n"
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
	        "stored attribution or verdict disagrees.\n\n"
	        "With collectives and a passed gate it also prints, per collective kind, the\n"
	        "device time and the achieved algorithm and bus bandwidth (nccl-tests'\n"
	        "definitions) against a link ceiling: --link ID (nvlink2..5,\n"
	        "infinity-fabric-mi300x, pcie4-x16, pcie5-x16, ib-hdr, ib-ndr, roce-400g), else\n"
	        "the link of the input's device preset; and per phase the share of NCCL/RCCL\n"
	        "kernel time overlapping compute kernels. Without a passed gate they are refused.\n\n"
	        "--capture CAPTURE (repeatable) pairs a graph replay with the trace of its\n"
	        "graphs' capture (a trace, or a directory with execution_details.json as\n"
	        "TraceLens lays it out, or holding capture_traces/ with it): each graph\n"
	        "launch's kernel sequence (names and count) must equal exactly one captured\n"
	        "graph's; then its kernels go to the ops that launched them during capture,\n"
	        "whose costs join the replay's (capture pairing, docs/join.md). CUDA captures\n"
	        "record no kernel names and are refused (capture_pairing_needs_graph_ids).\n");
}

typedef struct join_args {
	const char *file;
	const char *save;
	unsigned flags;
	const tlc_link_preset *link; /* --link, or NULL: the device preset's */
} join_args;

enum { O_SAVE = 1, O_FORCE_CORRELATION, O_FORCE_CONTAINMENT, O_LINK, O_CAPTURE };
static const cli_opt join_opts[] = {
	{ "--save", 1, O_SAVE }, { "--force-correlation", 0, O_FORCE_CORRELATION },
	{ "--force-containment", 0, O_FORCE_CONTAINMENT }, { "--link", 1, O_LINK },
	{ "--capture", 1, O_CAPTURE }, { NULL, 0, 0 }
};

static int on_arg(cli_ctx *ctx, int id, const char *v, void *payload)
{
	join_args *ja = payload;
	switch (id) {
	case CLI_POS:
		if (ja->file)
			return cli_usage_error(ctx, "give exactly one FILE");
		ja->file = v;
		return 0;
	case O_SAVE:
		if (!*v)
			return cli_usage_error(ctx, "--save needs an output path");
		ja->save = v;
		return 0;
	case O_FORCE_CORRELATION:
		ja->flags |= TLC_JOIN_FORCE_CORRELATION;
		return 0;
	case O_LINK:
		return tlc_link_find(&ja->link, v) < 0 ? cli_fail(ctx) : 0;
	case O_CAPTURE:
		return cli_add_capture(ctx, v);
	default:
		ja->flags |= TLC_JOIN_FORCE_CONTAINMENT;
		return 0;
	}
}

static int parse(cli_ctx *ctx, join_args *ja)
{
	const cli_opt *tables[] = { join_opts, NULL };
	int rc = cli_parse(ctx, tables, on_arg, ja, help);
	if (rc != 0)
		return rc;
	if (!ja->file)
		return cli_usage_error(ctx, "give a FILE (trace or op log)");
	if (ja->save && ctx->ncaptures)
		return cli_usage_error(ctx, "--save and --capture exclude each other: a saved join "
		                       "re-derives its attribution from its own records, which do not "
		                       "hold the capture pairing");
	if (ja->flags == (TLC_JOIN_FORCE_CORRELATION | TLC_JOIN_FORCE_CONTAINMENT))
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
	if (tlc_input_read_limited(ev, path, &ctx->limits) < 0 || cli_capture_pair(ctx, ev) < 0 ||
	    tlc_eval_finish(ev) < 0) {
		rc = cli_fail(ctx);
		tlc_eval_free(ev);
		return rc;
	}
	*out = ev;
	return 0;
}

/* Whole or not at all (tlc_join_save_file): a failed or killed save keeps
 * the file that was there. */
static int save(cli_ctx *ctx, const char *path, const tlc_join *j, const tlc_eval *ev,
                const tlc_op_recorder *rec)
{
	return tlc_join_save_file(path, j, ev, rec) < 0 ? cli_fail(ctx) : 0;
}

/* The link ceiling of the input's device preset, or NULL. */
static const tlc_link_preset *device_link(const tlc_eval *ev)
{
	const tlc_input_info *in = tlc_eval_info(ev);
	const tlc_device_preset *d = NULL;
	const tlc_link_preset *link = NULL;
	tlc_devices *devs = NULL;
	if (in && in->device && tlc_devices_new(&devs) == 0 &&
	    tlc_devices_find(&d, devs, in->device) == 0)
		link = tlc_link_for_device(d->id);
	tlc_devices_free(devs);
	return link;
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
	if (rc == 0 && tlc_write_join_with_link(stdout, j, ev, ctx->format,
	                                        ja->link ? ja->link : device_link(ev)) < 0)
		rc = cli_fail(ctx);
	if (rc == 0 && ja->save)
		rc = save(ctx, ja->save, j, ev, rec);
	tlc_join_free(j);
	tlc_eval_free(ev);
	return rc;
}

int tool_join(cli_ctx *ctx)
{
	join_args ja = { NULL, NULL, 0, NULL };
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
