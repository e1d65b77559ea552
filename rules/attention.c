/* Attention rules: scaled_dot_product_attention, its backend variants and
 * their backward ops, and the fused fast paths _native_multi_head_attention
 * and _transformer_encoder_layer_fwd.
 *
 * Q [.., L, E], K [.., S, E], V [.., S, Ev] (flash/efficient kernels: [B, L,
 * H, E]). "pairs" is the number of (query, key) pairs a mask leaves, exactly:
 *   none or an explicit mask: L*S (an explicit mask is dense arithmetic)
 *   causal, top-left   (sdpa, math, efficient, cudnn, CPU flash):
 *                      sum_i min(i+1, S)
 *   causal, bottom-right (FlashAttention-2 kernels, custom_mask_type 2):
 *                      sum_i clamp(i + S - L + 1, 0, S)
 * Forward:  macs = batch*pairs*(E + Ev) (QK^T and PV)
 *           other = batch*pairs*(1 scale + TLC_RULES_K_SOFTMAX_FWD) + 1 per pair
 *                   for a mask/bias add + 2 per pair for dropout (estimated)
 * Backward: kernels recompute QK^T: macs = batch*pairs*(3E + 2Ev) (S, dV, dP,
 *           dQ, dK) + batch*L*Ev (D = rowsum(dO*O));
 *           other = batch*pairs*ATTN_BWD_PER_PAIR (+ mask, + 2 for dropout). */
#include <stdio.h>
#include <string.h>
#include "rules.h"
#include "util.h"

#define NO (-1)
/* recompute P (scale, subtract lse, exp) = 3, dS = P*(dP - D) = 2, scale dS = 1 */
#define ATTN_BWD_PER_PAIR 6
#define ATTN_FWD_PER_PAIR (1 + TLC_RULES_K_SOFTMAX_FWD)

enum { LAYOUT_BHLE = 0, LAYOUT_BLHE = 1 };
enum { ALIGN_TOP_LEFT = 1, ALIGN_BOTTOM_RIGHT = 2 };

typedef struct attn_spec {
	int q;           /* index of query; key and value follow */
	int layout;      /* LAYOUT_* */
	int causal;      /* index of is_causal, or NO */
	int align;       /* alignment of is_causal */
	int mask_type;   /* index of custom_mask_type (0 none, 1 TL, 2 BR), or NO */
	int mask;        /* index of attn_mask / bias tensor, or NO */
	const char *mask_name;
	int dropout;     /* index of dropout_p, or NO */
	int cu;          /* index of cu_seqlens_q (varlen when a tensor), or NO */
	int backward;
	/* flash-attn's custom ops (flash_attn::_flash_attn_forward/_backward); 0
	 * in every other spec: */
	int window;      /* index of window_size_left (right follows); 0: by name */
	int softcap;     /* index of softcap (not modelled unless 0.0); 0: none */
	int alibi;       /* index of alibi_slopes (not modelled unless None); 0: none */
	int skip;        /* index of dq (dk, dv follow): written, not read; 0: none */
} attn_spec;

typedef struct attn_geom {
	int64_t batch[TLC_RULES_MAX_DIMS];
	size_t nbatch;
	int64_t l, s, e, ev;
	int64_t pairs;
	const tlc_tensor *q, *k, *v;
} attn_geom;

/* ---- pair counting ---------------------------------------------------- */

static int mul_ok(int64_t *out, int64_t a, int64_t b)
{
	return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}

/* sum_{x=1}^{n} x */
static int tri(int64_t *out, int64_t n)
{
	int64_t a = n, b = n + 1;
	if (a % 2 == 0)
		a /= 2;
	else
		b /= 2;
	return mul_ok(out, a, b);
}

static int causal_pairs(int64_t *out, int64_t l, int64_t s, int align)
{
	int64_t t, r = 0;
	if (align == ALIGN_TOP_LEFT) {
		/* rows i < S see i+1 keys; the L-S rows below see all S */
		int64_t full = l > s ? l - s : 0;
		if (tri(&t, l < s ? l : s) < 0 || mul_ok(&r, full, s) < 0)
			return -1;
	} else {
		/* rows see S-L+1 .. S keys; with L > S the top L-S rows see none */
		int64_t m = l < s ? l : s;
		if (tri(&t, m) < 0 || (l < s && mul_ok(&r, l, s - l) < 0))
			return -1;
	}
	return __builtin_add_overflow(t, r, out) ? -1 : 0;
}

/* Sliding window (flash window_size_left/right, -1 = unbounded), bottom-right
 * aligned like the kernel: row i is centred on key i + S - L. */
static int window_pairs(int64_t *out, int64_t l, int64_t s, int64_t wl, int64_t wr,
                        int causal)
{
	int64_t sum = 0;
	const int64_t big = (int64_t)1 << 40;
	if (l > ((int64_t)1 << 26) || s > big || wl > big || wr > big)
		return -1; /* counted row by row: refuse rather than spin or overflow */
	for (int64_t i = 0; i < l; i++) {
		int64_t c = i + s - l;
		int64_t lo = wl >= 0 ? c - wl : 0, hi = wr >= 0 ? c + wr : s - 1;
		if (causal && hi > c)
			hi = c;
		if (lo < 0)
			lo = 0;
		if (hi > s - 1)
			hi = s - 1;
		if (hi >= lo && __builtin_add_overflow(sum, hi - lo + 1, &sum))
			return -1;
	}
	*out = sum;
	return 0;
}

/* ---- geometry --------------------------------------------------------- */

static int attn_shapes(tlc_cost *out, attn_geom *g, const attn_spec *s, const tlc_op *op,
                       const tlc_host *host)
{
	memset(g, 0, sizeof *g);
	g->q = host->tensor_arg(op, (size_t)s->q, "query");
	g->k = host->tensor_arg(op, (size_t)s->q + 1, "key");
	g->v = host->tensor_arg(op, (size_t)s->q + 2, "value");
	if (!g->q || !g->k || !g->v)
		return tlc_rules__missing(out, host, "missing query, key or value shape");
	const tlc_tensor *q = g->q, *k = g->k, *v = g->v;
	if (s->layout == LAYOUT_BLHE) {
		if (q->ndim == 3 || (s->cu != NO && host->tensor_arg(op, (size_t)s->cu, NULL)))
			return tlc_rules__missing(out, host,
			                          "variable-length batch: per-sequence lengths are not recorded");
		if (q->ndim != 4 || k->ndim != 4 || v->ndim != 4)
			return tlc_rules__bad(out, host, "query/key/value must be [B, L, H, E]");
		g->batch[0] = q->shape[0];
		g->batch[1] = q->shape[2] > k->shape[2] ? q->shape[2] : k->shape[2];
		g->nbatch = 2;
		g->l = q->shape[1];
		g->s = k->shape[1];
	} else {
		if (q->ndim < 2 || k->ndim != q->ndim || v->ndim != q->ndim ||
		    q->ndim - 2 > TLC_RULES_MAX_DIMS)
			return tlc_rules__bad(out, host, "query/key/value must be [..., L, E] of one rank");
		g->nbatch = q->ndim - 2;
		for (size_t d = 0; d < g->nbatch; d++)
			g->batch[d] = q->shape[d] > k->shape[d] ? q->shape[d] : k->shape[d];
		g->l = q->shape[q->ndim - 2];
		g->s = k->shape[k->ndim - 2];
	}
	g->e = q->shape[q->ndim - 1];
	g->ev = v->shape[v->ndim - 1];
	if (k->shape[k->ndim - 1] != g->e || v->shape[s->layout == LAYOUT_BLHE ? 1 : v->ndim - 2] != g->s)
		return tlc_rules__bad(out, host, "key must share E with query and S with value");
	return 0;
}

/* Which alignment the op's mask arguments ask for; 0 = no causal mask. */
static int attn_alignment(tlc_cost *out, int *align, const attn_spec *s, const tlc_op *op,
                          const tlc_host *host)
{
	*align = 0;
	if (s->causal != NO) {
		int c = 0;
		int rc = tlc_rules__bool_arg_or(&c, op, host, (size_t)s->causal, "is_causal", 0);
		if (rc < 0)
			return tlc_rules__arg_fail(out, host, op, rc, "is_causal", "is_causal is not a bool");
		if (c)
			*align = s->align;
	}
	if (s->mask_type != NO) {
		int64_t mt = 0;
		int rc = host->int_arg_or(&mt, op, (size_t)s->mask_type, "custom_mask_type", 0);
		if (rc < 0 || mt < 0 || mt > 2)
			return tlc_rules__arg_fail(out, host, op, rc < 0 ? rc : TLC_RULE_BAD_ARGS,
			                           "custom_mask_type", "custom_mask_type must be 0, 1 or 2");
		if (mt)
			*align = (int)mt; /* 1 = from top-left, 2 = from bottom-right */
	}
	return 0;
}

static int attn_pairs(tlc_cost *out, attn_geom *g, const attn_spec *s, const tlc_op *op,
                      const tlc_host *host)
{
	int align = 0, rc = attn_alignment(out, &align, s, op, host);
	if (rc < 0)
		return rc;
	int64_t wl = -1, wr = -1;
	/* keyword-only in _flash_attention_forward/_backward: a trace lists them
	 * after the positional arguments (11, 12 and 15, 16) */
	size_t wpos = (size_t)-1;
	if (s->window)
		wpos = (size_t)s->window;
	else if (tlc_rules__observed(op) && strcmp(op->name, "aten::_flash_attention_forward") == 0)
		wpos = 11;
	else if (tlc_rules__observed(op) && strcmp(op->name, "aten::_flash_attention_backward") == 0)
		wpos = 15;
	rc = host->int_arg_or(&wl, op, wpos, "window_size_left", -1);
	if (rc == 0)
		rc = host->int_arg_or(&wr, op, wpos == (size_t)-1 ? wpos : wpos + 1,
		                           "window_size_right", -1);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "window sizes", "window sizes must be ints");
	if (host->arg(op, (size_t)-1, "window_size"))
		return tlc_rules__missing(out, host, "sliding-window attention (window_size) is not modelled");
	if (wl >= 0 || wr >= 0)
		rc = window_pairs(&g->pairs, g->l, g->s, wl, wr, align != 0);
	else if (align)
		rc = causal_pairs(&g->pairs, g->l, g->s, align);
	else
		rc = mul_ok(&g->pairs, g->l, g->s);
	if (rc < 0)
		return tlc_rules__bad(out, host, "pair count exceeds 64 bits");
	return 0;
}

/* ---- costs ------------------------------------------------------------ */

static void attn_pair_term(tlc_rules_term *t, const attn_geom *g)
{
	tlc_rules__term_init(t);
	tlc_rules__term_mul_shape(t, g->batch, g->nbatch);
	tlc_rules__term_mul(t, g->pairs);
}

/* Per-pair extras: a mask or bias add (1), and dropout (2). */
static int attn_extras(tlc_cost *out, int64_t *per, const attn_spec *s, const tlc_op *op,
                       const tlc_host *host)
{
	double p = 0.0;
	/* NO: the mask, if any, is keyword-only */
	if (s->mask_name && host->tensor_arg(op, (size_t)s->mask, s->mask_name))
		*per += 1;
	int rc = s->dropout == NO ? 0 :
		tlc_rules__real_arg_or(&p, op, host, (size_t)s->dropout, "dropout_p", 0.0);
	if (rc < 0)
		return tlc_rules__arg_fail(out, host, op, rc, "dropout_p", "dropout_p is not a number");
	if (p != 0.0)
		*per += 2; /* the dropout convention: compare a draw, multiply by 1/(1-p) */
	return 0;
}

static int attn_write(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                      const attn_spec *s, const attn_geom *g)
{
	if (s->skip) {
		/* dq, dk, dv are written through the arguments; the outputs
		 * (softmax_d), when recorded, besides */
		for (size_t i = 0; i < 3; i++) {
			const tlc_value *v = host->arg(op, (size_t)s->skip + i, NULL);
			if (!tlc_rules__tensor(v))
				return tlc_rules__missing(out, host, "dq, dk or dv not recorded");
			int rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, v);
			if (rc < 0)
				return rc;
		}
		if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
			return host->write_outputs(out, op, NULL);
		return 0;
	}
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	if (s->backward) {
		/* grad_query, grad_key, grad_value have the inputs' shapes */
		for (int i = 0; i < 3; i++) {
			const tlc_value *v = host->arg(op, (size_t)s->q + (size_t)i, NULL);
			int rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, v);
			if (rc < 0)
				return rc;
		}
		return 0;
	}
	int64_t shape[TLC_RULES_MAX_DIMS + 2];
	memcpy(shape, g->q->shape, g->q->ndim * sizeof shape[0]);
	shape[g->q->ndim - 1] = g->ev;
	return tlc_rules__write_shape(out, host, shape, g->q->ndim, g->q->dtype);
}

/* flash-attn's softcap (score = softcap * tanh(score / softcap)) and ALiBi
 * (a bias -slope * |i + S - L - j| computed per pair in the kernel) have no
 * convention here: a call that uses one is unknown, never guessed. */
static int attn_unmodelled(tlc_cost *out, const attn_spec *s, const tlc_op *op,
                           const tlc_host *host)
{
	if (s->softcap) {
		double cap = 0.0;
		int rc = tlc_rules__real_arg_or(&cap, op, host, (size_t)s->softcap, "softcap", 0.0);
		if (rc < 0)
			return tlc_rules__arg_fail(out, host, op, rc, "softcap", "softcap is not a number");
		if (cap != 0.0)
			return tlc_rules__missing(out, host, "softcap attention (a per-score tanh) is "
			                          "not modelled: no per-score convention for it");
	}
	if (s->alibi) {
		int given = 0;
		int rc = tlc_rules__given(&given, op, host, (size_t)s->alibi, "alibi_slopes");
		if (rc < 0)
			return tlc_rules__arg_fail(out, host, op, rc, "alibi_slopes",
			                           "alibi_slopes is not a tensor or None");
		if (given)
			return tlc_rules__missing(out, host, "ALiBi attention (a per-score bias computed "
			                          "in the kernel) is not modelled");
	}
	return 0;
}

/* Every tensor argument read once, except the gradient buffers a backward
 * writes into (dq, dk, dv at s->skip..s->skip+2). */
static int attn_read(tlc_cost *out, const attn_spec *s, const tlc_op *op, const tlc_host *host)
{
	if (!s->skip)
		return host->read_inputs(out, op);
	for (size_t i = 0; i < op->nargs; i++) {
		if (i >= (size_t)s->skip && i < (size_t)s->skip + 3)
			continue;
		int rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, &op->args[i]);
		if (rc < 0)
			return rc;
	}
	for (size_t i = 0; i < op->nkwargs; i++) {
		const char *n = op->kwargs[i].name;
		if (n && (strcmp(n, "dq") == 0 || strcmp(n, "dk") == 0 || strcmp(n, "dv") == 0))
			continue;
		int rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, &op->kwargs[i].value);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int rule_attention(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const attn_spec *s = payload;
	attn_geom g;
	int rc = attn_shapes(out, &g, s, op, host);
	if (rc == 0)
		rc = attn_pairs(out, &g, s, op, host);
	int64_t per = s->backward ? ATTN_BWD_PER_PAIR : ATTN_FWD_PER_PAIR;
	if (rc == 0)
		rc = attn_extras(out, &per, s, op, host);
	if (rc == 0)
		rc = attn_unmodelled(out, s, op, host);
	if (rc < 0)
		return rc;
	tlc_rules_term t;
	attn_pair_term(&t, &g);
	int64_t mac_per;
	if (g.e > INT64_MAX / 8 || g.ev > INT64_MAX / 8)
		return tlc_rules__bad(out, host, "head dimension too large");
	mac_per = s->backward ? 3 * g.e + 2 * g.ev : g.e + g.ev;
	tlc_rules_term m = t;
	tlc_rules__term_mul(&m, mac_per);
	if ((rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &m)) < 0 ||
	    (rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, per, &t)) < 0)
		return rc;
	if (s->backward) {
		/* D = rowsum(dO * O): one MAC per output element */
		tlc_rules__term_init(&m);
		tlc_rules__term_mul_shape(&m, g.batch, g.nbatch);
		tlc_rules__term_mul(&m, g.l);
		tlc_rules__term_mul(&m, g.ev);
		if ((rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &m)) < 0)
			return rc;
	}
	if ((rc = attn_read(out, s, op, host)) < 0)
		return rc;
	return attn_write(out, op, host, s, &g);
}

/* ---- fused fast paths -------------------------------------------------- */

/* Projection x [.., in] by a weight [out, in] over `rows`: macs rows*in*out;
 * bias: rows*out adds. */
static int proj_cost(tlc_cost *out, const tlc_host *host, int64_t rows, const tlc_tensor *w,
                     const tlc_tensor *bias)
{
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	tlc_rules__term_mul(&t, rows);
	tlc_rules__term_mul(&t, w->shape[0]);
	int rc = bias ? tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &t) : 0;
	tlc_rules__term_mul(&t, w->shape[1]);
	return rc < 0 ? rc : tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &t);
}

/* Dense multi-head attention core over [B, L, D] x [B, S, D]:
 * macs B*L*S*2D, other B*H*L*S*(per-pair). */
static int mha_core(tlc_cost *out, const tlc_host *host, int64_t b, int64_t l, int64_t s,
                    int64_t d, int64_t h, int64_t per_pair)
{
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	tlc_rules__term_mul(&t, b);
	tlc_rules__term_mul(&t, l);
	tlc_rules__term_mul(&t, s);
	tlc_rules_term m = t;
	tlc_rules__term_mul(&m, d);
	int rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, 2, &m);
	tlc_rules__term_mul(&t, h);
	return rc < 0 ? rc : tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, per_pair, &t);
}

/* [B, L, D] or unbatched [L, D]. */
static int seq_dims(int64_t *b, int64_t *l, const tlc_tensor *x, int64_t d)
{
	if (x->ndim == 3) {
		*b = x->shape[0];
		*l = x->shape[1];
	} else if (x->ndim == 2) {
		*b = 1;
		*l = x->shape[0];
	} else {
		return -1;
	}
	return x->shape[x->ndim - 1] == d ? 0 : -1;
}

static int mha_heads(tlc_cost *out, int64_t *d, int64_t *h, const tlc_op *op,
                     const tlc_host *host, size_t di, size_t hi)
{
	int rc = tlc_rules__int_arg(d, op, host, di, "embed_dim");
	if (rc == 0)
		rc = tlc_rules__int_arg(h, op, host, hi, hi == 4 ? "num_head" : "num_heads");
	if ((rc = tlc_rules__need(out, host, rc, "embed_dim/num_heads")) < 0)
		return rc;
	if (*d < 1 || *h < 1 || *d % *h || *d > INT64_MAX / 4)
		return tlc_rules__bad(out, host, "embed_dim must be a positive multiple of num_heads");
	return 0;
}

static int weight_2d(const tlc_tensor *w, int64_t rows, int64_t cols)
{
	return w && w->ndim == 2 && (rows < 0 || w->shape[0] == rows) && w->shape[1] == cols;
}

/* _native_multi_head_attention(query, key, value, embed_dim, num_head,
 * qkv_weight, qkv_bias, proj_weight, proj_bias, mask, need_weights,
 * average_attn_weights, mask_type): q/k/v projections, QK^T, PV, out proj. */
static int rule_native_mha(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *q = host->tensor_arg(op, 0, "query");
	const tlc_tensor *k = host->tensor_arg(op, 1, "key");
	const tlc_tensor *qkvw = host->tensor_arg(op, 5, "qkv_weight");
	const tlc_tensor *qkvb = host->tensor_arg(op, 6, "qkv_bias");
	const tlc_tensor *pw = host->tensor_arg(op, 7, "proj_weight");
	const tlc_tensor *pb = host->tensor_arg(op, 8, "proj_bias");
	int64_t d, h, b, l, bk, s;
	int rc = mha_heads(out, &d, &h, op, host, 3, 4);
	if (rc < 0)
		return rc;
	if (!q || !k || !qkvw || !pw)
		return tlc_rules__missing(out, host, "missing query, key, qkv_weight or proj_weight shape");
	int64_t lss, rows;
	if (seq_dims(&b, &l, q, d) < 0 || seq_dims(&bk, &s, k, d) < 0 || bk != b ||
	    !weight_2d(qkvw, 3 * d, d) || !weight_2d(pw, d, d))
		return tlc_rules__bad(out, host, "shapes do not fit embed_dim");
	int need = 1, avg = 1;
	int brc = tlc_rules__bool_arg_or(&need, op, host, 10, "need_weights", 1);
	if (brc == 0)
		brc = tlc_rules__bool_arg_or(&avg, op, host, 11, "average_attn_weights", 1);
	if (brc < 0)
		return tlc_rules__arg_fail(out, host, op, brc, "need_weights/average_attn_weights",
		                           "need_weights/average_attn_weights are not bools");
	int64_t per = ATTN_FWD_PER_PAIR + (host->tensor_arg(op, 9, "mask") ? 1 : 0) +
	              (need && avg ? 1 : 0);
	/* q over B*L rows, k and v over B*S rows, each [D, D] of the packed weight */
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	tlc_rules__term_mul(&t, b);
	if (__builtin_mul_overflow(s, 2, &lss) || __builtin_add_overflow(lss, l, &lss) ||
	    __builtin_mul_overflow(b, l, &rows))
		return tlc_rules__bad(out, host, "sequence sizes overflow");
	tlc_rules__term_mul(&t, lss);
	tlc_rules__term_mul(&t, d);
	if ((rc = qkvb ? tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 1, &t) : 0) < 0)
		return rc;
	tlc_rules__term_mul(&t, d);
	if ((rc = tlc_rules__term_add(out, host, TLC_FIELD_MACS, 1, &t)) < 0 ||
	    (rc = mha_core(out, host, b, l, s, d, h, per)) < 0 ||
	    (rc = proj_cost(out, host, rows, pw, pb)) < 0 ||
	    (rc = host->read_inputs(out, op)) < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	/* the output, and the attention weights when asked for: [B, L, S]
	 * averaged, else [B, H, L, S] (no B when unbatched) */
	size_t skip = q->ndim == 2;
	int64_t shape[3] = { b, l, d }, wavg[3] = { b, l, s }, wall[4] = { b, h, l, s };
	rc = tlc_rules__write_shape(out, host, shape + skip, 3 - skip, q->dtype);
	if (rc == 0 && need)
		rc = avg ? tlc_rules__write_shape(out, host, wavg + skip, 3 - skip, q->dtype)
		         : tlc_rules__write_shape(out, host, wall + skip, 4 - skip, q->dtype);
	return rc;
}

/* _transformer_encoder_layer_fwd(src, embed_dim, num_heads, qkv_weight,
 * qkv_bias, proj_weight, proj_bias, use_gelu, norm_first, eps, norm_weight_1,
 * norm_bias_1, norm_weight_2, norm_bias_2, ffn_weight_1, ffn_bias_1,
 * ffn_weight_2, ffn_bias_2, mask, mask_type): self-attention block, two
 * layer norms, two residual adds and the feed-forward block. */
static int encoder_extras(tlc_cost *out, const tlc_op *op, const tlc_host *host, int64_t t_rows,
                          int64_t d, int64_t f)
{
	int gelu = 0;
	int grc = tlc_rules__bool_arg_or(&gelu, op, host, 7, "use_gelu", 0);
	if (grc < 0)
		return tlc_rules__arg_fail(out, host, op, grc, "use_gelu", "use_gelu is not a bool");
	/* per token: 2 layer norms over D (as the norm rules: +1 per element for
	 * each of weight and bias), 2 residual adds over D, activation over F */
	static const char *affine[4] = { "norm_weight_1", "norm_bias_1", "norm_weight_2",
	                                 "norm_bias_2" };
	int64_t per_d = 2 * TLC_RULES_K_LAYER_NORM + 2;
	for (size_t i = 0; i < 4; i++)
		per_d += host->tensor_arg(op, 10 + i, affine[i]) != NULL;
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	tlc_rules__term_mul(&t, t_rows);
	tlc_rules_term td = t;
	tlc_rules__term_mul(&td, d);
	int rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, per_d, &td);
	tlc_rules__term_mul(&t, f);
	if (rc == 0)
		rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS,
		                         gelu ? TLC_RULES_K_GELU : TLC_RULES_K_RELU, &t);
	return rc;
}

static int rule_encoder_layer(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *src = host->tensor_arg(op, 0, "src");
	const tlc_tensor *qkvw = host->tensor_arg(op, 3, "qkv_weight");
	const tlc_tensor *pw = host->tensor_arg(op, 5, "proj_weight");
	const tlc_tensor *w1 = host->tensor_arg(op, 14, "ffn_weight_1");
	const tlc_tensor *w2 = host->tensor_arg(op, 16, "ffn_weight_2");
	int64_t d, h, b, l;
	int rc = mha_heads(out, &d, &h, op, host, 1, 2);
	if (rc < 0)
		return rc;
	if (!src || !qkvw || !pw || !w1 || !w2)
		return tlc_rules__missing(out, host, "missing src or a weight shape");
	if (seq_dims(&b, &l, src, d) < 0 || !weight_2d(qkvw, 3 * d, d) || !weight_2d(pw, d, d) ||
	    !weight_2d(w1, -1, d) || !weight_2d(w2, d, w1->shape[0]))
		return tlc_rules__bad(out, host, "weights do not fit embed_dim");
	int64_t per = ATTN_FWD_PER_PAIR + (host->tensor_arg(op, 18, "mask") ? 1 : 0);
	int64_t rows;
	if (__builtin_mul_overflow(b, l, &rows))
		return tlc_rules__bad(out, host, "sequence sizes overflow");
	if ((rc = proj_cost(out, host, rows, qkvw, host->tensor_arg(op, 4, "qkv_bias"))) < 0 ||
	    (rc = mha_core(out, host, b, l, l, d, h, per)) < 0 ||
	    (rc = proj_cost(out, host, rows, pw, host->tensor_arg(op, 6, "proj_bias"))) < 0 ||
	    (rc = proj_cost(out, host, rows, w1, host->tensor_arg(op, 15, "ffn_bias_1"))) < 0 ||
	    (rc = proj_cost(out, host, rows, w2, host->tensor_arg(op, 17, "ffn_bias_2"))) < 0 ||
	    (rc = encoder_extras(out, op, host, rows, d, w1->shape[0])) < 0 ||
	    (rc = host->read_inputs(out, op)) < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	return tlc_rules__write_shape(out, host, src->shape, src->ndim, src->dtype);
}

/* _transform_bias_rescale_qkv(qkv [B, T, 3D], qkv_bias [3D], num_heads): bias
 * add over all of qkv, then q scaled by 1/sqrt(D/H). */
/* aiter's paged_attention_ragged launcher (aiter/ops/attention.py and
 * csrc/cpp_itfs/pa/pa_ragged.py) as SGLang's kernel_shape_profiler records
 * it: the custom op sglang_profiler::attention_paged_attention_ragged_<n>
 * with the launcher's tensor arguments in order: out [S, H, E], workspace,
 * query [S, H, E], key_cache, value_cache, kv_indptr [S + 1],
 * kv_page_indices, kv_last_page_lens, alibi_slopes, k_scale, v_scale,
 * fp8_out_scale. Each of the S sequences attends with its H query heads
 * over its own context: QK^T and PV are H*E MACs each per (sequence,
 * context token). The context lengths are the contents of kv_indptr (page
 * counts) and kv_last_page_lens, which no trace records, and the shapes
 * bound nothing useful (kv_page_indices is a preallocated buffer), so the
 * op is unknown, with the per-token figure stated as text, never as a
 * value. */
/* Attention whose work is set by tensor contents or by state outside the
 * call (the sequence and context lengths): partly known. MACs, the softmax
 * FLOPs and the K/V reads depend on the lengths and are missing; the
 * output [tokens, Hq, Ev], written once, is determined and counted. The
 * cause states the per-(query token, key) figure Hq*(E+Ev) as text, never
 * as a value. A host without cost_set_missing (a plugin host older than
 * partly known ops) gets missing_args with the same text. */
static int lengths_unknown(tlc_cost *out, const tlc_host *host, const int64_t *oshape,
                           tlc_dtype odt, int64_t hq, int64_t e, int64_t ev,
                           const char *what, const char *where)
{
	int64_t per;
	if (__builtin_add_overflow(e, ev, &per) || __builtin_mul_overflow(per, hq, &per))
		return tlc_rules__bad(out, host, "query shape overflows");
	char why[256];
	snprintf(why, sizeof why,
	         "%s: Hq*(E+Ev) = %lld MACs per (query token, key it sees), K and V read once "
	         "per key; the lengths are %s, which no trace records: the output is counted, "
	         "the rest unknown",
	         what, (long long)per, where);
	if (!TLC_HOST_HAS(host, cost_set_missing))
		return tlc_rules__missing(out, host, "%s", why);
	int rc = tlc_rules__write_shape(out, host, oshape, 3, odt);
	if (rc < 0)
		return rc;
	host->cost_explain(out, why);
	host->cost_set_missing(out, TLC_FIELD_MACS);
	host->cost_set_missing(out, TLC_FIELD_OTHER_FLOPS);
	host->cost_set_missing(out, TLC_FIELD_BYTES_READ);
	return TLC_RULE_OK;
}

/* aiter's paged_attention_ragged launcher (aiter/ops/attention.py and
 * csrc/cpp_itfs/pa/pa_ragged.py) as SGLang's kernel_shape_profiler records
 * it: the custom op sglang_profiler::attention_paged_attention_ragged_<n>
 * with the launcher's tensor arguments in order: out [S, H, E], workspace,
 * query [S, H, E], key_cache, value_cache, kv_indptr [S + 1],
 * kv_page_indices, kv_last_page_lens, alibi_slopes, k_scale, v_scale,
 * fp8_out_scale. Each of the S sequences attends with its H query heads
 * over its own context: QK^T and PV are H*E MACs each per (sequence,
 * context token). The context lengths are the contents of kv_indptr (page
 * counts) and kv_last_page_lens, which no trace records, and the shapes
 * bound nothing useful (kv_page_indices is a preallocated buffer): partly
 * known, out [S, H, E] written. */
static int rule_paged_attention_ragged(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                                       void *payload)
{
	(void)payload;
	const tlc_tensor *q = host->tensor_arg(op, 2, "query");
	const tlc_tensor *o = host->tensor_arg(op, 0, "out");
	if (!q || q->ndim != 3 || !o || o->ndim != 3)
		return tlc_rules__missing(out, host, "out and query [num_seqs, heads, head_size] not recorded");
	return lengths_unknown(out, host, o->shape, o->dtype, q->shape[1], q->shape[2], q->shape[2],
	                       "paged decode attention",
	                       "the contents of kv_indptr and kv_last_page_lens");
}

/* aiter::mha_batch_prefill(q [total_q, Hq, E], k, v [total_k, Hk, E/Ev] (or
 * the paged 5-D layouts), cu_seqlens_q [b+1], kv_indptr [b+1],
 * kv_page_indices, max_seqlen_q, max_seqlen_k, p_dropout, softmax_scale,
 * logits_soft_cap, zero_tensors, is_causal, window_size_left,
 * window_size_right, return_softmax_lse, return_dropout_randval, out_, bias_,
 * alibi_slopes_, gen_, ...) (csrc/include/torch/mha_batch_prefill.h): the
 * variable-length prefill over a paged KV cache; out [total_q, Hq, Ev] in
 * q's dtype. Which keys each query sees is set by the contents of
 * cu_seqlens_q and kv_indptr. Ev is v's head size where v is 3-D, else E. */
static int rule_mha_batch_prefill(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                                  void *payload)
{
	(void)payload;
	const tlc_tensor *q = host->tensor_arg(op, 0, "q");
	const tlc_tensor *v = host->tensor_arg(op, 2, "v");
	if (!q || q->ndim != 3)
		return tlc_rules__missing(out, host, "q [total_q, heads, head_size] not recorded");
	int64_t ev = v && v->ndim == 3 ? v->shape[2] : q->shape[2];
	int64_t os[3] = { q->shape[0], q->shape[1], ev };
	return lengths_unknown(out, host, os, q->dtype, q->shape[1], q->shape[2], ev,
	                       "paged variable-length prefill attention",
	                       "the contents of cu_seqlens_q and kv_indptr");
}

static int rule_transform_qkv(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *qkv = host->tensor_arg(op, 0, "qkv");
	if (!qkv || !host->tensor_arg(op, 1, "qkv_bias"))
		return tlc_rules__missing(out, host, "missing qkv or qkv_bias shape");
	if (qkv->ndim != 3 || qkv->shape[2] % 3)
		return tlc_rules__bad(out, host, "qkv must be [B, T, 3D]");
	tlc_rules_term t;
	tlc_rules__term_init(&t);
	tlc_rules__term_mul(&t, qkv->shape[0]);
	tlc_rules__term_mul(&t, qkv->shape[1]);
	tlc_rules__term_mul(&t, qkv->shape[2] / 3);
	int rc = tlc_rules__term_add(out, host, TLC_FIELD_OTHER_FLOPS, 4, &t);
	if (rc == 0)
		rc = host->read_inputs(out, op);
	if (rc < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	return tlc_rules__write_shape(out, host, qkv->shape, qkv->ndim, qkv->dtype);
}

/*                      q layout       causal align                 mtype mask name        drop cu  bwd */
static const attn_spec spec_sdpa = { 0, LAYOUT_BHLE, 5, ALIGN_TOP_LEFT, NO, 3, "attn_mask", 4, NO, 0, 0, 0, 0, 0 };
static const attn_spec spec_flash = { 0, LAYOUT_BHLE, 4, ALIGN_BOTTOM_RIGHT, NO, NO, NULL, 3, NO, 0, 0, 0, 0, 0 };
static const attn_spec spec_flash_cpu = { 0, LAYOUT_BHLE, 4, ALIGN_TOP_LEFT, NO, NO, "attn_mask", 3, NO, 0, 0, 0, 0, 0 };
static const attn_spec spec_eff = { 0, LAYOUT_BHLE, 6, ALIGN_TOP_LEFT, NO, 3, "attn_bias", 5, NO, 0, 0, 0, 0, 0 };
static const attn_spec spec_flash_fwd = { 0, LAYOUT_BLHE, 8, ALIGN_BOTTOM_RIGHT, NO, NO, NULL, 7, 3, 0, 0, 0, 0, 0 };
static const attn_spec spec_eff_fwd = { 0, LAYOUT_BLHE, NO, 0, 9, 3, "bias", 8, 4, 0, 0, 0, 0, 0 };
static const attn_spec spec_flash_bwd = { 1, LAYOUT_BHLE, 11, ALIGN_BOTTOM_RIGHT, NO, NO, NULL, 10, NO, 1, 0, 0, 0, 0 };
static const attn_spec spec_flash_cpu_bwd = { 1, LAYOUT_BHLE, 7, ALIGN_TOP_LEFT, NO, NO, "attn_mask", 6, NO, 1, 0, 0, 0, 0 };
static const attn_spec spec_eff_bwd = { 1, LAYOUT_BHLE, 11, ALIGN_TOP_LEFT, NO, 4, "attn_bias", 9, NO, 1, 0, 0, 0, 0 };
/* _scaled_dot_product_fused_attention_overrideable_backward(grad_out, query,
 * key, value, attn_bias, grad_input_mask, out, logsumexp, cum_seq_q, cum_seq_k,
 * max_q, max_k, dropout_p, is_causal, philox_seed, philox_offset, *, scale)
 * (torch >= 2.5, the PrivateUse1/XPU backend's backward): top-left like its
 * forward's spec_sdpa */
static const attn_spec spec_overrideable_bwd = { 1, LAYOUT_BHLE, 13, ALIGN_TOP_LEFT, NO, 4, "attn_bias", 12, NO, 1, 0, 0, 0, 0 };
/* flash-attn >= 2.6 (flash_attn/flash_attn_interface.py, torch.library custom
 * ops): _flash_attn_forward(q, k, v, dropout_p, softmax_scale, causal,
 * window_size_left, window_size_right, softcap, alibi_slopes, return_softmax),
 * q [B, L, H, E], k/v [B, S, Hk, E/Ev]; _flash_attn_backward(dout, q, k, v,
 * out, softmax_lse, dq, dk, dv, dropout_p, softmax_scale, causal,
 * window_size_left, window_size_right, softcap, alibi_slopes, deterministic,
 * rng_state). Causal is aligned to the bottom-right corner (the docstring of
 * flash_attn_func) and sets window_size_right to 0 (csrc mha_fwd). */
static const attn_spec spec_fa_fwd = { 0, LAYOUT_BLHE, 5, ALIGN_BOTTOM_RIGHT, NO, NO, NULL, 3, NO, 0, 6, 8, 9, 0 };
static const attn_spec spec_fa_bwd = { 1, LAYOUT_BLHE, 11, ALIGN_BOTTOM_RIGHT, NO, NO, NULL, 9, NO, 1, 12, 14, 15, 6 };
/* _flash_attn_varlen_forward(q, k, v, cu_seqlens_q, ...) and
 * _flash_attn_varlen_backward(dout, q, k, v, out, softmax_lse, dq, dk, dv,
 * cu_seqlens_q, ...): q [total_q, H, E]; the per-sequence lengths are the
 * contents of cu_seqlens_q/k, which no trace records: always unknown, with
 * that cause (attn_shapes), never a guess. */
static const attn_spec spec_fa_varlen_fwd = { 0, LAYOUT_BLHE, NO, 0, NO, NO, NULL, NO, 3, 0, 0, 0, 0, 0 };
static const attn_spec spec_fa_varlen_bwd = { 1, LAYOUT_BLHE, NO, 0, NO, NO, NULL, NO, 9, 1, 0, 0, 0, 0 };
/* xformers' flash operator (xformers/ops/fmha/flash.py, torch.library custom
 * ops): flash_fwd(query, key, value, cu_seqlens_q, cu_seqlens_k, seqused_k,
 * max_seqlen_q, max_seqlen_k, p, softmax_scale, is_causal, window_left,
 * window_right, return_softmax, block_tables) and flash_bwd(
 * grads_share_storage, grad, query, key, value, out, lse, cu_seqlens_q,
 * cu_seqlens_k, max_seqlen_q, max_seqlen_k, p, softmax_scale, is_causal,
 * window_left, window_right, rng_state) -> (dq, dk, dv): FlashAttention-2,
 * [B, M, H, K], causal bottom-right (xformers refuses a top-left mask
 * unless M == N, _check_needs_no_topleft); with cu_seqlens_q (a
 * block-diagonal bias) the batch is variable-length: unknown. */
static const attn_spec spec_xf_fwd = { 0, LAYOUT_BLHE, 10, ALIGN_BOTTOM_RIGHT, NO, NO, NULL, 8, 3, 0, 11, 0, 0, 0 };
static const attn_spec spec_xf_bwd = { 2, LAYOUT_BLHE, 13, ALIGN_BOTTOM_RIGHT, NO, NO, NULL, 11, 7, 1, 14, 0, 0, 0 };
static const attn_spec spec_cudnn_bwd = { 1, LAYOUT_BHLE, 14, ALIGN_TOP_LEFT, NO, 8, "attn_bias", 13, NO, 1, 0, 0, 0, 0 };
static const attn_spec spec_flash_fwd_bwd = { 1, LAYOUT_BLHE, 11, ALIGN_BOTTOM_RIGHT, NO, NO, NULL, 10, 6, 1, 0, 0, 0, 0 };
static const attn_spec spec_eff_fwd_bwd = { 1, LAYOUT_BLHE, NO, 0, 14, 4, "bias", 11, 6, 1, 0, 0, 0, 0 };

#define P(x) ((const void *)&(x))
#define EST TLC_RULE_COST, TLC_EVIDENCE_ESTIMATED
#define FWD_NOTE "macs = batch*pairs*(E+Ev), pairs exact under causal masks; other = 6 per pair (scale + softmax 5, estimated)"
#define BWD_NOTE "macs = batch*pairs*(3E+2Ev) + batch*L*Ev (recompute QK^T, dV, dP, dQ, dK, rowsum dO*O); other = 6 per pair (estimated)"
static const tlc_rules_entry attention_rules[] = {
	{ "aten::scaled_dot_product_attention", EST, rule_attention, P(spec_sdpa), FWD_NOTE "; is_causal top-left" },
	{ "aten::_scaled_dot_product_attention_math", EST, rule_attention, P(spec_sdpa), FWD_NOTE "; is_causal top-left" },
	{ "aten::_scaled_dot_product_fused_attention_overrideable", EST, rule_attention, P(spec_sdpa), FWD_NOTE },
	/* torch >= 2.5: (query, key, value, attn_mask=None, dropout_p=0., is_causal=False,
	 * dropout_mask=None, *, scale=None) -> (out, attn): sdpa's argument order */
	{ "aten::_scaled_dot_product_attention_math_for_mps", EST, rule_attention, P(spec_sdpa),
	  FWD_NOTE "; is_causal top-left (the math path's tril mask)" },
	{ "aten::_scaled_dot_product_flash_attention", EST, rule_attention, P(spec_flash),
	  FWD_NOTE "; is_causal bottom-right (FlashAttention-2)" },
	{ "aten::_scaled_dot_product_flash_attention_for_cpu", EST, rule_attention, P(spec_flash_cpu),
	  FWD_NOTE "; is_causal top-left" },
	{ "aten::_scaled_dot_product_efficient_attention", EST, rule_attention, P(spec_eff), FWD_NOTE "; is_causal top-left" },
	{ "aten::_scaled_dot_product_cudnn_attention", EST, rule_attention, P(spec_eff), FWD_NOTE "; is_causal top-left" },
	{ "aten::_flash_attention_forward", EST, rule_attention, P(spec_flash_fwd),
	  FWD_NOTE "; [B,L,H,E]; is_causal bottom-right; window sizes exact" },
	{ "aten::_efficient_attention_forward", EST, rule_attention, P(spec_eff_fwd),
	  FWD_NOTE "; [B,L,H,E]; custom_mask_type 1 top-left, 2 bottom-right" },
	{ "aten::_scaled_dot_product_flash_attention_backward", EST, rule_attention, P(spec_flash_bwd), BWD_NOTE },
	{ "aten::_scaled_dot_product_flash_attention_for_cpu_backward", EST, rule_attention, P(spec_flash_cpu_bwd), BWD_NOTE },
	{ "aten::_scaled_dot_product_efficient_attention_backward", EST, rule_attention, P(spec_eff_bwd), BWD_NOTE },
	{ "aten::_scaled_dot_product_cudnn_attention_backward", EST, rule_attention, P(spec_cudnn_bwd), BWD_NOTE },
	{ "aten::_scaled_dot_product_fused_attention_overrideable_backward", EST, rule_attention,
	  P(spec_overrideable_bwd), BWD_NOTE "; is_causal top-left" },
	{ "aten::_flash_attention_backward", EST, rule_attention, P(spec_flash_fwd_bwd), BWD_NOTE "; [B,L,H,E]" },
	{ "aten::_efficient_attention_backward", EST, rule_attention, P(spec_eff_fwd_bwd), BWD_NOTE "; [B,L,H,E]" },
	{ "flash_attn::_flash_attn_forward", EST, rule_attention, P(spec_fa_fwd),
	  FWD_NOTE "; flash-attn 2 custom op, [B,L,H,E]; causal bottom-right; window sizes exact; "
	  "softcap or ALiBi: unknown" },
	{ "flash_attn::_flash_attn_backward", EST, rule_attention, P(spec_fa_bwd),
	  BWD_NOTE "; flash-attn 2 custom op, [B,L,H,E]; dq, dk, dv written, not read; "
	  "softcap or ALiBi: unknown" },
	{ "flash_attn::_flash_attn_varlen_forward", EST, rule_attention, P(spec_fa_varlen_fwd),
	  "variable-length batch: the sequence lengths are cu_seqlens contents, not recorded: unknown" },
	{ "flash_attn::_flash_attn_varlen_backward", EST, rule_attention, P(spec_fa_varlen_bwd),
	  "variable-length batch: the sequence lengths are cu_seqlens contents, not recorded: unknown" },
	{ "xformers_flash::flash_fwd", EST, rule_attention, P(spec_xf_fwd),
	  FWD_NOTE "; xformers' flash op, [B,M,H,K]; causal bottom-right; windows exact; varlen unknown" },
	{ "xformers_flash::flash_bwd", EST, rule_attention, P(spec_xf_bwd),
	  BWD_NOTE "; xformers' flash op, [B,M,H,K]; varlen unknown" },
	{ "aiter::mha_batch_prefill", EST, rule_mha_batch_prefill, NULL,
	  "partly known: the output is counted; MACs, softmax and K/V reads depend on the "
	  "contents of cu_seqlens_q and kv_indptr (the cause states the per-pair figure)" },
	{ "sglang_profiler::attention_paged_attention_ragged_*", EST, rule_paged_attention_ragged, NULL,
	  "aiter paged_attention_ragged launcher as SGLang's kernel_shape_profiler records it: "
	  "partly known: out is counted; the context lengths are kv_indptr contents, not "
	  "recorded" },
	{ "aten::_fused_sdp_choice", TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
	  "backend selection query: no arithmetic, no data" },
	{ "aten::_transform_bias_rescale_qkv", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT,
	  rule_transform_qkv, NULL, "other = B*T*3D bias adds + B*T*D q scaling" },
	{ "aten::_native_multi_head_attention", EST, rule_native_mha, NULL,
	  "macs = B*(L+2S)*D*D (qkv) + 2*B*L*S*D (QK^T, PV) + B*L*D*D (out proj), as the decomposed path" },
	{ "aten::_transformer_encoder_layer_fwd", EST, rule_encoder_layer, NULL,
	  "macs = T*D*3D + 2*B*L*L*D + T*D*D + 2*T*D*F (T = B*L), as the decomposed path; norms/activation estimated" },
};
#undef BWD_NOTE
#undef FWD_NOTE
#undef EST
#undef P

int tlc_rules__attention_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, attention_rules,
	                                 TLC_RULES_COUNT(attention_rules));
}
