/*
 * A minimal capture program with NVTX ranges (docs/nvtx.md).
 *
 *     example [--emit-nvtx]
 *
 * It "runs" five ops: three calls of aten::conv2d (call ids 0, 1, 2), then
 * aten::linear (3) with aten::addmm (4) nested in it, and writes its log
 * under an internal range. With --emit-nvtx each op is an NVTX range
 * tlcost::<op>#<call_id> and the log writing is tlcost::internal::write_log;
 * where nothing receives NVTX ranges the option is refused (exit 3, with the
 * code, the cause and the remedy), never silently ignored. Without it the
 * emitter is NULL and nothing is emitted.
 *
 * Build: cc example.c -ltlcost-nvtx $(pkg-config --cflags tlcost)
 * Run:   nsys profile --trace=cuda,nvtx -o run ./example --emit-nvtx
 */
#include <stdio.h>
#include <string.h>

#include <tlcost/nvtx.h>

struct op {
	const char *name;
	int64_t call_id;
};

static int refuse(const tlc_nvtx *n, const char *what)
{
	const tlc_nvtx_error *e = tlc_nvtx_error_get(n);

	fprintf(stderr, "example: %s: %s: %s\n  remedy: %s\n", what, e->code, e->message, e->remedy);
	return 3;
}

/* An op's work would run between enter and exit. */
static int run_op(tlc_nvtx *n, const struct op *op)
{
	if (tlc_nvtx_op_enter(n, op->name, op->call_id) != 0)
		return -1;
	printf("op %s#%lld\n", op->name, (long long)op->call_id);
	return tlc_nvtx_op_exit(n, op->call_id);
}

static int run(tlc_nvtx *n)
{
	static const struct op convs[] = { { "aten::conv2d", 0 }, { "aten::conv2d", 1 },
		                           { "aten::conv2d", 2 } };
	static const struct op addmm = { "aten::addmm", 4 };

	for (size_t i = 0; i < sizeof convs / sizeof convs[0]; i++)
		if (run_op(n, &convs[i]) != 0)
			return -1;
	if (tlc_nvtx_op_enter(n, "aten::linear", 3) != 0 || run_op(n, &addmm) != 0 ||
	    tlc_nvtx_op_exit(n, 3) != 0)
		return -1;
	/* the capture's own bookkeeping, kept apart from the model's ops */
	if (tlc_nvtx_internal_enter(n, "write_log") != 0)
		return -1;
	printf("log written\n");
	return tlc_nvtx_internal_exit(n, "write_log");
}

int main(int argc, char **argv)
{
	tlc_nvtx *n = NULL;
	int rc;

	if (argc > 1 && !strcmp(argv[1], "--emit-nvtx")) {
		if (tlc_nvtx_new(&n) != 0)
			return 1;
		if (tlc_nvtx_start(n) != 0) {
			rc = refuse(n, "--emit-nvtx");
			tlc_nvtx_free(n);
			return rc;
		}
	}
	rc = run(n); /* n is NULL without --emit-nvtx: nothing is emitted */
	if (rc != 0)
		rc = refuse(n, "range");
	tlc_nvtx_free(n);
	return rc;
}
