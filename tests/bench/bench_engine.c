/* bench_engine [N [compare]]: "engine alone" throughput. Pushes N pre-built
 * op records (the same mix as gen_oplog: convolution, relu, add, view, linear
 * with a nested addmm) through tlc_eval_push_op with the built-in rules, no
 * parsing, and prints "N CPU_SECONDS OPS_PER_CPU_SECOND KNOWN_OPS". The op
 * names are string literals, so the bench promises stable names
 * (tlc_eval_set_stable_names); "compare" leaves the promise out, and the
 * names are then compared by content as for any caller. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tlcost/tlcost.h"

#define T(shape_, nd_, dt_) \
	{ .kind = TLC_VALUE_TENSOR, .u.tensor = { .ndim = nd_, .shape = shape_, .dtype = dt_ } }

static const int64_t act[] = { 32, 64, 56, 56 }, wconv[] = { 64, 64, 3, 3 };
static const int64_t x2[] = { 32, 1024 }, w2[] = { 1000, 1024 }, b1[] = { 1000 };
static const int64_t wt[] = { 1024, 1000 }, y2[] = { 32, 1000 };

#define L(a) { .kind = TLC_VALUE_LIST, .u.list = { 2, a } }
static const tlc_value one_one[] = { { .kind = TLC_VALUE_INT, .u.integer = 1 },
	                             { .kind = TLC_VALUE_INT, .u.integer = 1 } };
static const tlc_value zero_zero[] = { { .kind = TLC_VALUE_INT, .u.integer = 0 },
	                               { .kind = TLC_VALUE_INT, .u.integer = 0 } };
static const tlc_value flat_v[] = { { .kind = TLC_VALUE_INT, .u.integer = 32 },
	                            { .kind = TLC_VALUE_INT, .u.integer = -1 } };

static const tlc_value conv_args[] = {
	T(act, 4, TLC_DTYPE_FLOAT32), T(wconv, 4, TLC_DTYPE_FLOAT32), { .kind = TLC_VALUE_NONE },
	L(one_one), L(one_one), L(one_one), { .kind = TLC_VALUE_BOOL }, L(zero_zero),
	{ .kind = TLC_VALUE_INT, .u.integer = 1 },
};
static const tlc_value act_t[] = { T(act, 4, TLC_DTYPE_FLOAT32) };
static const tlc_value add_args[] = { T(act, 4, TLC_DTYPE_FLOAT32), T(act, 4, TLC_DTYPE_FLOAT32) };
static const tlc_value view_args[] = { T(act, 4, TLC_DTYPE_FLOAT32), L(flat_v) };
static const tlc_value lin_args[] = { T(x2, 2, TLC_DTYPE_BFLOAT16), T(w2, 2, TLC_DTYPE_BFLOAT16),
	                              T(b1, 1, TLC_DTYPE_BFLOAT16) };
static const tlc_value addmm_args[] = { T(b1, 1, TLC_DTYPE_BFLOAT16), T(x2, 2, TLC_DTYPE_BFLOAT16),
	                                T(wt, 2, TLC_DTYPE_BFLOAT16) };
static const tlc_value y_t[] = { T(y2, 2, TLC_DTYPE_BFLOAT16) };

typedef struct proto {
	const char *name, *overload;
	const tlc_value *args;
	size_t nargs;
	const tlc_value *outs;
	int child_of_prev; /* nested under the previous op */
} proto;

static const proto mix[] = {
	{ "aten::convolution", "default", conv_args, 9, act_t, 0 },
	{ "aten::relu", "default", act_t, 1, act_t, 0 },
	{ "aten::convolution", "default", conv_args, 9, act_t, 0 },
	{ "aten::add", "Tensor", add_args, 2, act_t, 0 },
	{ "aten::relu", "default", act_t, 1, act_t, 0 },
	{ "aten::view", "default", view_args, 2, NULL, 0 },
	{ "aten::linear", "default", lin_args, 3, y_t, 0 },
	{ "aten::addmm", "default", addmm_args, 3, y_t, 1 },
	{ "aten::linear", "default", lin_args, 3, y_t, 0 },
	{ "aten::addmm", "default", addmm_args, 3, y_t, 1 },
};

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
	tlc_engine *eng;
	tlc_eval *ev;
	int stable = !(argc > 2 && strcmp(argv[2], "compare") == 0);
	if (tlc_engine_new(&eng, NULL) < 0 || tlc_eval_new(&ev, eng, NULL) < 0 ||
	    tlc_eval_set_stable_names(ev, stable) < 0) {
		fprintf(stderr, "bench_engine: %s\n", tlc_error_last()->message);
		return 1;
	}
	/* the ten records are built once, as a caller that reuses its records
	 * would; per op only the fields that change are set (zeroing a whole
	 * record per op, a `rep stos` here, cost the bench more than some of
	 * the engine's own steps) */
	tlc_op rec[10];
	for (int k = 0; k < 10; k++) {
		const proto *p = &mix[k];
		rec[k] = (tlc_op){ .size = sizeof rec[k], .name = p->name, .overload = p->overload,
		                   .module = "layer1.0.conv1", .module_type = "Conv2d",
		                   .nargs = p->nargs, .args = p->args };
		if (p->outs) {
			rec[k].flags |= TLC_OP_HAS_OUTPUTS;
			rec[k].noutputs = 1;
			rec[k].outputs = p->outs;
		}
		if (p->child_of_prev)
			rec[k].flags |= TLC_OP_HAS_PARENT;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	for (long i = 0, k = 0, block = 0; i < n; i++) {
		tlc_op *op = &rec[k];
		op->id = op->correlation = i;
		op->parent = i - 1; /* read only with TLC_OP_HAS_PARENT */
		op->phase = block % 3 == 2 ? TLC_PHASE_BACKWARD : TLC_PHASE_FORWARD;
		if (++k == 10) {
			k = 0;
			block++;
		}
		if (tlc_eval_push_op(ev, op) < 0) {
			fprintf(stderr, "bench_engine: op %ld: %s\n", i, tlc_error_last()->message);
			return 1;
		}
	}
	if (tlc_eval_finish(ev) < 0) {
		fprintf(stderr, "bench_engine: %s\n", tlc_error_last()->message);
		return 1;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	tlc_coverage cov = TLC_COVERAGE_INIT;
	tlc_eval_coverage(&cov, ev);
	printf("%ld %.3f %.0f %llu\n", n, s, (double)n / s,
	       (unsigned long long)cov.by_class[TLC_CLASS_KNOWN]);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
	return 0;
}
