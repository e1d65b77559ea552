/* Evaluation internals needed by readers and reports (semi-private). */
#ifndef TLC_ENGINE_EVAL_H
#define TLC_ENGINE_EVAL_H

#include "tlcost/tlcost.h"
#include "alloc.h"

const tlc_allocator *tlc_eval__allocator(const tlc_eval *ev);
/** Op records held until their parent arrives (readers bound this). */
size_t tlc_eval__held_count(const tlc_eval *ev);
/** Bytes those held records take: their packed allocations (engine/eval/
 *  held.h) and the table of parents they wait for. */
uint64_t tlc_eval__held_bytes(const tlc_eval *ev);
tlc_engine *tlc_eval__engine(const tlc_eval *ev);
/** The eval's interner: stable strings that live as long as the eval. */
tlc_intern *tlc_eval__intern(tlc_eval *ev);

/** Device records pushed so far (for the join). */
size_t tlc_eval__device_count(const tlc_eval *ev);
/** Record i (i < tlc_eval__device_count) as the public struct, by value;
 *  the store itself is compact (rows.h). */
tlc_device_record tlc_eval__device(const tlc_eval *ev, size_t i);
struct tlc_devs;
const struct tlc_devs *tlc_eval__devs(const tlc_eval *ev);
/** Reader marks on the last pushed device record (rows.h tlc_devs__mark_last;
 *  not part of the public record); read back with tlc_eval__device_marks. */
#define TLC_EVAL__MARK_COMM_LAUNCH (1u << 0) /* a launch call collectives may be placed at */
int tlc_eval__mark_last_device(tlc_eval *ev, unsigned marks);
unsigned tlc_eval__device_marks(const tlc_eval *ev, size_t i);

/** Nonzero once tlc_eval_finish succeeded. */
int tlc_eval__finished(const tlc_eval *ev);

/** Where the next pushed record comes from (readers call it per record):
 *  a record held for a later parent keeps its position, so an unresolved
 *  parent at tlc_eval_finish is reported at the record's file:line. name
 *  must outlive the eval's reading (it is interned). */
int tlc_eval__set_position(tlc_eval *ev, const char *name, uint64_t line);

/** tlc_eval_push_op for a reader that has itself refused, with a
 *  position, every argument value tlc_eval_push_op would refuse (negative
 *  shape entries, nesting deeper than 64, counts without values, unnamed
 *  kwargs): the values are not walked again. The op log reader uses it. */
int tlc_eval__push_op_checked(tlc_eval *ev, const tlc_op *op);
/** Communication totals (engine/eval/comm.h). */
struct tlc_comm_acc *tlc_eval__comm(const tlc_eval *ev);

/** Nonzero when kept row i is not an op (docs/cost-contract.md, "Not an
 *  op"): a structural rule matched it (a profiler range, an autograd or
 *  module boundary, a compiled-region or graph wrapper). Such a row never
 *  carries a cost, and kernel time that lands only on such rows is not
 *  attributed for the join's gate. Rows nested in an evaluated op and
 *  decomposed rows are ops. */
int tlc_eval__row_not_op(const tlc_eval *ev, size_t i);

/** A phase annotation of the input: an interval on a host thread that
 *  marks a phase (a trace's `Optimizer.step#` range) but is no op row. The
 *  join gives unattributed kernel time whose runtime call lies inside one
 *  to that phase (docs/cost-contract.md, "Not an op"). */
typedef struct tlc_eval__annotation {
	int64_t thread, start_ns, end_ns;
	tlc_phase phase;
} tlc_eval__annotation;

/** Records one (readers call it; a saved join writes them back). 0,
 *  TLC_EINVAL (bad phase or interval) or TLC_ENOMEM. */
int tlc_eval__add_annotation(tlc_eval *ev, int64_t thread, int64_t start_ns, int64_t end_ns,
                             tlc_phase phase);
size_t tlc_eval__annotation_count(const tlc_eval *ev);
const tlc_eval__annotation *tlc_eval__annotation_at(const tlc_eval *ev, size_t i);

/** A profiler step of the input (a trace's `ProfilerStep#N` annotation):
 *  its number N and host interval. Steps are no op rows; `tlcost steps`
 *  (engine/report/steps.c) splits each one's wall time into buckets. */
typedef struct tlc_eval__step {
	int64_t number, start_ns, end_ns;
} tlc_eval__step;

/** Records one (readers call it). 0, TLC_EINVAL (start > end) or
 *  TLC_ENOMEM. */
int tlc_eval__add_step(tlc_eval *ev, int64_t number, int64_t start_ns, int64_t end_ns);
size_t tlc_eval__step_count(const tlc_eval *ev);
const tlc_eval__step *tlc_eval__step_at(const tlc_eval *ev, size_t i);

/** Row index of op id (keep_ops), or -1. */
int64_t tlc_eval__row_of_id(const tlc_eval *ev, int64_t id);

/** Records one cause of device work that no op row accounts for (the
 *  reader that saw the device records calls it; one line per cause, message
 *  and remedy copied). Makes the totals a lower bound. */
/* The gap an input with no op rows carries; one text for the eval and for a
 * merge of partials, so a merge equals a single evaluation. */
#define TLC_EVAL__NO_OP_RECORDS_MSG "no op records: nothing was counted"
#define TLC_EVAL__NO_OP_RECORDS_REMEDY \
	"record ops: torch.profiler.profile(record_shapes=True) for a trace, " \
	"`python3 -m tlcost capture --model MODEL --out FILE` for an op log (docs/capture.md)"

int tlc_eval__add_device_gap(tlc_eval *ev, const char *cause, uint64_t records,
                             int64_t device_ns, const char *message, const char *remedy);
/** The reader's accounting of the device records (tlc_eval_device_work). */
void tlc_eval__set_device_work(tlc_eval *ev, const tlc_device_work *w);
/** The kept rows, compact (rows.h), read-only: nothing writes them after
 *  the evaluation (a join's device times are its overlay, overlay.h). */
struct tlc_rows;
const struct tlc_rows *tlc_eval__rows(const tlc_eval *ev);
/** Kept row i (i < tlc_eval_op_count) as the public struct, by value, with
 *  the device-time fields of the attached overlay (none: TLC_ATTR_NONE). */
tlc_op_row tlc_eval__row(const tlc_eval *ev, size_t i);
/** Same, with the device-time fields of ov (NULL: none). */
struct tlc_overlay;
tlc_op_row tlc_eval__row_with(const tlc_eval *ev, const struct tlc_overlay *ov, size_t i);
/** The overlay tlc_eval_op_get consults (the latest join's; the join
 *  attaches its own when it ran and detaches it when it is freed). It is
 *  a reference: the eval's results do not change. */
void tlc_eval__attach_overlay(tlc_eval *ev, const struct tlc_overlay *ov);
const struct tlc_overlay *tlc_eval__overlay(const tlc_eval *ev);

/* ---- capture pairing (engine/input/capture_pair.c; docs/join.md) ---- */
/** One replayed launch of a graph launch, as capture pairing placed it:
 *  why 0: launched during capture by op op_id (an op added to this eval);
 *  else the TLC_EVAL__PAIR_* cause it stays unattributed with. */
#define TLC_EVAL__PAIR_NO_MATCH  1 /* its graph launch matches no captured graph */
#define TLC_EVAL__PAIR_AMBIGUOUS 2 /* ... matches several captured graphs */
#define TLC_EVAL__PAIR_NO_OP     3 /* its captured launch names no op of the capture */
#define TLC_EVAL__PAIR_GROUP     4 /* an ambiguous group: op_id is an offset into the
                                      pairing's ids (tlc_eval__pairing_ids): a count m,
                                      then the m candidate ops */
typedef struct tlc_eval__paired {
	uint32_t rec;  /* the launch's device record index */
	uint32_t why;
	int64_t op_id;
} tlc_eval__paired;
/** Hands the eval the pairing (v sorted by rec, allocated with the eval's
 *  allocator; the eval frees it) and its summary. */
void tlc_eval__set_pairing(tlc_eval *ev, tlc_eval__paired *v, size_t n, int64_t *ids,
                           size_t nids, const tlc_capture_pair_summary *sum);
/** The ids TLC_EVAL__PAIR_GROUP entries point into, and their count. */
const int64_t *tlc_eval__pairing_ids(const tlc_eval *ev, size_t *n);
/** The pairing entry of device record rec, or NULL (none, or not paired). */
const tlc_eval__paired *tlc_eval__pairing_of(const tlc_eval *ev, size_t rec);
/** Capture pairing placed `kernels` graph-replayed kernels (summed device
 *  time ns) on ops: the reader's graph_replay gap and device-work tally
 *  shrink by them (the gap goes when none is left). 0 or TLC_ENOMEM. */
int tlc_eval__paired_device_work(tlc_eval *ev, uint64_t kernels, int64_t ns);
/** The pairing's summary, or NULL when the eval was not paired. */
const tlc_capture_pair_summary *tlc_eval__pairing_summary(const tlc_eval *ev);
/* ---- eval: where each op's record lies in the input (tlcost annotate) ----
 * Asked for before the input is read, a reader that can (the Kineto trace
 * reader) records, for every op it pushes, the ordinal of the op's event
 * among the objects of the trace's event array (0 = the first) and the
 * event's pid, so that a writer can find each row's event again in a second
 * pass over the same bytes (engine/report/annotate.c). Off by default: it
 * costs 24 bytes per op. */
typedef struct tlc_eval__source_key {
	int64_t id;     /* the op's id (tlc_op_row.id) */
	uint64_t event; /* ordinal of its event among the event objects */
	int64_t pid;    /* the event's pid */
} tlc_eval__source_key;

void tlc_eval__want_source_keys(tlc_eval *ev);
int tlc_eval__source_keys_wanted(const tlc_eval *ev);
/** 0 or TLC_ENOMEM. */
int tlc_eval__add_source_key(tlc_eval *ev, int64_t id, uint64_t event, int64_t pid);
/** The keys recorded, in the order the reader added them (file order). */
const tlc_eval__source_key *tlc_eval__source_keys(const tlc_eval *ev, size_t *n);

#endif
