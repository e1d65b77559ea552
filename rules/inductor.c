/* Inductor-generated Triton kernels (torch.compile), as a Kineto trace
 * records them: a cpu_op row named after the kernel (triton_poi_fused_...,
 * read as kineto::triton with the whole name as the overload, docs/kineto.md)
 * whose arguments are the kernel's launch arguments: its tensor buffers in
 * signature order, then the numel scalars (xnumel, r0_numel).
 *
 * What the record determines (issue 26 item 3):
 *  - The name: triton_<category>_fused_<ops>_<n>. The category is the
 *    codegen kind (poi pointwise, red reduction, per persistent reduction,
 *    tem template); <ops> is, with Inductor's default
 *    config.triton.descriptive_names = "original_aten", the sorted set of
 *    the ATen ops the kernel was lowered from, joined by '_'
 *    (torch/_inductor/utils.py, get_fused_kernel_name). The name says which
 *    ops were fused, not how often each is applied.
 *  - The buffers' shapes and dtypes, but not which the kernel reads, writes,
 *    or reads and writes (its in_ptr / out_ptr / in_out_ptr roles live in the
 *    generated source, not in the trace).
 *
 * So a pointwise or reduction kernel is partly known (contract: "Partly known
 * ops"): MACs = 0 when no fused op is a matrix product (the eager rules of
 * those ops count no MACs either), other_flops and both byte terms missing,
 * with the buffers' total T stated as text (the traffic is between T and 2T
 * when each buffer is touched whole: never counted as a value). A template
 * GEMM (triton_tem_fused_mm_N, bmm, addmm, baddbmm) has its MACs from its A
 * and B buffers (Inductor's mm templates open with def_kernel("A", "B"),
 * after addmm's bias, a prefix argument: torch/_inductor/kernel/mm.py,
 * select_algorithm.py); a plain mm/bmm template with exactly A, B and the
 * output buffer is exact: M*K*N MACs, reads A and B, writes C. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "rules.h"
#include "util.h"

#define NAME_HOW \
	"the kernel's arithmetic is generated code the trace does not record; count " \
	"the model in eager mode with an op log (python3 -m tlcost capture), or register " \
	"a rule for kineto::triton.<kernel name> from the kernel source"

/* Substrings of ATen op names that may carry MACs (matrix products,
 * convolutions, attention): a fused kernel naming one has its MACs missing. */
static const char *const contraction[] = {
	"mm", "conv", "dot", "linear", "einsum", "matmul", "mv", "attention", "flex",
	"lstm", "gru", "rnn", "cdist", "tensordot",
};

typedef struct kname {
	char cat[4];      /* "poi", "red", "per", "tem", ... */
	const char *ops;  /* start of the fused op list, NULL when none */
	size_t nops;      /* its length (without the trailing _<n>) */
} kname;

/* triton_<cat>_fused_<ops>_<digits>; 0 when the name has that form (ops may
 * still be NULL: "triton_poi_0" when descriptive names are off). */
static int parse_name(kname *k, const char *s)
{
	memset(k, 0, sizeof *k);
	if (!s || strncmp(s, "triton_", 7) != 0 || strlen(s) < 11 || s[10] != '_')
		return -1;
	memcpy(k->cat, s + 7, 3);
	const char *rest = s + 11;
	const char *end = rest + strlen(rest);
	const char *u = strrchr(rest, '_');
	/* the kernel suffix: _<digits> at the end */
	if (u && u[1]) {
		const char *p = u + 1;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '\0')
			end = u;
	}
	if (strncmp(rest, "fused_", 6) == 0 && rest + 6 < end) {
		k->ops = rest + 6;
		k->nops = (size_t)(end - k->ops);
	}
	return 0;
}

static int ops_contain(const kname *k, const char *sub)
{
	size_t n = strlen(sub);
	for (size_t i = 0; k->ops && i + n <= k->nops; i++)
		if (memcmp(k->ops + i, sub, n) == 0)
			return 1;
	return 0;
}

/* The '_'-separated token `tok` occurs in the op list as a whole word. */
static int ops_token(const kname *k, const char *tok)
{
	size_t n = strlen(tok);
	for (size_t i = 0; k->ops && i + n <= k->nops; i++)
		if (memcmp(k->ops + i, tok, n) == 0 && (i == 0 || k->ops[i - 1] == '_') &&
		    (i + n == k->nops || k->ops[i + n] == '_'))
			return 1;
	return 0;
}

static int ops_equal(const kname *k, const char *s)
{
	return k->ops && k->nops == strlen(s) && memcmp(k->ops, s, k->nops) == 0;
}

/* The op's tensor arguments, in order (at most cap). */
static size_t tensors_of(const tlc_tensor **t, size_t cap, const tlc_op *op)
{
	size_t n = 0;
	for (size_t i = 0; i < op->nargs; i++) {
		const tlc_tensor *x = tlc_rules__tensor(&op->args[i]);
		if (x && n < cap)
			t[n++] = x;
		else if (x)
			n++;
	}
	return n;
}

/* Total bytes of the tensors into *sum; -1 when an element size is unknown
 * or the sum overflows (then no figure is stated). */
static int total_bytes(uint64_t *sum, const tlc_tensor *const *t, size_t n)
{
	*sum = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t b = tlc_dtype_size(t[i]->dtype);
		if (!b)
			return -1;
		for (size_t d = 0; d < t[i]->ndim; d++)
			if (__builtin_mul_overflow(b, (uint64_t)t[i]->shape[d], &b))
				return -1;
		if (__builtin_add_overflow(*sum, b, sum) || *sum > UINT64_MAX / 2)
			return -1;
	}
	return 0;
}

/* The ops for a message (the ledger keeps 255 characters of a cause). */
#define OPS_SHOWN(k) (int)((k)->nops > 48 ? 48 : (k)->nops), (k)->ops, ((k)->nops > 48 ? "..." : "")

static const char *cat_text(const kname *k)
{
	if (strcmp(k->cat, "poi") == 0)
		return "pointwise";
	if (strcmp(k->cat, "red") == 0)
		return "reduction";
	if (strcmp(k->cat, "per") == 0)
		return "persistent-reduction";
	return NULL;
}

/* A pointwise or reduction kernel: partly known (MACs 0) or unknown. */
static int fused_kernel(tlc_cost *out, const tlc_op *op, const tlc_host *host, const kname *k,
                        const char *what)
{
	const tlc_tensor *t[64];
	size_t n = tensors_of(t, 64, op);
	int macs = !!k->ops;
	for (size_t i = 0; macs && i < TLC_RULES_COUNT(contraction); i++)
		if (ops_contain(k, contraction[i]))
			macs = 0;
	if (!macs || !TLC_HOST_HAS(host, cost_set_missing))
		return tlc_rules__missing(out, host, "Inductor %s kernel%s: %s", what,
		                          k->ops ? " fusing a matrix product, convolution or "
		                                   "attention" : " without the fused ops in its name",
		                          NAME_HOW);
	/* the cause, as the ledger shows it (255 characters at most) */
	char why[256], tot[128] = "";
	uint64_t sum;
	if (n <= 64 && total_bytes(&sum, t, n) == 0)
		snprintf(tot, sizeof tot, " (%" PRIu64 " B: traffic %" PRIu64 "..%" PRIu64
		         " B if each is touched whole)", sum, sum, 2 * sum);
	snprintf(why, sizeof why,
	         "Inductor %s kernel fusing %.*s%s: MACs 0 (no matrix product); other_flops: "
	         "generated code; bytes: the roles of its %zu buffers are not recorded%s",
	         what, OPS_SHOWN(k), n, tot);
	host->cost_explain(out, why);
	host->cost_set_missing(out, TLC_FIELD_OTHER_FLOPS);
	host->cost_set_missing(out, TLC_FIELD_BYTES_READ);
	host->cost_set_missing(out, TLC_FIELD_BYTES_WRITTEN);
	return TLC_RULE_OK;
}

/* M, K, N (and batch) of A [.., M, K] and B [.., K, N]; -1 when they do not
 * fit an mm (bmm: 3-D with equal batch). */
static int gemm_dims(int64_t d[4], const tlc_tensor *a, const tlc_tensor *b, int batched)
{
	size_t nd = batched ? 3 : 2;
	if (!a || !b || a->ndim != nd || b->ndim != nd)
		return -1;
	if (batched && a->shape[0] != b->shape[0])
		return -1;
	d[0] = batched ? a->shape[0] : 1;
	d[1] = a->shape[nd - 2];
	d[2] = a->shape[nd - 1];
	d[3] = b->shape[nd - 1];
	return b->shape[nd - 2] == d[2] ? 0 : -1;
}

/* FlexAttention's template (triton_tem_fused_flex_attention_N and its
 * backward, torch >= 2.5; torch/_inductor/kernel/flex_attention.py opens with
 * def_kernel("Q", "K", "V", ...)): the (query, key) blocks it computes are
 * the block mask's kv_num_blocks / kv_indices contents, which no trace
 * records, and score_mod / mask_mod are generated code. Unknown; the cause
 * states the dense bound as text (the SDPA rules' per-pair MACs: E + Ev
 * forward, 3E + 2Ev backward, rules/attention.c). */
static int flex_kernel(tlc_cost *out, const tlc_host *host, const tlc_tensor *const *t,
                       size_t n, int backward)
{
	char bound[160] = "";
	if (n >= 3 && t[0]->ndim == 4 && t[1]->ndim == 4 && t[2]->ndim == 4 &&
	    t[0]->shape[0] == t[1]->shape[0] && t[0]->shape[3] == t[1]->shape[3] &&
	    t[1]->shape[2] == t[2]->shape[2]) {
		int64_t e = t[0]->shape[3], ev = t[2]->shape[3], per, pv, m = 0;
		if (!__builtin_mul_overflow(backward ? 3 : 1, e, &per) &&
		    !__builtin_mul_overflow(backward ? 2 : 1, ev, &pv) &&
		    !__builtin_add_overflow(per, pv, &per) &&
		    !__builtin_mul_overflow(t[0]->shape[0], t[0]->shape[1], &m) &&
		    !__builtin_mul_overflow(m, t[0]->shape[2], &m) &&
		    !__builtin_mul_overflow(m, t[1]->shape[2], &m) &&
		    !__builtin_mul_overflow(m, per, &m))
			snprintf(bound, sizeof bound, "; with Q, K, V its first buffers, MACs <= "
			         "%" PRId64 " (every pair, B*Hq*L*S*(%s)), a bound never counted", m,
			         backward ? "3E+2Ev" : "E+Ev");
	}
	return tlc_rules__missing(out, host, "FlexAttention %s template: the blocks it computes "
	                          "are the block mask's contents (kv_num_blocks, kv_indices), "
	                          "which no trace records%s", backward ? "backward" : "forward",
	                          bound);
}

/* A template kernel: a GEMM template's MACs from its A and B buffers. */
static int template_kernel(tlc_cost *out, const tlc_op *op, const tlc_host *host, const kname *k)
{
	const tlc_tensor *t[64];
	size_t n = tensors_of(t, 64, op);
	/* which GEMM: exactly one of mm / bmm / addmm / baddbmm as a whole token
	 * (the int8 and scaled mms are other templates) */
	int mm = ops_token(k, "mm") && !ops_contain(k, "int_mm") && !ops_contain(k, "scaled_mm");
	int bmm = ops_token(k, "bmm"), addmm = ops_token(k, "addmm");
	int baddbmm = ops_token(k, "baddbmm");
	int kinds = mm + bmm + addmm + baddbmm;
	int batched = bmm || baddbmm, prefix = addmm || baddbmm;
	int64_t d[4];
	if (ops_contain(k, "flex_attention"))
		return flex_kernel(out, host, t, n < 64 ? n : 64, ops_contain(k, "backward"));
	if (!k->ops || kinds != 1 || ops_contain(k, "conv") || ops_contain(k, "attention") ||
	    ops_contain(k, "flex") || n > 64 || n < (size_t)(2 + prefix) ||
	    gemm_dims(d, t[prefix], t[prefix + 1], batched) < 0 ||
	    !TLC_HOST_HAS(host, cost_set_missing))
		return tlc_rules__missing(out, host, "Inductor template kernel whose name and "
		                          "buffers do not show one mm, bmm, addmm or baddbmm with "
		                          "A [M,K] and B [K,N] where its template puts them: %s",
		                          NAME_HOW);
	int64_t f[4] = { d[0], d[1], d[2], d[3] };
	int rc = host->cost_add(out, TLC_FIELD_MACS, 1, 4, f);
	if (rc < 0)
		return rc;
	/* a plain mm / bmm template: A, B and the output C [.., M, N] only */
	const tlc_tensor *c = n == 3 ? t[2] : NULL;
	int plain = (ops_equal(k, "mm") || ops_equal(k, "bmm")) && c && c->ndim == t[0]->ndim &&
	            c->shape[c->ndim - 2] == d[1] && c->shape[c->ndim - 1] == d[3] &&
	            (!batched || c->shape[0] == d[0]);
	if (plain) {
		/* the tensor arguments in order: A and B read, C written */
		size_t seen = 0;
		for (size_t i = 0; i < op->nargs && rc >= 0; i++) {
			if (!tlc_rules__tensor(&op->args[i]))
				continue;
			rc = host->cost_add_bytes(out, seen < 2 ? TLC_FIELD_BYTES_READ :
			                          TLC_FIELD_BYTES_WRITTEN, &op->args[i]);
			seen++;
		}
		return rc < 0 ? rc : TLC_RULE_OK;
	}
	char why[256];
	snprintf(why, sizeof why,
	         "Inductor GEMM template fusing %.*s%s: MACs %s from A, B (exact); other_flops: "
	         "the epilogue%s is generated code; bytes: the roles of its %zu buffers are not "
	         "recorded", OPS_SHOWN(k), batched ? "B*M*K*N" : "M*K*N",
	         prefix ? " (bias term, fused ops)" : " (fused ops)", n);
	host->cost_explain(out, why);
	host->cost_set_missing(out, TLC_FIELD_OTHER_FLOPS);
	host->cost_set_missing(out, TLC_FIELD_BYTES_READ);
	host->cost_set_missing(out, TLC_FIELD_BYTES_WRITTEN);
	return TLC_RULE_OK;
}

static int rule_triton(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	kname k;
	if (parse_name(&k, op->overload) < 0)
		return tlc_rules__missing(out, host, "Inductor-generated Triton kernel whose name "
		                          "(the overload) is not triton_<kind>_...: %s", NAME_HOW);
	const char *what = cat_text(&k);
	if (what)
		return fused_kernel(out, op, host, &k, what);
	if (strcmp(k.cat, "tem") == 0)
		return template_kernel(out, op, host, &k);
	return tlc_rules__missing(out, host, "Inductor Triton kernel of kind '%s' (not pointwise, "
	                          "reduction or a GEMM template): %s", k.cat, NAME_HOW);
}

static const tlc_rules_entry inductor_rules[] = {
	{ "kineto::triton", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT, rule_triton, NULL,
	  "Inductor Triton kernel (kernel name is the overload): pointwise/reduction: MACs = 0 "
	  "when no fused op is a matrix product, other_flops and bytes missing (partly known); "
	  "mm/bmm template: MACs = (B*)M*K*N, plain mm exact" },
};

int tlc_rules__inductor_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, inductor_rules,
	                                 TLC_RULES_COUNT(inductor_rules));
}
