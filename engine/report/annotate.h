/* The annotated trace (semi-private): its model (engine/report/annotate.c)
 * and its writer (engine/report/annotate_write.c). The model says which
 * event of the trace each op row came from and the counter samples; the
 * writer copies the trace's bytes and splices the model's text in. */
#ifndef TLC_REPORT_ANNOTATE_H
#define TLC_REPORT_ANNOTATE_H

#include <stdint.h>
#include <stdio.h>
#include "tlcost/tlcost.h"
#include "alloc.h"

/* One op event to annotate: its ordinal among the trace's event objects
 * and its row. Items ascend by event. */
typedef struct tlc_annot_item {
	uint64_t event;
	uint32_t row;
} tlc_annot_item;

/* One op whose cost enters the counters, placed at its end. Sorted by
 * (pid, end_ns, row). */
typedef struct tlc_annot_sample {
	int64_t pid;
	int64_t start_ns, end_ns;
	const tlc_cost *cost; /* the row's (the eval's) */
	uint32_t row;
} tlc_annot_sample;

typedef struct tlc_annot_model {
	const tlc_allocator *a;
	const tlc_eval *ev;
	tlc_annot_item *items;
	size_t nitems;
	tlc_annot_sample *samples;
	size_t nsamples;
	/* Attributed kernel utilization (tlc_annotate__util_build): the per-op
	 * profile of tlc_profile_build_util and, per eval row, the index of its
	 * profile row (-1: none); NULL when not asked for or refused. */
	tlc_profile *util;
	int32_t *util_of_row;
} tlc_annot_model;

/** Builds the model from a finished evaluation read with source keys
 *  (tlc_eval__want_source_keys) and keep_ops. 0, TLC_ENOMEM, or
 *  TLC_EINPUT annotate_input_changed when a key names no row of its own
 *  (or the keys do not ascend). */
int tlc_annotate__model_build(tlc_annot_model *m, const tlc_eval *ev);
void tlc_annotate__model_free(tlc_annot_model *m);

/** Adds the utilization model: runs the device-time join of m->ev and
 *  tlc_profile_build_util by op, all rows, all phases, against c. 0 (with
 *  *refused set and no model when the join is refused:
 *  kernel_utilization_requires_device_join), or the errors of the join,
 *  the ceilings and TLC_ENOMEM. */
int tlc_annotate__util_build(tlc_annot_model *m, tlc_eval *ev, const tlc_ceilings *c,
                             int *refused);

/** Appends the "tlcost.*" members of row's event args (no braces, no
 *  leading comma) to sb and counts the row in s. */
void tlc_annotate__row_args(tlc_sb *sb, const tlc_annot_model *m, size_t row,
                            tlc_annotate_summary *s);

/** The one place the attributed kernel utilization of a row reaches the
 *  annotated trace: appends ',"tlcost.util.*":...' members when m's
 *  utilization model gives the row one (a passed gate, known ceilings);
 *  nothing otherwise (docs/annotate.md, "Utilization"). */
void tlc_annotate__utilization(tlc_sb *sb, const tlc_annot_model *m, size_t row,
                               tlc_annotate_summary *s);

/** Appends the counter events (each preceded by ",\n" unless first is set
 *  and it is the first) to sb, counting them in s; whenever sb holds 1 MiB
 *  or more, hands it to flush (which empties it), so memory does not grow
 *  with the trace. 0 or flush's negative code. */
int tlc_annotate__counters(tlc_sb *sb, const tlc_annot_model *m, int first,
                           tlc_annotate_summary *s, int (*flush)(tlc_sb *sb, void *payload),
                           void *payload);

/** The second pass: copies the trace at path (plain or gzip) to out,
 *  splicing the model's args and counters in; gzip compresses what goes to
 *  out. 0, or a negative code with the error set (io_error reading,
 *  annotate_input_changed, output_write_failed). */
int tlc_annotate__copy(FILE *out, int gzip, const char *path, const tlc_annot_model *m,
                       tlc_annotate_summary *s);

#endif
