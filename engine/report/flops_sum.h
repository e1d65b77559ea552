/* The flops summary (semi-private): the one model behind the flops JSON
 * (docs/json-schema.md, tlcost.flops/1), filled either from an evaluation
 * (tlc_fsum__from_eval, `tlcost flops`) or from parsed partials
 * (report/merge.c, `tlcost merge`), and written by one writer
 * (tlc_fsum__json). What only one side has is optional: a distributed
 * identity and partly known ledger groups come from an evaluation, each
 * example's source and the list of partials from a merge. Strings the
 * model owns (totals, exact counts) are malloc'd and freed by
 * tlc_fsum__free; the others are borrowed from the evaluation or the merge
 * and must outlive the write. */
#ifndef TLC_REPORT_FLOPS_SUM_H
#define TLC_REPORT_FLOPS_SUM_H

#include <stdint.h>
#include <yajl/yajl_gen.h>
#include "tlcost/tlcost.h"
#include "reports.h"

#define TLC_FSUM_TOTALS 6 /* flops, macs, other_flops, flops_fma1, bytes_read, bytes_written */
#define TLC_FSUM_COVERAGE 7 /* rows, the four classes, skipped_records, device_records */

typedef struct tlc_fsum_phase {
	int present;
	char *tot[TLC_FSUM_TOTALS]; /* owned; NULL is written as null (fma=1 refused) */
	int bytes_complete;
} tlc_fsum_phase;

typedef struct tlc_fsum_comm {
	uint64_t calls;              /* 0: not written */
	char *message_bytes, *bus_bytes; /* owned: an exact integer, an exact "P/Q" or integer */
} tlc_fsum_comm;

/** A ledger group: the entry as an evaluation gives it (arrays inline,
 *  strings borrowed but nested_flops, which the model owns when
 *  own_nested), and for a merge the identity-order position of each
 *  example's source. */
typedef struct tlc_fsum_group {
	tlc_ledger_entry e;
	int has_sources;
	uint32_t id_src[3], shape_src[3];
	int own_nested;
	int own_counted; /* a merge's: counted_flops and counted_bytes owned */
} tlc_fsum_group;

typedef struct tlc_fsum_type {
	const char *name;
	uint64_t count, by_class[4];
	char *flops; /* owned */
} tlc_fsum_type;

/** One merged partial's identity (borrowed strings; rank and world_size
 *  -1 when not recorded). */
typedef struct tlc_fsum_partial {
	const char *name, *backend, *format, *producer, *model, *device;
	int64_t rank, world_size;
} tlc_fsum_partial;

typedef struct tlc_fsum {
	const char *schema, *count_basis, *flop_convention;
	const char *format, *producer, *model, *device; /* "input" */
	int64_t params, tokens;      /* -1: not written */
	const tlc_dist_info *dist;   /* "distributed", or NULL */
	tlc_fsum_phase ph[TLC_PHASE_COUNT];
	int any_comm;
	tlc_fsum_comm comm[TLC_PHASE_COUNT][TLC_COMM_COUNT];
	uint64_t comm_basis[3];      /* recorded, derived, world_size */
	uint64_t cov[TLC_FSUM_COVERAGE];
	int lower_bound;
	int has_device_work;
	tlc_device_work dw;
	size_t ngaps;
	tlc_rep_gap_at gap_at;
	const void *gap_payload;
	tlc_fsum_group *groups;      /* in the order written */
	size_t ngroups;
	tlc_fsum_type *types;        /* in the order written */
	size_t ntypes;
	const tlc_fsum_partial *partials; /* "partials" when not NULL */
	size_t npartials;
} tlc_fsum;

/** An empty summary (params, tokens -1); fill it, write it, free it. */
void tlc_fsum__init(tlc_fsum *s);
/** Frees what the summary owns (groups, types and owned strings). */
void tlc_fsum__free(tlc_fsum *s);
/** Allocates the groups and types arrays (zeroed). TLC_ENOMEM. */
int tlc_fsum__alloc(tlc_fsum *s, size_t ngroups, size_t ntypes);
/** Fills s from an evaluation. 0 or TLC_ENOMEM (s then still freeable). */
int tlc_fsum__from_eval(tlc_fsum *s, const tlc_eval *ev);
/** A malloc'd decimal of z, or NULL (error set). */
char *tlc_fsum__mpz_str(const mpz_t z);

/** The flops document (tlcost.flops/1) into an open generator, map
 *  included. */
void tlc_fsum__json(yajl_gen g, const tlc_fsum *s);
/** Its "input", "device_work", "ledger" and "partials" keys alone (the
 *  ledger document, a merge of join partials). */
void tlc_fsum__json_input(yajl_gen g, const tlc_fsum *s);
void tlc_fsum__json_partials(yajl_gen g, const tlc_fsum *s);
void tlc_fsum__json_device_work(yajl_gen g, const tlc_fsum *s);
void tlc_fsum__json_ledger(yajl_gen g, const tlc_fsum *s);

#endif
