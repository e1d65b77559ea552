/*
 * A minimal capture library driving libtlcost-cupti (docs/cupti.md).
 *
 *     example [LOG]      writes an op log v1 file (default: example.oplog.jsonl)
 *
 * It records three ops, wraps each in tlc_cupti_op_enter/exit with the op's
 * id as its correlation id, and appends what CUPTI saw (kernel, memcpy,
 * memset and runtime lines, plus one device_profiler disclosure line) to the
 * log for `tlcost join LOG`. A real capture library launches the model's
 * GPU work between enter and exit; this one launches none, so on a GPU
 * machine the session is "empty", and without one it is "unavailable" with
 * CUPTI's own text. Both are facts, reported as such, never zero times.
 *
 * Build: cc example.c -ltlcost-cupti $(pkg-config --cflags --libs tlcost)
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <tlcost/cupti.h>

/* The capture library's own op record: here, a matmul per op. Its start
 * and duration are on CUPTI's clock and its thread is the gettid() id CUPTI
 * uses, so the join could also place launches by containment; where CUPTI
 * is unavailable they are left out (absent, never zero). */
static void write_op(FILE *log, int id, int64_t start, int64_t end)
{
	fprintf(log,
	        "{\"id\":%d,\"op\":\"aten::mm\",\"args\":[{\"shape\":[64,128],\"dtype\":\"float32\"},"
	        "{\"shape\":[128,32],\"dtype\":\"float32\"}],"
	        "\"outputs\":[{\"shape\":[64,32],\"dtype\":\"float32\"}]",
	        id);
	if (start >= 0 && end >= start)
		fprintf(log, ",\"start_ns\":%lld,\"host_ns\":%lld,\"thread\":%ld",
		        (long long)start, (long long)(end - start), (long)syscall(SYS_gettid));
	fputs("}\n", log);
}

/* Runs one op: enter, the op's work, exit. */
static int run_op(tlc_cupti_session *s, FILE *log, int id)
{
	int64_t start = -1, end = -1;

	if (tlc_cupti_timestamp(&start, s) != 0)
		start = -1;
	if (tlc_cupti_op_enter(s, id) != 0)
		return -1;
	/* ... the op's kernels, copies and sets are launched here ... */
	if (tlc_cupti_op_exit(s, id) != 0)
		return -1;
	if (tlc_cupti_timestamp(&end, s) != 0)
		end = -1;
	write_op(log, id, start, end);
	return 0;
}

static void report(tlc_cupti_session *s)
{
	tlc_cupti_summary m = TLC_CUPTI_SUMMARY_INIT;

	if (tlc_cupti_get_summary(&m, s) != 0)
		return;
	if (m.status == TLC_CUPTI_UNAVAILABLE) {
		printf("device time: unavailable (%s: %s)\n", m.failed_call, m.message);
		return;
	}
	printf("device time: %s%s: %llu kernels, %llu memcpys, %llu memsets, %llu runtime calls",
	       tlc_cupti_status_name(m.status), m.lower_bound ? " (counts are lower bounds)" : "",
	       (unsigned long long)m.kernels, (unsigned long long)m.memcpys,
	       (unsigned long long)m.memsets, (unsigned long long)m.runtime_calls);
	printf(", %llu dropped\n", (unsigned long long)m.dropped);
}

static int fail(tlc_cupti_session *s, const char *what)
{
	const tlc_cupti_error *e = tlc_cupti_session_error(s);

	fprintf(stderr, "example: %s: %s: %s\n  remedy: %s\n", what, e->code, e->message, e->remedy);
	tlc_cupti_session_free(s);
	return 1;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "example.oplog.jsonl";
	tlc_cupti_session *s = NULL;
	FILE *log;
	int rc;

	if (tlc_cupti_session_new(&s, NULL) != 0) {
		fprintf(stderr, "example: out of memory\n");
		return 1;
	}
	/* TLC_EUNAVAILABLE is not fatal: the capture goes on without device
	 * time, and the log says so. */
	rc = tlc_cupti_start(s);
	if (rc != 0 && rc != TLC_EUNAVAILABLE)
		return fail(s, "start");
	log = fopen(path, "w");
	if (!log)
		return fail(s, "cannot open the log");
	fprintf(log, "{\"format\":\"tlcost-oplog\",\"version\":1,\"producer\":\"tlcost cupti example\"}\n");
	for (int id = 0; id < 3; id++) {
		if (run_op(s, log, id) != 0) {
			fclose(log);
			return fail(s, "op");
		}
	}
	if (tlc_cupti_stop(s) != 0 || tlc_cupti_write_oplog(log, s) != 0) {
		fclose(log);
		return fail(s, "stop");
	}
	if (fclose(log) != 0)
		return fail(s, "closing the log");
	report(s);
	printf("wrote %s\n", path);
	tlc_cupti_session_free(s);
	return 0;
}
