/* The flops summary model (flops_sum.h) and its one JSON writer: both
 * `tlcost flops` (from an evaluation) and `tlcost merge` (from parsed
 * partials) write tlcost.flops/1 through tlc_fsum__json. */
#include <stdlib.h>
#include <string.h>
#include "flops_sum.h"
#include "error.h"
#include "join_comm.h"

static const char *const tot_keys[TLC_FSUM_TOTALS] = {
	"flops", "macs", "other_flops", "flops_fma1", "bytes_read", "bytes_written",
};
static const tlc_total tot_which[TLC_FSUM_TOTALS] = {
	TLC_TOTAL_FLOPS, TLC_TOTAL_MACS, TLC_TOTAL_OTHER_FLOPS, TLC_TOTAL_FLOPS_FMA1,
	TLC_TOTAL_BYTES_READ, TLC_TOTAL_BYTES_WRITTEN,
};
static const char *const cov_keys[TLC_FSUM_COVERAGE] = {
	"rows", "known", "zero_by_rule", "not_applicable", "unknown", "skipped_records",
	"device_records",
};

/* ---- lifetime ---- */

void tlc_fsum__init(tlc_fsum *s)
{
	memset(s, 0, sizeof *s);
	s->params = -1;
	s->tokens = -1;
}

void tlc_fsum__free(tlc_fsum *s)
{
	if (!s)
		return;
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		for (int f = 0; f < TLC_FSUM_TOTALS; f++)
			free(s->ph[p].tot[f]);
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			free(s->comm[p][k].message_bytes);
			free(s->comm[p][k].bus_bytes);
		}
	}
	for (size_t i = 0; i < s->ngroups; i++) {
		if (s->groups[i].own_nested)
			free((char *)s->groups[i].e.nested_flops);
		if (s->groups[i].own_counted) {
			free((char *)s->groups[i].e.counted_flops);
			free((char *)s->groups[i].e.counted_bytes);
		}
	}
	for (size_t i = 0; i < s->ntypes; i++)
		free(s->types[i].flops);
	free(s->groups);
	free(s->types);
	tlc_fsum__init(s);
}

int tlc_fsum__alloc(tlc_fsum *s, size_t ngroups, size_t ntypes)
{
	s->groups = calloc(ngroups + 1, sizeof *s->groups);
	s->types = calloc(ntypes + 1, sizeof *s->types);
	if (!s->groups || !s->types)
		return tlc_error__oom();
	s->ngroups = ngroups;
	s->ntypes = ntypes;
	return 0;
}

char *tlc_fsum__mpz_str(const mpz_t z)
{
	char *buf = malloc(mpz_sizeinbase(z, 10) + 2);
	if (!buf) {
		tlc_error__oom();
		return NULL;
	}
	return mpz_get_str(buf, 10, z);
}

/* ---- from an evaluation ---- */

static const tlc_device_gap *eval_gap_at(const void *payload, size_t i)
{
	return tlc_eval_device_gap_at(payload, i);
}

static int eval_phases(tlc_fsum *s, const tlc_eval *ev)
{
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		tlc_fsum_phase *a = &s->ph[p];
		a->present = tlc_eval_phase_present(ev, (tlc_phase)p);
		if (!a->present)
			continue;
		for (int f = 0; f < TLC_FSUM_TOTALS; f++)
			if (tlc_eval_total_str(&a->tot[f], ev, (tlc_phase)p, tot_which[f]) < 0) {
				a->tot[f] = NULL; /* refused (fma=1 beside a forbidden op): null */
				if (tlc_error_last()->klass == TLC_ENOMEM)
					return TLC_ENOMEM;
			}
		a->bytes_complete = !tlc_eval_bytes_incomplete(ev, (tlc_phase)p);
	}
	return 0;
}

static int eval_comm(tlc_fsum *s, const tlc_eval *ev)
{
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			tlc_fsum_comm *c = &s->comm[p][k];
			c->calls = tlc_eval_comm_calls(ev, (tlc_phase)p, (tlc_comm_kind)k);
			if (!c->calls)
				continue;
			s->any_comm = 1;
			/* tlc_free is free: the model owns them as they come */
			if (tlc_eval_comm_bytes(&c->message_bytes, &c->bus_bytes, ev, (tlc_phase)p,
			                        (tlc_comm_kind)k) < 0)
				return TLC_ENOMEM;
		}
	tlc_eval_comm_group_basis(s->comm_basis, ev);
	return 0;
}

int tlc_fsum__from_eval(tlc_fsum *s, const tlc_eval *ev)
{
	const tlc_input_info *in = tlc_eval_info(ev);
	s->schema = "tlcost.flops/1";
	s->count_basis = "actual-path analytic";
	s->flop_convention = "fma=2";
	s->format = in->format;
	s->producer = in->producer;
	s->model = in->model;
	s->device = in->device;
	s->params = in->params >= 0 ? in->params : -1;
	s->tokens = in->tokens >= 0 ? in->tokens : -1;
	s->dist = tlc_eval_dist(ev);
	int rc = eval_phases(s, ev);
	if (rc == 0)
		rc = eval_comm(s, ev);
	if (rc < 0)
		return rc;
	tlc_coverage c = TLC_COVERAGE_INIT;
	tlc_eval_coverage(&c, ev);
	s->cov[0] = c.rows;
	for (int k = 0; k < 4; k++)
		s->cov[1 + k] = c.by_class[k];
	s->cov[5] = c.skipped;
	s->cov[6] = c.device_records;
	s->lower_bound = tlc_eval_is_lower_bound(ev);
	s->has_device_work = 1;
	s->dw = (tlc_device_work){ sizeof s->dw, 0, 0, 0, 0, 0 };
	tlc_eval_device_work(&s->dw, ev);
	s->ngaps = tlc_eval_device_gap_count(ev);
	s->gap_at = eval_gap_at;
	s->gap_payload = ev;
	rc = tlc_fsum__alloc(s, tlc_eval_ledger_count(ev), tlc_eval_optype_count(ev));
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < s->ngroups; i++)
		s->groups[i].e = *tlc_eval_ledger_at(ev, i);
	for (size_t i = 0; i < s->ntypes; i++) {
		const tlc_optype_row *r = tlc_eval_optype_at(ev, i);
		tlc_fsum_type *t = &s->types[i];
		t->name = r->name;
		t->count = r->count;
		for (int k = 0; k < 4; k++)
			t->by_class[k] = r->by_class[k];
		if (!(t->flops = strdup(r->flops)))
			return tlc_error__oom();
	}
	return 0;
}

/* ---- the writer ---- */

void tlc_fsum__json_input(yajl_gen g, const tlc_fsum *s)
{
	tlc_jsonw__key(g, "input");
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "format", s->format);
	tlc_jsonw__kstr(g, "producer", s->producer);
	tlc_jsonw__kstr(g, "model", s->model);
	tlc_jsonw__kstr(g, "device", s->device);
	if (s->params >= 0)
		tlc_jsonw__kint(g, "params", s->params);
	if (s->tokens >= 0)
		tlc_jsonw__kint(g, "tokens", s->tokens);
	yajl_gen_map_close(g);
}

static void json_phases(yajl_gen g, const tlc_fsum *s)
{
	tlc_jsonw__key(g, "phases");
	yajl_gen_map_open(g);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		const tlc_fsum_phase *a = &s->ph[p];
		if (!a->present)
			continue;
		tlc_jsonw__key(g, tlc_phase_name((tlc_phase)p));
		yajl_gen_map_open(g);
		for (int f = 0; f < TLC_FSUM_TOTALS; f++)
			tlc_jsonw__knum(g, tot_keys[f], a->tot[f]);
		tlc_jsonw__kbool(g, "bytes_complete", a->bytes_complete);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
}

static void json_comm(yajl_gen g, const tlc_fsum *s)
{
	tlc_join__dist_info_json(g, s->dist);
	if (!s->any_comm)
		return;
	tlc_jsonw__key(g, "communication");
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "basis", "analytic (nccl-tests message size and bus factor)");
	tlc_jsonw__key(g, "phases");
	yajl_gen_map_open(g);
	for (int p = 0; p < TLC_PHASE_COUNT; p++) {
		int any = 0;
		for (int k = 0; k < TLC_COMM_COUNT; k++)
			any |= s->comm[p][k].calls != 0;
		if (!any)
			continue;
		tlc_jsonw__key(g, tlc_phase_name((tlc_phase)p));
		yajl_gen_map_open(g);
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			const tlc_fsum_comm *c = &s->comm[p][k];
			if (!c->calls)
				continue;
			tlc_jsonw__key(g, tlc_comm_kind_name((tlc_comm_kind)k));
			yajl_gen_map_open(g);
			tlc_jsonw__kuint(g, "calls", c->calls);
			tlc_jsonw__knum(g, "message_bytes", c->message_bytes);
			tlc_jsonw__kstr(g, "bus_bytes", c->bus_bytes);
			yajl_gen_map_close(g);
		}
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
	tlc_jsonw__key(g, "group_size_basis");
	yajl_gen_map_open(g);
	tlc_jsonw__kuint(g, "recorded", s->comm_basis[0]);
	tlc_jsonw__kuint(g, "derived", s->comm_basis[1]);
	tlc_jsonw__kuint(g, "world_size", s->comm_basis[2]);
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
}

static void json_coverage(yajl_gen g, const tlc_fsum *s)
{
	tlc_jsonw__key(g, "coverage");
	yajl_gen_map_open(g);
	for (int c = 0; c < TLC_FSUM_COVERAGE; c++)
		tlc_jsonw__kuint(g, cov_keys[c], s->cov[c]);
	yajl_gen_map_close(g);
}

void tlc_rep__json_device_work(yajl_gen g, const tlc_device_work *w, size_t ngaps,
                               tlc_rep_gap_at at, const void *payload)
{
	tlc_jsonw__key(g, "device_work");
	yajl_gen_map_open(g);
	tlc_jsonw__kuint(g, "kernels", w->kernels);
	tlc_jsonw__kuint(g, "kernels_in_ops", w->kernels_in_ops);
	tlc_jsonw__kuint(g, "without_op", w->without_op);
	tlc_jsonw__kint(g, "without_op_ns", w->without_op_ns);
	tlc_jsonw__kuint(g, "not_compute", w->not_compute);
	tlc_jsonw__key(g, "gaps");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < ngaps; i++) {
		const tlc_device_gap *d = at(payload, i);
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "cause", d->cause);
		tlc_jsonw__kuint(g, "records", d->records);
		tlc_jsonw__kint(g, "device_ns", d->device_ns);
		tlc_jsonw__kstr(g, "message", d->message);
		tlc_jsonw__kstr(g, "remedy", d->remedy);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
}

void tlc_fsum__json_device_work(yajl_gen g, const tlc_fsum *s)
{
	if (s->has_device_work)
		tlc_rep__json_device_work(g, &s->dw, s->ngaps, s->gap_at, s->gap_payload);
}

static void json_group(yajl_gen g, const tlc_fsum_group *x)
{
	const tlc_ledger_entry *e = &x->e;
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "name", e->name);
	tlc_jsonw__kstr(g, "overload", e->overload);
	tlc_jsonw__kuint(g, "count", e->count);
	tlc_jsonw__key(g, "example_ids");
	yajl_gen_array_open(g);
	for (size_t k = 0; k < e->nexample_ids; k++)
		yajl_gen_integer(g, (long long)e->example_ids[k]);
	yajl_gen_array_close(g);
	tlc_jsonw__key(g, "example_shapes");
	yajl_gen_array_open(g);
	for (size_t k = 0; k < e->nexample_shapes; k++)
		tlc_jsonw__str(g, e->example_shapes[k]);
	yajl_gen_array_close(g);
	tlc_jsonw__knum(g, "nested_flops", e->nested_flops);
	tlc_jsonw__kstr(g, "reason", e->reason);
	tlc_jsonw__kstr(g, "detail", e->detail);
	tlc_jsonw__kstr(g, "remedy", e->remedy);
	if (e->partly_known) { /* present only on groups with partly known calls */
		tlc_jsonw__kuint(g, "partly_known", e->partly_known);
		tlc_jsonw__kstr(g, "missing", e->missing);
		tlc_jsonw__kstr(g, "cause", e->cause);
		tlc_jsonw__knum(g, "counted_flops", e->counted_flops);
		tlc_jsonw__knum(g, "counted_bytes", e->counted_bytes);
	}
	if (x->has_sources) { /* a merge: where each example came from */
		tlc_jsonw__key(g, "example_sources");
		yajl_gen_array_open(g);
		for (size_t k = 0; k < e->nexample_ids; k++)
			yajl_gen_integer(g, x->id_src[k]);
		yajl_gen_array_close(g);
		tlc_jsonw__key(g, "example_shape_sources");
		yajl_gen_array_open(g);
		for (size_t k = 0; k < e->nexample_shapes; k++)
			yajl_gen_integer(g, x->shape_src[k]);
		yajl_gen_array_close(g);
	}
	yajl_gen_map_close(g);
}

void tlc_fsum__json_ledger(yajl_gen g, const tlc_fsum *s)
{
	tlc_jsonw__key(g, "ledger");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < s->ngroups; i++)
		json_group(g, &s->groups[i]);
	yajl_gen_array_close(g);
}

static void json_types(yajl_gen g, const tlc_fsum *s)
{
	tlc_jsonw__key(g, "op_types");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < s->ntypes; i++) {
		const tlc_fsum_type *t = &s->types[i];
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "name", t->name);
		tlc_jsonw__kuint(g, "count", t->count);
		for (int k = 0; k < 4; k++)
			tlc_jsonw__kuint(g, tlc_class_name((tlc_class)k), t->by_class[k]);
		tlc_jsonw__knum(g, "flops", t->flops);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

void tlc_fsum__json_partials(yajl_gen g, const tlc_fsum *s)
{
	tlc_jsonw__key(g, "partials");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < s->npartials; i++) {
		const tlc_fsum_partial *p = &s->partials[i];
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "name", p->name);
		if (p->rank >= 0)
			tlc_jsonw__kint(g, "rank", p->rank);
		else
			tlc_jsonw__kstr(g, "rank", NULL);
		if (p->world_size >= 1)
			tlc_jsonw__kint(g, "world_size", p->world_size);
		else
			tlc_jsonw__kstr(g, "world_size", NULL);
		tlc_jsonw__kstr(g, "backend", p->backend);
		tlc_jsonw__key(g, "input");
		yajl_gen_map_open(g);
		tlc_jsonw__kstr(g, "format", p->format);
		tlc_jsonw__kstr(g, "producer", p->producer);
		tlc_jsonw__kstr(g, "model", p->model);
		tlc_jsonw__kstr(g, "device", p->device);
		yajl_gen_map_close(g);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

void tlc_fsum__json(yajl_gen g, const tlc_fsum *s)
{
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", s->schema);
	tlc_fsum__json_input(g, s);
	tlc_jsonw__kstr(g, "count_basis", s->count_basis);
	tlc_jsonw__kstr(g, "flop_convention", s->flop_convention);
	json_phases(g, s);
	json_comm(g, s);
	json_coverage(g, s);
	tlc_jsonw__kbool(g, "lower_bound", s->lower_bound);
	tlc_fsum__json_device_work(g, s);
	tlc_fsum__json_ledger(g, s);
	json_types(g, s);
	if (s->partials)
		tlc_fsum__json_partials(g, s);
	yajl_gen_map_close(g);
}
