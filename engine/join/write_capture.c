/* The join's capture-pairing lines: text and JSON (write_capture.h). */
#include <inttypes.h>
#include "eval.h"
#include "join.h"
#include "jsonw.h"
#include "write_capture.h"

void tlc_join__text_capture(FILE *out, const tlc_join *j, const tlc_eval *ev)
{
	const tlc_capture_pair_summary *s = tlc_eval__pairing_summary(ev);
	if (!s)
		return;
	int64_t ns = 0;
	uint64_t k = tlc_join_capture_paired(j, &ns);
	int64_t us = ns / 1000, tot = j->sum.kernel_ns;
	__extension__ typedef unsigned __int128 u128;
	uint32_t pm = tot > 0 ? (uint32_t)((u128)(uint64_t)ns * 1000u / (uint64_t)tot) : 0;
	fprintf(out, "capture pairing: %" PRIu64 " graph launches of the replay against %" PRIu64
	        " captured graphs in %" PRIu64 " capture traces: %" PRIu64 " matched exactly one "
	        "(%s and count), %" PRIu64 " ambiguous, %" PRIu64 " matched none; %" PRIu64
	        " captured ops added\n", s->graph_launches, s->graphs, s->captures, s->matched,
	        s->by_graph_node ? "graph node ids" : "kernel names",
	        s->ambiguous, s->unmatched, s->ops_added);
	fprintf(out, "  attributed by capture pairing (a verified sequence match, not a correlation): "
	        "%" PRIu64 " kernels, %" PRId64 ".%03" PRId64 " ms = %u.%u%% of kernel time\n", k,
	        us / 1000, us % 1000, pm / 10, pm % 10);
}

void tlc_join__json_capture(yajl_gen g, const tlc_join *j, const tlc_eval *ev)
{
	const tlc_capture_pair_summary *s = tlc_eval__pairing_summary(ev);
	if (!s)
		return;
	int64_t ns = 0;
	uint64_t k = tlc_join_capture_paired(j, &ns);
	tlc_jsonw__key(g, "capture_pairing");
	yajl_gen_map_open(g);
	tlc_jsonw__kuint(g, "captures", s->captures);
	tlc_jsonw__kuint(g, "graphs", s->graphs);
	tlc_jsonw__kuint(g, "graph_launches", s->graph_launches);
	tlc_jsonw__kuint(g, "matched", s->matched);
	tlc_jsonw__kuint(g, "ambiguous", s->ambiguous);
	tlc_jsonw__kuint(g, "unmatched", s->unmatched);
	tlc_jsonw__kuint(g, "ops_added", s->ops_added);
	tlc_jsonw__kuint(g, "kernels", k);
	tlc_jsonw__kint(g, "kernel_ns", ns);
	tlc_jsonw__kstr(g, "matched_by", s->by_graph_node ? "graph_node_ids" : "kernel_names");
	yajl_gen_map_close(g);
}
