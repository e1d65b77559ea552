/* Weight-only quantized matrix products of ATen, as torchao and
 * gpt-fast call them (issue 26 item 2, torchao): the weight is packed
 * int4 (tinygemm) or int8 and dequantized inside the kernel.
 *
 *   _weight_int4pack_mm(Tensor self, Tensor mat2, int qGroupSize,
 *                       Tensor qScaleAndZeros) -> Tensor
 *   _weight_int4pack_mm_for_cpu(same)
 *     self [M, K]; mat2 the packed int4 weight (layout per device);
 *     qScaleAndZeros [K / qGroupSize, N, 2]; out [M, N] in self's dtype
 *     (aten/src/ATen/native/cuda/int4mm.cu, native/LinearAlgebra.cpp:
 *     TORCH_CHECK(qScaleAndZeros.size(1) == N)). MACs = M*N*K (exact);
 *     dequantization w = q * scale + zero: 2 per weight element, counted
 *     once (estimated: a kernel that dequantizes a weight again for
 *     another tile of rows does more).
 *   _weight_int8pack_mm(Tensor self, Tensor mat2, Tensor scales) -> Tensor
 *     self [M, K], mat2 int8 [N, K], scales [N]: out = (self @ mat2^T) *
 *     scales: MACs M*N*K, M*N scale multiplies (formula_exact). */
#include <stddef.h>
#include "rules.h"
#include "util.h"

static int out_bytes(tlc_cost *out, const tlc_op *op, const tlc_host *host, int64_t m,
                     int64_t n, tlc_dtype dt)
{
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	int64_t shape[2] = { m, n };
	return tlc_rules__write_shape(out, host, shape, 2, dt);
}

static int rule_int4pack(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *a = host->tensor_arg(op, 0, "self");
	const tlc_tensor *sz = host->tensor_arg(op, 3, "qScaleAndZeros");
	if (!a || !sz || !host->tensor_arg(op, 1, "mat2"))
		return tlc_rules__missing(out, host, "missing self, mat2 or qScaleAndZeros");
	if (a->ndim != 2 || sz->ndim != 3 || sz->shape[2] != 2)
		return tlc_rules__bad(out, host, "self must be [M, K] and qScaleAndZeros "
		                      "[K / qGroupSize, N, 2]");
	int64_t m = a->shape[0], k = a->shape[1], n = sz->shape[1];
	int64_t mac[3] = { m, n, k }, deq[2] = { n, k };
	int rc = host->cost_add(out, TLC_FIELD_MACS, 1, 3, mac);
	if (rc == 0)
		rc = host->cost_add(out, TLC_FIELD_OTHER_FLOPS, 2, 2, deq);
	if (rc == 0)
		rc = host->read_inputs(out, op);
	return rc < 0 ? rc : out_bytes(out, op, host, m, n, a->dtype);
}

static int rule_int8pack(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *a = host->tensor_arg(op, 0, "self");
	const tlc_tensor *w = host->tensor_arg(op, 1, "mat2");
	if (!a || !w || !host->tensor_arg(op, 2, "scales"))
		return tlc_rules__missing(out, host, "missing self, mat2 or scales");
	if (a->ndim != 2 || w->ndim != 2 || w->shape[1] != a->shape[1])
		return tlc_rules__bad(out, host, "self must be [M, K] and mat2 [N, K]");
	int64_t m = a->shape[0], k = a->shape[1], n = w->shape[0];
	int64_t mac[3] = { m, n, k }, scl[2] = { m, n };
	int rc = host->cost_add(out, TLC_FIELD_MACS, 1, 3, mac);
	if (rc == 0)
		rc = host->cost_add(out, TLC_FIELD_OTHER_FLOPS, 1, 2, scl);
	if (rc == 0)
		rc = host->read_inputs(out, op);
	return rc < 0 ? rc : out_bytes(out, op, host, m, n, a->dtype);
}

static const tlc_rules_entry quant_rules[] = {
	{ "aten::_weight_int4pack_mm", TLC_RULE_COST, TLC_EVIDENCE_ESTIMATED, rule_int4pack, NULL,
	  "macs = M*N*K (N = qScaleAndZeros.size(1)); other = 2*N*K dequantization (scale, zero), "
	  "once per weight element (estimated)" },
	{ "aten::_weight_int4pack_mm_for_cpu", TLC_RULE_COST, TLC_EVIDENCE_ESTIMATED, rule_int4pack,
	  NULL, "as aten::_weight_int4pack_mm" },
	{ "aten::_weight_int8pack_mm", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT, rule_int8pack, NULL,
	  "macs = M*N*K (mat2 [N, K]); other = M*N scale multiplies" },
};

int tlc_rules__quant_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, quant_rules, TLC_RULES_COUNT(quant_rules));
}
