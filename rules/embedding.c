/* Embedding rules: lookups, bags and their backward ops.
 *
 * A lookup is a gather: 0 FLOPs (a known cost), and its ideal traffic is the
 * indices plus the gathered rows (numel(indices) * D elements of the
 * weight), not the whole table. n = numel(indices), D = embedding dim,
 * B = number of bags.
 *
 * Registered names:
 *   embedding                         0; read indices + n*D weight elements
 *   embedding_dense_backward embedding_backward
 *                                     n*D adds (+ n*D multiplies with scale_grad_by_freq)
 *   _embedding_bag embedding_bag _embedding_bag_forward_only
 *                                     sum: (n-B)*D adds; mean: n*D; max: (n-B)*D compares;
 *                                     per_sample_weights: + n*D multiplies
 *   _embedding_bag_backward _embedding_bag_dense_backward
 *                                     sum: n*D adds; mean: 2*n*D; max: B*D adds;
 *                                     per_sample_weights: + n*D multiplies
 *   _embedding_bag_per_sample_weights_backward
 *                                     n*D MACs (a length-D dot product per index)
 * Rows equal to padding_idx are skipped by ATen; which rows those are is
 * data, so with a padding_idx the count is the upper bound (estimated).
 */
#include <string.h>
#include "rules.h"
#include "util.h"

#define EX TLC_EVIDENCE_FORMULA_EXACT
#define ES TLC_EVIDENCE_ESTIMATED

enum { BAG_SUM = 0, BAG_MEAN = 1, BAG_MAX = 2 };

/* Marks the cost estimated when padding_idx (arg pos) is a real index. */
static int padding_estimated(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                             size_t pos)
{
	int64_t p = -1;
	int rc = host->int_arg_or(&p, op, pos, "padding_idx", -1);
	if (rc == TLC_RULE_MISSING_ARGS && tlc_rules__observed(op)) {
		/* not recorded: every index is counted either way (the padding
		 * convention's upper bound), so the count stands, estimated */
		host->cost_set_evidence(out, ES);
		return 0;
	}
	if (rc < 0)
		return rc;
	if (p >= 0)
		host->cost_set_evidence(out, ES);
	return 0;
}

/* bytes_read += the gathered rows: n * D elements of the weight's dtype. */
static int read_rows(tlc_cost *out, const tlc_host *host, const tlc_tensor *w,
                     const tlc_tensor *idx)
{
	int64_t shape[TLC_RULES_MAX_DIMS + 1];
	if (idx->ndim + 1 > TLC_RULES_MAX_DIMS + 1 || w->ndim != 2)
		return TLC_RULE_BAD_ARGS;
	memcpy(shape, idx->shape, idx->ndim * sizeof shape[0]);
	shape[idx->ndim] = w->shape[1];
	tlc_value v;
	memset(&v, 0, sizeof v);
	v.kind = TLC_VALUE_TENSOR;
	v.u.tensor.ndim = idx->ndim + 1;
	v.u.tensor.shape = shape;
	v.u.tensor.dtype = w->dtype;
	return host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, &v);
}

/* Writes the recorded outputs; without them, `shape` in `dtype` when given,
 * else the bytes are unknown. */
static int write_or(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                    const int64_t *shape, size_t n, tlc_dtype dtype)
{
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return tlc_rules__need(out, host, host->write_outputs(out, op, NULL),
		                       "outputs");
	if (!shape)
		return tlc_rules__write_shape(out, host, NULL, 0, TLC_DTYPE_NONE);
	return tlc_rules__need(out, host, tlc_rules__write_shape(out, host, shape, n, dtype),
	                       "output shape");
}

/* embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse) */
static int emb_fwd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *w = host->tensor_arg(op, 0, "weight");
	const tlc_value *iv = host->arg(op, 1, "indices");
	const tlc_tensor *idx = tlc_rules__tensor(iv);
	if (!w || !idx)
		return tlc_rules__missing(out, host, "missing weight or indices tensor");
	if (w->ndim != 2 || idx->ndim + 1 > TLC_RULES_MAX_DIMS)
		return tlc_rules__bad(out, host, "weight must be 2-d");
	host->cost_explain(out, "lookup: a gather, no arithmetic");
	int rc = tlc_rules__read_value(out, host, iv);
	if (rc == 0)
		rc = read_rows(out, host, w, idx);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "tensors");
	int64_t shape[TLC_RULES_MAX_DIMS];
	memcpy(shape, idx->shape, idx->ndim * sizeof shape[0]);
	shape[idx->ndim] = w->shape[1];
	return write_or(out, op, host, shape, idx->ndim + 1, w->dtype);
}

/* embedding_dense_backward(grad_output, indices, num_weights, padding_idx,
 * scale_grad_by_freq) */
static int emb_bwd(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *g = host->tensor_arg(op, 0, "grad_output");
	const tlc_tensor *idx = host->tensor_arg(op, 1, "indices");
	int64_t nw = 0;
	int scale = 0;
	if (!g || !idx || g->ndim == 0)
		return tlc_rules__missing(out, host, "missing grad_output or indices tensor");
	int rc = tlc_rules__int_arg(&nw, op, host, 2, "num_weights");
	if (rc == 0)
		rc = tlc_rules__bool_arg_or(&scale, op, host, 4, "scale_grad_by_freq", 0);
	if (rc == 0)
		rc = padding_estimated(out, op, host, 3);
	if (rc < 0 || nw < 0)
		return tlc_rules__arg_fail(out, host, op, rc < 0 ? rc : TLC_RULE_BAD_ARGS,
		                           "num_weights, padding_idx or scale flag",
		                           "bad num_weights, padding_idx or scale flag");
	int64_t d = g->shape[g->ndim - 1];
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	tlc_rules__term_mul_numel(&t, idx);
	tlc_rules__term_mul(&t, d);
	if (tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1 + (scale != 0), &t) < 0)
		return tlc_rules__bad(out, host, "bad shape");
	rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "tensors");
	int64_t shape[2] = { nw, d };
	return write_or(out, op, host, shape, 2, g->dtype);
}

/* Bags B: rows of 2-d indices (exact), else offsets (minus the closing
 * offset when include_last_offset), assuming no bag is empty (estimated). */
static int bag_count(int64_t *b, tlc_cost *out, const tlc_op *op, const tlc_host *host,
                     const tlc_tensor *idx, const tlc_tensor *offsets, size_t last_pos)
{
	int last = 0;
	if (idx->ndim == 2) {
		*b = idx->shape[0];
		return 0;
	}
	if (!offsets || offsets->ndim != 1)
		return TLC_RULE_MISSING_ARGS;
	int rc = tlc_rules__bool_arg_or(&last, op, host, last_pos, "include_last_offset", 0);
	if (rc < 0)
		return rc;
	*b = offsets->shape[0] - (last && offsets->shape[0] > 0);
	host->cost_set_evidence(out, ES);
	return 0;
}

/* Where an embedding-bag op keeps its arguments. */
typedef struct bag_spec {
	int backward;
	size_t idx_pos, offsets_pos, mode_pos, psw_pos, last_pos, pad_pos;
	int weight_pos;       /* forward: weight; backward: -1 (D from grad) */
	size_t nw_pos;        /* backward: num_weights */
} bag_spec;

/* Forward: indices, offsets and per-sample weights once, plus the gathered
 * rows; outputs as recorded (unknown otherwise: offset2bag etc. vary). */
static int bag_bytes_fwd(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                         const bag_spec *s, const tlc_tensor *w, const tlc_tensor *idx)
{
	const size_t pos[3] = { s->idx_pos, s->offsets_pos, s->psw_pos };
	const char *names[3] = { "indices", "offsets", "per_sample_weights" };
	for (int i = 0; i < 3; i++) {
		int rc = tlc_rules__read_value(out, host, host->arg(op, pos[i], names[i]));
		if (rc < 0)
			return tlc_rules__need(out, host, rc, names[i]);
	}
	int rc = read_rows(out, host, w, idx);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "weight");
	return write_or(out, op, host, NULL, 0, TLC_DTYPE_NONE);
}

/* Backward: every input once; grad_weight [num_weights, D] in grad's dtype. */
static int bag_bytes_bwd(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                         const bag_spec *s, const tlc_tensor *g)
{
	int64_t nw = -1;
	int rc = host->read_inputs(out, op);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "tensors");
	if (tlc_rules__int_arg(&nw, op, host, s->nw_pos, "num_weights") < 0 || nw < 0)
		return write_or(out, op, host, NULL, 0, TLC_DTYPE_NONE);
	int64_t shape[2] = { nw, g->shape[1] };
	return write_or(out, op, host, shape, 2, g->dtype);
}

static int bag_rule(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const bag_spec *s = payload;
	const tlc_tensor *w = s->weight_pos >= 0
	        ? host->tensor_arg(op, (size_t)s->weight_pos, "weight")
	        : host->tensor_arg(op, 0, "grad");
	const tlc_tensor *idx = host->tensor_arg(op, s->idx_pos, "indices");
	const tlc_tensor *offs = host->tensor_arg(op, s->offsets_pos, "offsets");
	int64_t mode = 0, b = 0;
	if (!w || !idx || w->ndim != 2)
		return tlc_rules__missing(out, host, "missing weight/grad (2-d) or indices tensor");
	int rc = host->int_arg_or(&mode, op, s->mode_pos, "mode", 0);
	if (rc == 0)
		rc = padding_estimated(out, op, host, s->pad_pos);
	if (rc < 0 || mode < 0 || mode > 2)
		return tlc_rules__arg_fail(out, host, op, rc < 0 ? rc : TLC_RULE_BAD_ARGS,
		                           "mode or padding_idx", "bad mode or padding_idx");
	rc = 0;
	if (s->backward)
		b = w->shape[0]; /* grad has one row per bag */
	else
		rc = bag_count(&b, out, op, host, idx, offs, s->last_pos);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "offsets");
	int64_t n = 0;
	if (tlc_rules__numel_range(&n, idx, 0, idx->ndim) < 0)
		return tlc_rules__bad(out, host, "bad indices shape");
	if (!s->backward && b > n)
		b = n; /* more bags than indices: at most n bags are non-empty */
	int psw = host->tensor_arg(op, s->psw_pos, "per_sample_weights") != NULL;
	int64_t d = w->shape[1];
	tlc_rules_term nd;
	tlc_rules__term_init(&nd);
	tlc_rules__term_mul_numel(&nd, idx);
	tlc_rules__term_mul(&nd, d);
	int64_t bd[2] = { b, d };
	int64_t kn = psw; /* per-sample weight multiplies */
	int64_t kb = 0;
	if (!s->backward) {
		kn += 1;          /* n*D adds/compares, minus one per bag below */
		kb = mode == BAG_MEAN ? 0 : -1; /* mean: + B*D divides */
	} else if (mode == BAG_MAX) {
		kb = 1;           /* one add per grad element */
	} else {
		kn += mode == BAG_MEAN ? 2 : 1; /* add (and divide by bag size) */
	}
	rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, kn, &nd);
	if (rc == 0 && kb)
		rc = host->cost_add(out, TLC_FIELD_OTHER_FLOPS, kb, 2, bd);
	if (rc < 0)
		return tlc_rules__bad(out, host, "bad shape");
	return s->backward ? bag_bytes_bwd(out, op, host, s, w)
	                   : bag_bytes_fwd(out, op, host, s, w, idx);
}

/* _embedding_bag_per_sample_weights_backward(grad, weight, indices, offsets,
 * offset2bag, mode, padding_idx): one dot product of length D per index,
 * grad row of its bag . weight row of its index: n*D MACs. Reads grad,
 * the index tensors and the n gathered weight rows; writes n values. */
static int bag_psw_bwd(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                       void *payload)
{
	(void)payload;
	const tlc_tensor *g = host->tensor_arg(op, 0, "grad");
	const tlc_tensor *w = host->tensor_arg(op, 1, "weight");
	const tlc_tensor *idx = host->tensor_arg(op, 2, "indices");
	if (!g || !w || !idx)
		return tlc_rules__missing(out, host, "missing grad, weight or indices tensor");
	if (w->ndim != 2 || padding_estimated(out, op, host, 6) < 0)
		return tlc_rules__bad(out, host, "weight must be 2-d; bad padding_idx");
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	tlc_rules__term_mul_numel(&t, idx);
	tlc_rules__term_mul(&t, w->shape[1]);
	if (tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &t) < 0)
		return tlc_rules__bad(out, host, "bad shape");
	const char *names[4] = { "grad", "indices", "offsets", "offset2bag" };
	const size_t pos[4] = { 0, 2, 3, 4 };
	for (int i = 0; i < 4; i++) {
		int rc = tlc_rules__read_value(out, host, host->arg(op, pos[i], names[i]));
		if (rc < 0)
			return tlc_rules__need(out, host, rc, names[i]);
	}
	int rc = read_rows(out, host, w, idx);
	if (rc < 0)
		return tlc_rules__need(out, host, rc, "weight");
	return write_or(out, op, host, idx->shape, idx->ndim, g->dtype);
}

/* _embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
 *                per_sample_weights, include_last_offset, padding_idx) */
static const bag_spec bag_fwd = { 0, 1, 2, 4, 6, 7, 8, 0, 0 };
/* _embedding_bag_backward(grad, indices, offsets, offset2bag, bag_size,
 *   maximum_indices, num_weights, scale_grad_by_freq, mode, sparse,
 *   per_sample_weights, padding_idx) */
static const bag_spec bag_bwd = { 1, 1, 2, 8, 10, 99, 11, -1, 6 };
/* _embedding_bag_dense_backward(grad, indices, offset2bag, bag_size,
 *   maximum_indices, num_weights, scale_grad_by_freq, mode,
 *   per_sample_weights, padding_idx): bags = rows of grad */
static const bag_spec bag_dense_bwd = { 1, 1, 99, 7, 8, 99, 9, -1, 5 };

#define E(name, fn, spec, ev, note) { name, TLC_RULE_COST, ev, fn, spec, note }

static const tlc_rules_entry rules[] = {
	E("aten::embedding", emb_fwd, NULL, EX, "0: gather; read indices + n*D rows"),
	E("aten::embedding_dense_backward", emb_bwd, NULL, EX,
	  "n*D adds (+ n*D with scale_grad_by_freq)"),
	E("aten::embedding_backward", emb_bwd, NULL, EX,
	  "n*D adds (+ n*D with scale_grad_by_freq)"),
	E("aten::_embedding_bag", bag_rule, &bag_fwd, EX,
	  "sum (n-B)*D, mean n*D, max (n-B)*D; + n*D per_sample_weights"),
	E("aten::embedding_bag", bag_rule, &bag_fwd, EX,
	  "sum (n-B)*D, mean n*D, max (n-B)*D; + n*D per_sample_weights"),
	E("aten::_embedding_bag_forward_only", bag_rule, &bag_fwd, EX,
	  "sum (n-B)*D, mean n*D, max (n-B)*D; + n*D per_sample_weights"),
	E("aten::_embedding_bag_backward", bag_rule, &bag_bwd, EX,
	  "sum n*D, mean 2n*D, max B*D; + n*D per_sample_weights"),
	E("aten::_embedding_bag_dense_backward", bag_rule, &bag_dense_bwd, EX,
	  "sum n*D, mean 2n*D, max B*D; + n*D per_sample_weights"),
	E("aten::_embedding_bag_per_sample_weights_backward", bag_psw_bwd, NULL, EX,
	  "n*D MACs: a grad-row . weight-row dot product per index"),
};

#undef E

int tlc_rules__embedding_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, rules, TLC_RULES_COUNT(rules));
}
