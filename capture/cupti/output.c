/* Hand-off: pushing records into an evaluation, or writing them as op log
 * v1 lines for `tlcost join`. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

int tlc_cupti_push_eval(tlc_eval *ev, tlc_cupti_session *s)
{
	if (s->status == TLC_CUPTI_UNAVAILABLE)
		return tlc_cupti__fail(s, TLC_EUNAVAILABLE, "cupti_unavailable",
		                       "report device time as unavailable; run on a GPU machine to "
		                       "measure it",
		                       "no device records: CUPTI was unavailable (%s: %s)",
		                       s->failed_call, s->message);
	if (s->status == TLC_CUPTI_IDLE || s->status == TLC_CUPTI_RUNNING)
		return tlc_cupti__fail(s, TLC_ESTATE, "cupti_session_state",
		                       "call tlc_cupti_stop before handing records on",
		                       "session is %s", tlc_cupti_status_name(s->status));
	for (size_t i = 0; i < s->nout; i++) {
		int rc = tlc_eval_push_device(ev, &s->out[i]);

		if (rc != 0)
			return tlc_cupti__fail(s, rc, "cupti_push_failed",
			                       "see tlc_error_last() for the evaluation's detail",
			                       "tlc_eval_push_device refused record %zu", i);
	}
	for (size_t i = 0; i < s->ngnodes; i++) {
		int rc = tlc_eval_push_graph_node(ev, &s->gnodes[i]);

		if (rc != 0)
			return tlc_cupti__fail(s, rc, "cupti_push_failed",
			                       "see tlc_error_last() for the evaluation's detail",
			                       "tlc_eval_push_graph_node refused graph node record %zu", i);
	}
	return 0;
}

unsigned tlc_cupti_join_flags(const tlc_cupti_session *s)
{
	return s->status == TLC_CUPTI_PARTIAL ? TLC_JOIN_INPUT_PARTIAL : 0u;
}

/* JSON string body: escapes quote, backslash and control characters. */
static void put_json_string(FILE *out, const char *str)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)str; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void put_u64(FILE *out, const char *key, uint64_t v)
{
	fprintf(out, ",\"%s\":%" PRIu64, key, v);
}

/* Unavailable is fact-free: no counts, only the failing call and its text. */
static void write_disclosure(FILE *out, const tlc_cupti_session *s)
{
	const tlc_cupti_summary *m = &s->sum;

	fprintf(out, "{\"kind\":\"device_profiler\",\"source\":\"cupti\",\"status\":\"%s\"",
	        tlc_cupti_status_name(s->status));
	if (s->status == TLC_CUPTI_UNAVAILABLE) {
		fputs(",\"failed_call\":", out);
		put_json_string(out, s->failed_call);
		fprintf(out, ",\"cupti_result\":%d,\"message\":", m->cupti_result);
		put_json_string(out, s->message);
		fputs("}\n", out);
		return;
	}
	fprintf(out, ",\"lower_bound\":%s", m->lower_bound ? "true" : "false");
	put_u64(out, "kernels", m->kernels);
	put_u64(out, "memcpys", m->memcpys);
	put_u64(out, "memsets", m->memsets);
	put_u64(out, "runtime_calls", m->runtime_calls);
	put_u64(out, "driver_calls", m->driver_calls);
	put_u64(out, "dropped", m->dropped);
	put_u64(out, "undecodable_buffers", m->undecodable);
	put_u64(out, "untimed", m->untimed);
	put_u64(out, "skipped", m->skipped);
	put_u64(out, "paused_regions", m->paused_regions);
	if (s->graph_unavailable[0]) {
		char text[sizeof s->graph_unavailable + 16];

		fputs(",\"graph_nodes\":", out);
		snprintf(text, sizeof text, "unavailable: %s", s->graph_unavailable);
		put_json_string(out, text);
	} else {
		put_u64(out, "graph_nodes", m->graph_nodes);
		put_u64(out, "graph_nodes_lost", m->graph_nodes_lost);
	}
	fputs("}\n", out);
}

/* A node made while the session ran: by a call, or cloned from a node. */
static void write_graph_node(FILE *out, const tlc_graph_node *g)
{
	fputs("{\"kind\":\"graph_node\"", out);
	if (g->graph_id >= 0)
		fprintf(out, ",\"graph_id\":%" PRId64, g->graph_id);
	fprintf(out, ",\"node\":%" PRId64, g->node);
	if (g->correlation >= 0)
		fprintf(out, ",\"correlation\":%" PRId64 "}\n", g->correlation);
	else
		fprintf(out, ",\"original\":%" PRId64 "}\n", g->original);
}

static const char *kind_word(tlc_device_kind k)
{
	switch (k) {
	case TLC_DEVICE_KERNEL: return "kernel";
	case TLC_DEVICE_MEMCPY: return "memcpy";
	case TLC_DEVICE_MEMSET: return "memset";
	default: return "runtime"; /* op log v1 has one host-call kind */
	}
}

static void write_record(FILE *out, const tlc_device_record *d)
{
	int host = d->kind == TLC_DEVICE_RUNTIME || d->kind == TLC_DEVICE_DRIVER;

	fprintf(out, "{\"kind\":\"%s\"", kind_word(d->kind));
	if (d->name) {
		fputs(",\"name\":", out);
		put_json_string(out, d->name);
	}
	if (host)
		fprintf(out, ",\"thread\":%" PRId64, d->thread);
	else
		fprintf(out, ",\"device\":%" PRId64 ",\"stream\":%" PRId64, d->device, d->stream);
	fprintf(out, ",\"start_ns\":%" PRId64 ",\"end_ns\":%" PRId64 ",\"correlation\":%" PRId64,
	        d->start_ns, d->end_ns, d->correlation);
	if (d->flags & TLC_DEV_HAS_BYTES)
		fprintf(out, ",\"bytes\":%" PRId64, d->bytes);
	if (d->flags & TLC_DEV_HAS_EXTERNAL_ID)
		fprintf(out, ",\"external_id\":%" PRId64, d->external_id);
	if (d->flags & TLC_DEV_HAS_GRAPH_NODE)
		fprintf(out, ",\"graph_id\":%" PRId64 ",\"graph_node\":%" PRId64, d->graph_id,
		        d->graph_node);
	fputs("}\n", out);
}

int tlc_cupti_write_oplog(FILE *out, tlc_cupti_session *s)
{
	int nvtx, failed, saved_errno;

	if (s->status == TLC_CUPTI_IDLE || s->status == TLC_CUPTI_RUNNING)
		return tlc_cupti__fail(s, TLC_ESTATE, "cupti_session_state",
		                       "call tlc_cupti_stop before writing", "session is %s",
		                       tlc_cupti_status_name(s->status));
	nvtx = tlc_nvtx_internal_enter(s->opts.nvtx, "cupti_write_oplog");
	write_disclosure(out, s);
	for (size_t i = 0; s->status != TLC_CUPTI_UNAVAILABLE && i < s->ngnodes; i++)
		write_graph_node(out, &s->gnodes[i]);
	for (size_t i = 0; i < s->nout; i++)
		write_record(out, &s->out[i]);
	failed = fflush(out) != 0 || ferror(out);
	saved_errno = errno; /* the NVTX tool may change it */
	if (nvtx == 0)
		tlc_nvtx_internal_exit(s->opts.nvtx, "cupti_write_oplog");
	if (failed)
		return tlc_cupti__fail(s, TLC_EIO, "cupti_write_failed",
		                       "check free disk space and that the log is writable",
		                       "writing the op log failed: %s", strerror(saved_errno));
	return 0;
}
