/*
 * GPU end-to-end test of libtlcost-cupti (make check-gpu; not part of
 * make check). Needs an NVIDIA GPU; exits 77 (skip) where none exists.
 *
 *     e2e LOG      records ops with CUPTI, writes LOG (op log v1 with kernel,
 *                  memcpy, memset and runtime records), reads LOG back
 *                  through libtlcost and joins it
 *
 * Ops, each wrapped in tlc_cupti_op_enter/exit with its id, and each doing
 * one cudaMemcpy (host to device) and one cudaMemset besides its kernels:
 *
 *     id 0  aten::mm      1 kernel
 *     id 1  aten::mm      2 kernels
 *     id 2  aten::mm      3 kernels
 *     id 3  aten::linear  1 kernel, then op 4 nested inside it, then 1 kernel
 *     id 4  aten::mm      4 kernels       (parent 3)
 *
 * Every kernel is the same function with the same launch shape, so only the
 * correlation path (launch -> runtime call -> external id = op) can tell
 * them apart. The expected kernels per op are the table above; the test
 * asserts the join attributes exactly that many kernels, and one memcpy and
 * one memset, to each op, nothing unattributed, and that the gate passes.
 */
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlcost/cupti.h"
#include "tlcost/tlcost.h"

#define NOPS 5
#define NELEM 4096

struct op_plan {
	int id;
	int parent;              /* -1 = top level */
	const char *name;
	int kernels_before;      /* launched before a nested child (or all) */
	int kernels_after;       /* launched after the nested child returns */
};

static const op_plan plan[NOPS] = {
	{ 0, -1, "aten::mm", 1, 0 },
	{ 1, -1, "aten::mm", 2, 0 },
	{ 2, -1, "aten::mm", 3, 0 },
	{ 3, -1, "aten::linear", 1, 1 },
	{ 4, 3, "aten::mm", 4, 0 },
};

static int failures;

#define CHECK(cond, ...)                                  \
	do {                                                  \
		if (!(cond)) {                                    \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                 \
			fputc('\n', stderr);                          \
			failures++;                                   \
		}                                                 \
	} while (0)

__global__ void scale(float *x, int n, float a)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		x[i] = x[i] * a + 1.0f;
}

struct gpu_bufs {
	float *dev;
	float *host;
};

static int cuda_ok(cudaError_t e, const char *what)
{
	if (e == cudaSuccess)
		return 1;
	fprintf(stderr, "FAIL: %s: %s\n", what, cudaGetErrorString(e));
	failures++;
	return 0;
}

static void launch(gpu_bufs *b, int n)
{
	for (int i = 0; i < n; i++)
		scale<<<(NELEM + 255) / 256, 256>>>(b->dev, NELEM, 1.5f);
	cuda_ok(cudaGetLastError(), "kernel launch");
}

/* The op's own work: kernels, one copy, one set. */
static void op_body(gpu_bufs *b, int nkernels)
{
	cuda_ok(cudaMemcpy(b->dev, b->host, NELEM * sizeof(float), cudaMemcpyHostToDevice),
	        "cudaMemcpy");
	cuda_ok(cudaMemset(b->dev + NELEM, 0, NELEM * sizeof(float)), "cudaMemset");
	launch(b, nkernels);
}

static int enter(tlc_cupti_session *s, int id)
{
	int rc = tlc_cupti_op_enter(s, id);

	CHECK(rc == 0, "op enter %d: %s", id, tlc_cupti_session_error(s)->message);
	return rc;
}

static void leave(tlc_cupti_session *s, int id)
{
	int rc = tlc_cupti_op_exit(s, id);

	CHECK(rc == 0, "op exit %d: %s", id, tlc_cupti_session_error(s)->message);
}

static void run_ops(tlc_cupti_session *s, gpu_bufs *b)
{
	for (int i = 0; i < 3; i++) {
		enter(s, plan[i].id);
		op_body(b, plan[i].kernels_before);
		leave(s, plan[i].id);
	}
	enter(s, 3);
	op_body(b, plan[3].kernels_before);
	enter(s, 4);
	op_body(b, plan[4].kernels_before);
	leave(s, 4);
	launch(b, plan[3].kernels_after);
	leave(s, 3);
	cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

static void write_ops(FILE *log)
{
	fprintf(log, "{\"format\":\"tlcost-oplog\",\"version\":1,\"producer\":\"tlcost e2e.cu\","
	             "\"model\":\"cupti-e2e\"}\n");
	for (int i = 0; i < NOPS; i++) {
		const op_plan *p = &plan[i];

		fprintf(log, "{\"id\":%d,\"op\":\"%s\"", p->id, p->name);
		if (p->parent >= 0)
			fprintf(log, ",\"parent\":%d", p->parent);
		if (!strcmp(p->name, "aten::linear"))
			fprintf(log, ",\"args\":[{\"shape\":[64,64],\"dtype\":\"float32\"},"
			             "{\"shape\":[64,64],\"dtype\":\"float32\"},null]");
		else
			fprintf(log, ",\"args\":[{\"shape\":[64,64],\"dtype\":\"float32\"},"
			             "{\"shape\":[64,64],\"dtype\":\"float32\"}]");
		fprintf(log, ",\"outputs\":[{\"shape\":[64,64],\"dtype\":\"float32\"}]}\n");
	}
}

static int expected_kernels(int id)
{
	return plan[id].kernels_before + plan[id].kernels_after;
}

/* What the module itself collected, before any join. */
static void check_session(tlc_cupti_session *s)
{
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;
	int want = 0;

	for (int i = 0; i < NOPS; i++)
		want += expected_kernels(i);
	CHECK(tlc_cupti_get_summary(&m, s) == 0, "summary");
	printf("session: %s, %llu kernels, %llu memcpys, %llu memsets, %llu runtime calls, "
	       "%llu dropped\n", tlc_cupti_status_name(m.status), (unsigned long long)m.kernels,
	       (unsigned long long)m.memcpys, (unsigned long long)m.memsets,
	       (unsigned long long)m.runtime_calls, (unsigned long long)m.dropped);
	CHECK(m.status == TLC_CUPTI_COMPLETE, "status %s", tlc_cupti_status_name(m.status));
	CHECK(m.kernels == (uint64_t)want, "kernels %llu, want %d", (unsigned long long)m.kernels,
	      want);
	CHECK(m.memcpys == NOPS, "memcpys %llu, want %d", (unsigned long long)m.memcpys, NOPS);
	CHECK(m.memsets == NOPS, "memsets %llu, want %d", (unsigned long long)m.memsets, NOPS);
}

/* Which op id a joined launch landed on, or -1. */
static int64_t launch_op(const tlc_join_launch *l, const tlc_eval *ev)
{
	const tlc_op_row *row;

	if (l->status != TLC_ATTR_ATTRIBUTED || l->op_row < 0)
		return -1;
	row = tlc_eval_op_at(ev, (size_t)l->op_row);
	return row ? row->id : -1;
}

static void check_join(const tlc_join *j, const tlc_eval *ev)
{
	const tlc_join_summary *sum = tlc_join_get_summary(j);
	int kernels[NOPS] = { 0 }, copies[NOPS] = { 0 }, sets[NOPS] = { 0 };

	for (size_t i = 0; i < tlc_join_launch_count(j); i++) {
		const tlc_join_launch *l = tlc_join_launch_at(j, i);
		int64_t op = launch_op(l, ev);

		CHECK(op >= 0 && op < NOPS, "launch %zu (%s) not attributed to an op: %s", i,
		      l->rec->name ? l->rec->name : "copy/set", l->why ? l->why : "");
		if (op < 0 || op >= NOPS)
			continue;
		kernels[op] += l->rec->kind == TLC_DEVICE_KERNEL;
		copies[op] += l->rec->kind == TLC_DEVICE_MEMCPY;
		sets[op] += l->rec->kind == TLC_DEVICE_MEMSET;
	}
	for (int op = 0; op < NOPS; op++) {
		printf("op %d %-13s kernels %d (want %d), memcpy %d, memset %d\n", op, plan[op].name,
		       kernels[op], expected_kernels(op), copies[op], sets[op]);
		CHECK(kernels[op] == expected_kernels(op), "op %d: %d kernels, want %d", op,
		      kernels[op], expected_kernels(op));
		CHECK(copies[op] == 1 && sets[op] == 1, "op %d: %d memcpy, %d memset, want 1 and 1",
		      op, copies[op], sets[op]);
	}
	CHECK(sum->state == TLC_JOIN_JOINED, "join state %s", tlc_join_state_name(sum->state));
	CHECK(sum->path == TLC_JOIN_PATH_CORRELATION, "join path %s (%s)",
	      tlc_join_path_name(sum->path), sum->path_reason ? sum->path_reason : "");
	CHECK(sum->kernels_unattributed == 0 && sum->kernels_ambiguous == 0,
	      "%llu unattributed, %llu ambiguous kernels",
	      (unsigned long long)sum->kernels_unattributed,
	      (unsigned long long)sum->kernels_ambiguous);
	CHECK(sum->gate_passed, "the gate did not pass");
}

/* Reads LOG back the way `tlcost join LOG` does, and joins it. */
static void join_log(const char *path, unsigned flags)
{
	tlc_engine *eng = NULL;
	tlc_eval *ev = NULL;
	tlc_join *j = NULL;
	tlc_eval_options eo;
	tlc_join_options jo;

	memset(&eo, 0, sizeof eo);
	eo.size = sizeof eo;
	eo.keep_ops = 1;
	memset(&jo, 0, sizeof jo);
	jo.size = sizeof jo;
	jo.flags = flags;
	if (tlc_engine_new(&eng, NULL) != 0 || tlc_eval_new(&ev, eng, &eo) != 0 ||
	    tlc_oplog_read(ev, path) != 0 || tlc_eval_finish(ev) != 0 ||
	    tlc_join_run(&j, ev, &jo) != 0) {
		const tlc_error *e = tlc_error_last();

		CHECK(0, "reading or joining %s: %s: %s (remedy: %s)", path, e->code, e->message,
		      e->remedy);
	} else {
		tlc_write_join(stdout, j, ev, TLC_FORMAT_TEXT);
		check_join(j, ev);
	}
	tlc_join_free(j);
	tlc_eval_free(ev);
	tlc_engine_free(eng);
}

static int record(const char *path)
{
	tlc_cupti_session *s = NULL;
	gpu_bufs b;
	FILE *log;
	int rc;

	if (tlc_cupti_session_new(&s, NULL) != 0)
		return 1;
	rc = tlc_cupti_start(s);
	if (rc != 0) {
		/* a GPU is present, so an unavailable profiler is a failure here */
		fprintf(stderr, "FAIL: CUPTI cannot record on this GPU machine: %s\n  remedy: %s\n",
		        tlc_cupti_session_error(s)->message, tlc_cupti_session_error(s)->remedy);
		tlc_cupti_session_free(s);
		return 1;
	}
	b.host = (float *)calloc(NELEM, sizeof(float));
	if (!b.host || !cuda_ok(cudaMalloc(&b.dev, 2 * NELEM * sizeof(float)), "cudaMalloc"))
		return 1;
	run_ops(s, &b);
	CHECK(tlc_cupti_stop(s) == 0, "stop: %s", tlc_cupti_session_error(s)->message);
	check_session(s);
	log = fopen(path, "w");
	CHECK(log != NULL, "cannot write %s", path);
	if (log) {
		write_ops(log);
		CHECK(tlc_cupti_write_oplog(log, s) == 0, "write: %s",
		      tlc_cupti_session_error(s)->message);
		fclose(log);
	}
	join_log(path, tlc_cupti_join_flags(s));
	cudaFree(b.dev);
	free(b.host);
	tlc_cupti_session_free(s);
	return 0;
}

/* A second session that pauses: one kernel before, one while paused, one
 * after. The two outside the pause must be seen; the session is partial
 * (work while paused is unseen), so the join is told its counts are lower
 * bounds. */
static void check_pause(void)
{
	tlc_cupti_session *s = NULL;
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;
	gpu_bufs b;

	if (tlc_cupti_session_new(&s, NULL) != 0 || tlc_cupti_start(s) != 0) {
		CHECK(0, "pause session: %s", s ? tlc_cupti_session_error(s)->message : "no memory");
		tlc_cupti_session_free(s);
		return;
	}
	b.host = NULL;
	if (!cuda_ok(cudaMalloc(&b.dev, NELEM * sizeof(float)), "cudaMalloc"))
		return;
	enter(s, 10);
	launch(&b, 1);
	CHECK(tlc_cupti_pause(s) == 0, "pause: %s", tlc_cupti_session_error(s)->message);
	launch(&b, 1);
	cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
	CHECK(tlc_cupti_resume(s) == 0, "resume: %s", tlc_cupti_session_error(s)->message);
	launch(&b, 1);
	leave(s, 10);
	cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
	CHECK(tlc_cupti_stop(s) == 0, "stop: %s", tlc_cupti_session_error(s)->message);
	CHECK(tlc_cupti_get_summary(&m, s) == 0, "summary");
	printf("pause session: %s, %llu kernels seen of 3 launched, %llu paused region(s)\n",
	       tlc_cupti_status_name(m.status), (unsigned long long)m.kernels,
	       (unsigned long long)m.paused_regions);
	CHECK(m.status == TLC_CUPTI_PARTIAL && m.lower_bound, "pause session is %s",
	      tlc_cupti_status_name(m.status));
	CHECK(m.paused_regions == 1, "%llu paused regions", (unsigned long long)m.paused_regions);
	CHECK(m.kernels >= 2, "only %llu kernels seen outside the pause",
	      (unsigned long long)m.kernels);
	CHECK(tlc_cupti_join_flags(s) == TLC_JOIN_INPUT_PARTIAL, "join flags");
	cudaFree(b.dev);
	tlc_cupti_session_free(s);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "e2e.oplog.jsonl";
	int ndev = 0;
	cudaError_t e = cudaGetDeviceCount(&ndev);

	if (e != cudaSuccess || ndev == 0) {
		printf("SKIP: no GPU (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
		return 77;
	}
	if (record(path) != 0)
		failures++;
	else
		check_pause();
	if (failures) {
		fprintf(stderr, "e2e: %d check(s) failed\n", failures);
		return 1;
	}
	printf("e2e: every kernel, memcpy and memset landed on its op; the gate passed; "
	       "a paused session is partial\n");
	return 0;
}
