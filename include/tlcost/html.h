/*
 * libtlcost one-page HTML report (tlcost html).
 *
 * Part of the libtlcost public API; <tlcost/tlcost.h> includes every module
 * header. Each header compiles on its own (tests/build/headers.sh).
 */
#ifndef TLCOST_HTML_H
#define TLCOST_HTML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "devices.h"
#include "eval.h"
#include "join.h"
#include "collectives.h"

struct tlc_diff;

#ifdef __cplusplus
extern "C" {
#endif

/* The page is one self-contained file (inline CSS, JS and SVG; no network).
 * It holds the JSON documents the other commands write (the same writers,
 * in <script type="application/json"> blocks, with <, > and & written as
 * \u003c, \u003e, \u0026 so no input text can end the block) and the
 * roofline SVG; inline JS renders the sections from them and computes no
 * figure of its own. docs/html.md has the sections. */

typedef struct tlc_html_options {
	uint32_t size;          /* sizeof(tlc_html_options) */
	tlc_ceilings ceilings;  /* roofline chart and summary; none found: the
	                         * section says why */
	size_t top_ops;         /* rows of the top-ops table (0: 100) */
	size_t tree_depth;      /* module tree depth (0: 8) */
	size_t tree_top;        /* children kept per tree node (0: 12) */
	int64_t cache_bytes;    /* as in tlc_roofline_options */
	const char *title;      /* page title, or NULL: "tlcost report" */
	size_t chart_points_max; /* the roofline chart is embedded when it has at
	                          * most this many points (0: 20000); above, the
	                          * section says how many and which command draws
	                          * them */
	const char *ranks_refusal; /* why there is no per-rank table although there
	                          * are several inputs (tlc_ranks_add refused one:
	                          * the same rank twice), or NULL */
	/* Appended after release 4.2.0 (issue 28 item 1). */
	const struct tlc_diff *diff; /* the diff of the two inputs (tlc_diff_build,
	                          * borrowed), written by tlc_html_write_tail as
	                          * `tlcost diff --format json` writes it; NULL:
	                          * the section says why not */
} tlc_html_options;

#define TLC_HTML_OPTIONS_INIT \
	{ sizeof(tlc_html_options), TLC_CEILINGS_INIT, 0, 0, 0, 0, NULL, 0, NULL, NULL }

/** Writes the page's head (styles, script, title). Then call
 *  tlc_html_write_input once per input (index 0, 1, ...) and
 *  tlc_html_write_tail once. Errors: invalid_argument, io_error. */
int tlc_html_write_head(FILE *out, const tlc_html_options *opts);

/** Writes the documents of one input: a finished eval (keep_ops) and its
 *  device-time join (NULL when the input has none; the join section then
 *  says so). A section whose model cannot be built (no ceilings for the
 *  roofline, ...) is written as absent with the library's reason. name is
 *  shown as the input's title. Errors: those of the writers it calls
 *  (reports_need_ops, out_of_memory, io_error). */
int tlc_html_write_input(FILE *out, size_t index, const char *name, const tlc_eval *ev,
                         const tlc_join *j, const tlc_html_options *opts);

/** Writes the documents over all inputs (the per-rank table from ranks, or
 *  NULL: the section says opts->ranks_refusal, else that there is one
 *  input) and closes the page.
 *  Errors: those of tlc_ranks_write, io_error. */
int tlc_html_write_tail(FILE *out, const tlc_ranks *ranks, const tlc_html_options *opts);

#ifdef __cplusplus
}
#endif
#endif /* TLCOST_HTML_H */
