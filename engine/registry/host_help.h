/* The implementations behind the host table's rule helpers (host->arg,
 * host->tensor_arg, host->output, host->int_arg_or, host->int_list_arg,
 * host->dim, host->numel, host->broadcast, host->write_outputs,
 * host->matmul_shape, host->conv_out_size; host->read_inputs is
 * registry/cost.c's own). Semi-private to the engine: registry/cost.c puts
 * them in the table, and nothing in rules/ can see them (tests/build/layers.sh,
 * tests/build/layers_objects.sh): the built-in families reach them through the
 * host pointer their init and their rules are given, exactly as an outside
 * plugin does (tests/build/rules_host.sh). `host` is the table itself (its
 * op_kwarg looks kwargs up); NULL looks up positional arguments only.
 * Conventions as in <tlcost/plugin.h> and rules/util.h. */
#ifndef TLC_REGISTRY_HOST_HELP_H
#define TLC_REGISTRY_HOST_HELP_H

#include <stddef.h>
#include <stdint.h>
#include "tlcost/plugin.h"

/** arg(i, name): the positional argument i, else the kwarg name; NULL when
 *  absent (or JSON null). */
inline const tlc_value *tlc_host__arg(const tlc_op *op, const tlc_host *host, size_t i,
                                      const char *name)
{
	if (!op)
		return NULL;
	const tlc_value *v = i < op->nargs && op->args ? &op->args[i] :
	                     name && host ? host->op_kwarg(op, name) : NULL;
	return v && v->kind != TLC_VALUE_NONE ? v : NULL;
}

/** The i-th output, or NULL when outputs are not recorded / out of range. */
inline const tlc_value *tlc_host__out(const tlc_op *op, size_t i)
{
	if (!op || !(op->flags & TLC_OP_HAS_OUTPUTS) || !op->outputs || i >= op->noutputs)
		return NULL;
	const tlc_value *v = &op->outputs[i];
	return v->kind != TLC_VALUE_NONE ? v : NULL;
}

/** Tensor of arg(i, name), or NULL. */
inline const tlc_tensor *tlc_host__tensor_arg(const tlc_op *op, const tlc_host *host,
                                              size_t i, const char *name)
{
	const tlc_value *v = tlc_host__arg(op, host, i, name);
	return v && v->kind == TLC_VALUE_TENSOR ? &v->u.tensor : NULL;
}

/** Integer of arg(i, name) (a one-element int list is one); dflt when the
 *  argument is absent because the caller may have omitted it (an op log),
 *  or is a recorded None; MISSING_ARGS when absent from an op whose
 *  arguments a profiler observed, or unrecorded. */
int tlc_host__int_arg_or(int64_t *out, const tlc_op *op, const tlc_host *host, size_t i,
                         const char *name, int64_t dflt);

/** Int list of arg(i, name) expanded to exactly `want` entries: a list of
 *  one is repeated (stride=2 for conv2d means [2,2]); absent gives `dflt`
 *  repeated (as int_arg_or decides). BAD_ARGS when the length is neither 1
 *  nor want. */
int tlc_host__int_list_arg(int64_t *out, size_t want, const tlc_op *op, const tlc_host *host,
                           size_t i, const char *name, int64_t dflt);

/** Size of dim d of t; negative d counts from the end. -1 when out of range. */
int64_t tlc_host__dim(const tlc_tensor *t, int64_t d);

/** numel(t); BAD_ARGS past int64. */
int tlc_host__numel(int64_t *out, const tlc_tensor *t);

/** numpy/PyTorch broadcast of two shapes into out[TLC_HOST_MAX_DIMS].
 *  BAD_ARGS when incompatible or too many dims. Either shape may have ndim 0. */
int tlc_host__broadcast(int64_t *out, size_t *nout, const int64_t *a, size_t na,
                        const int64_t *b, size_t nb);

/** bytes_written += every recorded output, each through add_bytes (the
 *  table's cost_add_bytes). When outputs are not recorded, `fallback` (may
 *  be NULL) is written instead. MISSING_ARGS when neither exists. */
int tlc_host__write_outputs(tlc_cost *out, const tlc_op *op, const tlc_host *host,
                            const tlc_value *fallback);

/** torch.matmul shapes of a x b: batch dims broadcast, 1-D operands
 *  promoted. BAD_ARGS when the inner dims or the batch dims disagree. */
int tlc_host__matmul_shape(tlc_matmul_shape *g, const tlc_tensor *a, const tlc_tensor *b);

/** One convolution output size with overflow checks: (in + 2p - d*(k-1) -
 *  1) / s + 1, or transposed (in-1)*s - 2p + d*(k-1) + op + 1. BAD_ARGS
 *  when the result is not a valid size or s < 1. */
int tlc_host__conv_out_size(int64_t *o, int64_t in, int64_t k, int64_t s, int64_t p,
                            int64_t d, int64_t op, int transposed);

#endif
