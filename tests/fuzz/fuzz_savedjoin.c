/* libFuzzer target: the saved-join reader (engine/join/save_join.c). The
 * input is read as an op log with its rows kept; the join runs and checks
 * the stored attribution and verdict (tlc_join_verify_saved); when that
 * holds, the join is saved again (tlc_join_save with an op recorder) and the
 * saved text is read back: it must parse and verify, or the writer wrote
 * something its own reader refuses (abort). Seeds: tests/fuzz/seeds/savedjoin
 * (saves of the trace fixtures), dictionary tests/fuzz/savedjoin.dict. */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads text as a saved join into a fresh eval (recording ops when rec is
 * given) and joins it: 0 with *ev and *j set, or the typed error. */
static int load_join(tlc_eval **ev, tlc_join **j, tlc_op_recorder *rec, const void *text,
                     size_t len)
{
	tlc_eval_options o = { sizeof o, 1, rec ? tlc_op_recorder_on_op : NULL, rec };
	*j = NULL;
	if (tlc_eval_new(ev, fuzz_engine(), &o) < 0)
		abort();
	int rc = tlc_oplog_read_mem(*ev, text, len, "fuzz-input");
	if (rc == 0)
		rc = tlc_eval_finish(*ev);
	if (rc == 0)
		rc = tlc_join_run(j, *ev, NULL);
	int saved = 0;
	if (rc == 0)
		rc = tlc_join_verify_saved(&saved, *j, *ev);
	fuzz_check_error(rc);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tlc_op_recorder *rec;
	if (tlc_op_recorder_new(&rec) < 0)
		abort();
	tlc_eval *ev;
	tlc_join *j;
	if (load_join(&ev, &j, rec, data, size) == 0) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		if (!f)
			abort();
		int rc = tlc_join_save(f, j, ev, rec);
		fuzz_check_error(rc);
		fclose(f);
		if (rc == 0) { /* what was saved must read back and verify */
			tlc_eval *ev2;
			tlc_join *j2;
			if (load_join(&ev2, &j2, NULL, buf, len) != 0)
				abort();
			tlc_join_free(j2);
			tlc_eval_free(ev2);
		}
		free(buf);
	}
	tlc_join_free(j);
	tlc_eval_free(ev);
	tlc_op_recorder_free(rec);
	return 0;
}
