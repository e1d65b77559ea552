/* Shared pieces of the fuzz targets: one engine with the built-in rules per
 * process, and a report writer that exercises the result paths. */
#ifndef TLC_FUZZ_COMMON_H
#define TLC_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
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

/* Reads data with reader into a fresh eval over eng (keep_ops from the
 * first byte) and, when it parses, finishes it and writes the reports. */
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
