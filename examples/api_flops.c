/* The example of <tlcost/tlcost.h>, as a file (tests/build/header_example.sh keeps
 * the two identical). Build against an installed tlcost:
 *     cc -o api_flops api_flops.c $(pkg-config --cflags --libs tlcost)
 * Run: ./api_flops [OPLOG_OR_TRACE] */
#include <stdio.h>
#include <tlcost/tlcost.h>

static int fail(const char *what)
{
    const tlc_error *e = tlc_error_last();
    fprintf(stderr, "%s: %s: %s\nremedy: %s\n", what, e->code, e->message, e->remedy);
    return 1;
}

int main(int argc, char **argv)
{
    tlc_engine *eng;
    tlc_eval *ev;
    char *flops;
    if (tlc_engine_new(&eng, NULL) < 0)             // built-in rules registered
        return fail("engine");
    if (tlc_eval_new(&ev, eng, NULL) < 0)
        return fail("eval");
    if (argc > 1) {
        if (tlc_input_read(ev, argv[1]) < 0)        // op log or Kineto trace
            return fail(argv[1]);
    } else {
        tlc_input_info info = TLC_INPUT_INFO_INIT;  // params, tokens: -1 = absent
        info.model = "example";
        if (tlc_eval_set_info(ev, &info) < 0)
            return fail("info");
        // aten::mm of an [8,16] and a [16,4] float32 tensor
        const int64_t a_shape[] = { 8, 16 }, b_shape[] = { 16, 4 };
        tlc_value args[2] = { { TLC_VALUE_TENSOR, { 0 } }, { TLC_VALUE_TENSOR, { 0 } } };
        args[0].u.tensor.ndim = 2;
        args[0].u.tensor.shape = a_shape;
        args[0].u.tensor.dtype = TLC_DTYPE_FLOAT32;
        args[1].u.tensor.ndim = 2;
        args[1].u.tensor.shape = b_shape;
        args[1].u.tensor.dtype = TLC_DTYPE_FLOAT32;
        tlc_op op = { 0 };
        op.size = sizeof op;                        // always sizeof(tlc_op)
        op.id = 0;                                  // unique per evaluation
        op.name = "aten::mm";
        op.phase = TLC_PHASE_FORWARD;
        op.module = "";                             // root; NULL = unknown
        op.nargs = 2;
        op.args = args;
        op.correlation = op.id;
        if (tlc_eval_push_op(ev, &op) < 0)
            return fail("push");
    }
    if (tlc_eval_finish(ev) < 0)
        return fail("finish");
    if (tlc_eval_total_str(&flops, ev, TLC_PHASE_FORWARD, TLC_TOTAL_FLOPS) < 0)
        return fail("total");
    printf("forward FLOPs: %s%s (library %s)\n", flops,
           tlc_eval_is_lower_bound(ev) ? " (lower bound)" : "", tlc_version(NULL, NULL, NULL));
    tlc_free(flops);
    tlc_eval_free(ev);
    tlc_engine_free(eng);
    return 0;
}
