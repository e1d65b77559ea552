/* The steps report's model, shared by its writer (semi-private). */
#ifndef TLC_ENGINE_STEPS_IMPL_H
#define TLC_ENGINE_STEPS_IMPL_H

#include <stdio.h>
#include <yajl/yajl_gen.h>
#include "tlcost/tlcost.h"

struct dev_spans;

struct tlc_steps {
	int marked;              /* windows are ProfilerStep#N spans */
	size_t nsteps;           /* windows (1 without markers) */
	struct dev_spans *devs;  /* while building */
	size_t ndevs;
	size_t ndevices;         /* devices with device records */
	tlc_steps_row *rows;     /* step-major, then device */
	size_t nrows;
};

/** The rows as a JSON array value (the "steps" of tlcost.steps/1). */
void tlc_steps__json_rows(yajl_gen g, const tlc_steps *s);
/** The report's section: each bucket summed over every step and device,
 *  with its share of the summed wall time (80 columns). */
void tlc_steps__text_summary(FILE *out, const tlc_steps *s);

struct tlc_join__span;
/** tlc_steps_build from the spans tlc_join__spans(ev, j, copies 1)
 *  returned, which it takes (freed here, also on error): tlcost html
 *  collects them once for the join and the steps. */
int tlc_steps__build_spans(tlc_steps **out, const tlc_eval *ev, const tlc_join *j,
                           struct tlc_join__span *all, size_t n);

/** A kernel's compute family from its name alone (tlc_steps_bucket). */
int tlc_steps__kernel_family(const char *name);

#endif
