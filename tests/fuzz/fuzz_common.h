/* Shared pieces of the fuzz targets: one engine with the built-in rules per
 * process, and a report writer that exercises the result paths. */
#ifndef TLC_FUZZ_COMMON_H
#define TLC_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tlcost/tlcost.h"

static inline tlc_engine *fuzz_engine(void)
{
	static tlc_engine *eng;
	if (!eng && tlc_engine_new(&eng, NULL) < 0)
		abort(); /* the harness itself is broken, not the input */
	return eng;
}

static inline FILE *fuzz_sink(void)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!sink)
		abort();
	return sink;
}

/* Every failure must be typed: a code and a non-empty remedy. */
static inline void fuzz_check_error(int rc)
{
	if (rc == 0)
		return;
	const tlc_error *e = tlc_error_last();
	if (rc > 0 || !e->code || !e->remedy || !e->remedy[0] || e->klass != rc)
		abort();
}

/* With the op rows kept: the device-time join (and the saved-join check),
 * its writers, and the one-page report (tree, roofline summary, CSV rows). */
static inline void fuzz_join_and_report(tlc_eval *ev)
{
	tlc_join *j = NULL;
	int rc = tlc_join_run(&j, ev, NULL);
	fuzz_check_error(rc);
	if (rc == 0) {
		int saved = 0;
		fuzz_check_error(tlc_join_verify_saved(&saved, j, ev));
		for (int fmt = TLC_FORMAT_TEXT; fmt <= TLC_FORMAT_CSV; fmt++)
			fuzz_check_error(tlc_write_join(fuzz_sink(), j, ev, fmt));
		tlc_join_free(j);
	}
	tlc_report_options ro;
	memset(&ro, 0, sizeof ro);
	ro.size = sizeof ro;
	fuzz_check_error(tlc_write_report(fuzz_sink(), ev, &ro, TLC_FORMAT_TEXT));
	fuzz_check_error(tlc_write_report(fuzz_sink(), ev, &ro, TLC_FORMAT_CSV));
}

/* Reads data with reader into a fresh eval over eng (keep_ops from bit 0 of
 * the first byte) and, when it parses, finishes it and writes the reports;
 * with bit 1 as well, joins device time and writes the full report. */
static inline void fuzz_run_with(tlc_engine *eng,
                                 int (*reader)(tlc_eval *, const void *, size_t, const char *),
                                 const unsigned char *data, size_t size)
{
	tlc_eval_options o = { sizeof o, size > 0 && (data[0] & 1), NULL, NULL };
	tlc_eval *ev;
	if (tlc_eval_new(&ev, eng, &o) < 0)
		abort();
	int rc = reader(ev, data, size, "fuzz-input");
	fuzz_check_error(rc);
	if (rc == 0) {
		rc = tlc_eval_finish(ev);
		fuzz_check_error(rc);
	}
	if (rc == 0) {
		fuzz_check_error(tlc_write_flops(fuzz_sink(), ev, TLC_FORMAT_JSON));
		fuzz_check_error(tlc_write_ledger(fuzz_sink(), ev, TLC_FORMAT_TEXT));
		if (o.keep_ops && (data[0] & 2))
			fuzz_join_and_report(ev);
	}
	tlc_eval_free(ev);
}

/* The same over the shared engine with the built-in rules. */
static inline void fuzz_run(int (*reader)(tlc_eval *, const void *, size_t, const char *),
                            const unsigned char *data, size_t size)
{
	fuzz_run_with(fuzz_engine(), reader, data, size);
}

#endif
