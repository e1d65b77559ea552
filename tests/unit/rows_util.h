/* Kept rows (and launches, device records) for tests: the eval stores rows
 * compactly and fills a caller's tlc_op_row (tlc_eval_op_get); this hands out rows from a small ring of
 * structs so a test can hold up to 32 at once (test_op_id and test_op_name
 * take none, for searching). NULL when i is out of range. */
#ifndef TLC_TESTS_ROWS_UTIL_H
#define TLC_TESTS_ROWS_UTIL_H

#include <tlcost/tlcost.h>

static inline const tlc_op_row *test_op_at(const tlc_eval *ev, size_t i)
{
	static tlc_op_row ring[32];
	static unsigned next;
	tlc_op_row *r = &ring[next++ % 32];
	r->size = sizeof *r;
	return tlc_eval_op_get(ev, i, r) == 0 ? r : NULL;
}

static inline int64_t test_op_id(const tlc_eval *ev, size_t i)
{
	tlc_op_row r = TLC_OP_ROW_INIT;
	return tlc_eval_op_get(ev, i, &r) == 0 ? r.id : -1;
}

static inline const char *test_op_name(const tlc_eval *ev, size_t i)
{
	tlc_op_row r = TLC_OP_ROW_INIT;
	return tlc_eval_op_get(ev, i, &r) == 0 ? r.name : "";
}

/* Launches and device records the same way (their own rings). */
static inline const tlc_join_launch *test_launch_at(const tlc_join *j, size_t i)
{
	static tlc_join_launch ring[32];
	static unsigned next;
	tlc_join_launch *l = &ring[next++ % 32];
	l->size = sizeof *l;
	return tlc_join_launch_get(j, i, l) == 0 ? l : NULL;
}

static inline const tlc_device_record *test_dev_at(const tlc_eval *ev, size_t i)
{
	static tlc_device_record ring[32];
	static unsigned next;
	tlc_device_record *r = &ring[next++ % 32];
	r->size = sizeof *r;
	return tlc_eval_device_get(ev, i, r) == 0 ? r : NULL;
}

#endif
