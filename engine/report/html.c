/* The one-page HTML report (tlcost html): the JSON documents the other
 * commands write, from the same models and writers, embedded in one
 * self-contained page with inline CSS, JS and the roofline SVG. The page's
 * script only lays out what the documents hold: no figure is computed in
 * the browser. A section is one entry of the table below: its id, and a
 * function that writes its document or names why there is none. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reports.h"
#include "textw.h"
#include "error.h"
#include "join.h"
#include "join_comm.h"
#include "steps_impl.h"
#include "html_assets.h"

#define REASON_CAP 256 /* a section's own reason, with its figures */

typedef struct html_ctx {
	const char *name;
	const tlc_eval *ev;
	const tlc_join *j;
	const tlc_html_options *o;
	const tlc_ranks *ranks;  /* tail sections only */
	char *reason;            /* room for a section's own reason */
	tlc_roofline *rl;        /* the summary only (no rows), built once at the first
	                          * roofline section; the chart's rows are built only
	                          * when the page holds its points */
	int rl_built;            /* tried; rl NULL: rl_refusal says why */
	char *rl_refusal;
	/* The profile-shaped tables (by op, type, module; unique args), built
	 * in one pass over the rows at the first of them (tlc_profile__build_set),
	 * each freed once written */
	tlc_profile *prof[4];
	int prof_built;
	const char *ua_absent;   /* why there is no unique-args table */
	char *ua_reason;
	/* The join's device spans with copies (tlc_join__spans), collected once
	 * for the join section and handed to the steps */
	tlc_join__span *spans;
	size_t nspans;
	int spans_built;
} html_ctx;

enum { PROF_OPS, PROF_TYPES, PROF_MODULES, PROF_ARGS };

/* Writes one section's document to out (JSON unless the section says
 * otherwise) and returns 0, or returns 1 with *absent set to why the
 * section has nothing to show, or a negative error. */
typedef int (*html_doc_fn)(FILE *out, html_ctx *c, const char **absent);


/* ---- escaping ---- */

/* Text in an element or an attribute value. */
static void html_text(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(s[i], out);
		}
	}
}

static void html_str(FILE *out, const char *s)
{
	html_text(out, s ? s : "", s ? strlen(s) : 0);
}

/* JSON inside <script type="application/json">: <, > and & only occur in
 * strings (JSON's syntax has none), where \u003c etc. read back the same,
 * so no input text can close the block or open a comment. */
static void json_in_script(FILE *out, const char *s, size_t n)
{
	size_t from = 0;
	for (size_t i = 0; i < n; i++) {
		const char *rep = s[i] == '<' ? "\\u003c" : s[i] == '>' ? "\\u003e"
		                  : s[i] == '&' ? "\\u0026" : NULL;
		if (!rep)
			continue;
		fwrite(s + from, 1, i - from, out);
		fputs(rep, out);
		from = i + 1;
	}
	fwrite(s + from, 1, n - from, out);
}

/* ---- the sections of one input ---- */

static int doc_headline(FILE *out, html_ctx *c, const char **absent)
{
	(void)absent;
	tlc_rep__coverage_line(out, c->ev);
	return 0;
}

static int doc_flops(FILE *out, html_ctx *c, const char **absent)
{
	(void)absent;
	return tlc_write_flops(out, c->ev, TLC_FORMAT_JSON);
}

static int doc_tree(FILE *out, html_ctx *c, const char **absent)
{
	(void)absent;
	tlc_tree_options o = { sizeof o, TLC_PHASE_FORWARD, c->o->tree_top ? c->o->tree_top : 12,
	                       c->o->tree_depth ? c->o->tree_depth : 8, 0 };
	/* the phase with the most rows' FLOPs is the one worth a tree: forward
	 * when present (as `tlcost tree`), else the first present phase */
	for (int p = TLC_PHASE_FORWARD; !tlc_eval_phase_present(c->ev, TLC_PHASE_FORWARD) &&
	     p <= TLC_PHASE_OTHER; p++)
		if (tlc_eval_phase_present(c->ev, (tlc_phase)p)) {
			o.phase = (tlc_phase)p;
			break;
		}
	tlc_tree *t;
	int rc = tlc_tree_build(&t, c->ev, &o);
	if (rc < 0)
		return rc;
	rc = tlc_write_tree(out, t, TLC_FORMAT_JSON);
	tlc_tree_free(t);
	return rc;
}

/* The library's last error as a reason in buf: message and remedy. */
static const char *error_reason(char *buf, const char *what)
{
	snprintf(buf, REASON_CAP, "%s: %s (%s; remedy: %s)", what, tlc_error_last()->message,
	         tlc_error_last()->code, tlc_error_last()->remedy);
	return buf;
}

/* The four profile-shaped tables, as `tlcost profile --by op|type|module
 * --format json` and `tlcost profile --by args --utilization` build them
 * (the joined build: costed kernel time where the input was joined), in
 * one pass over the rows. The unique-args table is refused, with the
 * library's reason, without a passed gate or without ceilings. */
static int profiles_of(html_ctx *c)
{
	if (c->prof_built)
		return 0;
	c->prof_built = 1;
	size_t top = c->o->top_ops ? c->o->top_ops : 100;
	tlc_profile_options po[4] = {
		{ sizeof po[0], TLC_PROFILE_BY_OP, TLC_SORT_FLOPS, top, -1 },
		{ sizeof po[0], TLC_PROFILE_BY_TYPE, TLC_SORT_FLOPS, 0, -1 },
		{ sizeof po[0], TLC_PROFILE_BY_MODULE, TLC_SORT_FLOPS, top, -1 },
		{ sizeof po[0], TLC_PROFILE_BY_ARGS, TLC_SORT_FLOPS, top, -1 },
	};
	const tlc_profile_options *ps[4] = { &po[0], &po[1], &po[2], &po[3] };
	size_t n = 3;
	tlc_rep_ceil ceil;
	if (!c->j) {
		c->ua_absent = "the unique-args table is shown with attributed kernel utilization, "
		               "which needs a device-time join: the input has no device records "
		               "(kernels, memcpy, memset) to join";
	} else {
		int rc = tlc_profile__util_check(&ceil, c->ev, c->j, &c->o->ceilings);
		if (rc == TLC_EREFUSED || rc == TLC_ENOTFOUND || rc == TLC_EINVAL)
			c->ua_absent = error_reason(c->ua_reason, "no attributed kernel utilization "
			                                          "per unique-args group");
		else if (rc < 0)
			return rc;
		else
			n = 4;
	}
	int rc = tlc_profile__build_set(c->prof, n, c->ev, c->j, ps);
	if (rc == 0 && n == 4)
		rc = tlc_profile__util_apply(c->prof[PROF_ARGS], &ceil);
	return rc;
}

/* Writes table k (then frees it: the by-op table holds a group per op). */
static int profile_doc(FILE *out, html_ctx *c, int k)
{
	int rc = profiles_of(c);
	if (rc < 0)
		return rc;
	rc = tlc_write_profile(out, c->prof[k], TLC_FORMAT_JSON);
	tlc_profile_free(c->prof[k]);
	c->prof[k] = NULL;
	return rc;
}

static int doc_ops(FILE *out, html_ctx *c, const char **absent)
{
	(void)absent;
	return profile_doc(out, c, PROF_OPS);
}

static int doc_types(FILE *out, html_ctx *c, const char **absent)
{
	(void)absent;
	return profile_doc(out, c, PROF_TYPES);
}

static int doc_modules(FILE *out, html_ctx *c, const char **absent)
{
	(void)absent;
	return profile_doc(out, c, PROF_MODULES);
}

/* The roofline of ev, or NULL with the library's reason in refusal when no
 * ceilings are known (the page says so); other errors are errors. */
static int build_roofline(tlc_roofline **out, char *refusal, const tlc_eval *ev,
                          const tlc_html_options *opts, int summary_only)
{
	tlc_roofline_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.ceilings = opts->ceilings;
	o.phase = -1;
	o.cache_bytes = opts->cache_bytes;
	*out = NULL;
	int rc = summary_only ? tlc_roofline__build_summary(out, ev, &o)
	                      : tlc_roofline_build(out, ev, &o);
	if (rc == TLC_ENOTFOUND || rc == TLC_EINVAL) {
		snprintf(refusal, REASON_CAP, "%s (remedy: %s)", tlc_error_last()->message,
		         tlc_error_last()->remedy);
		*out = NULL;
		return 0;
	}
	return rc < 0 ? rc : 0;
}

/* c->rl, built on first use. 0, or an error other than "no ceilings". */
static int roofline_of(html_ctx *c)
{
	if (c->rl_built)
		return 0;
	c->rl_built = 1;
	return build_roofline(&c->rl, c->rl_refusal, c->ev, c->o, 1);
}

/* The roofline's summary: the head of `tlcost roofline --format json` (and
 * of the report's roofline object), written by the same function. */
static int doc_roofline(FILE *out, html_ctx *c, const char **absent)
{
	int rc = roofline_of(c);
	if (rc < 0)
		return rc;
	if (!c->rl) {
		*absent = c->rl_refusal;
		return 1;
	}
	yajl_gen g = tlc_jsonw__new(out);
	if (!g)
		return tlc_error__oom();
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", "tlcost.roofline/2");
	tlc_jsonw__kstr(g, "report", "roofline");
	tlc_rep__roofline_json_head(g, c->rl);
	yajl_gen_map_close(g);
	return tlc_jsonw__end(g, out);
}

/* The chart (SVG, written inline without its XML declaration), or why not:
 * no ceilings, or more points than the page holds. */
static int doc_roofline_svg(FILE *out, html_ctx *c, const char **absent)
{
	int rc = roofline_of(c);
	if (rc < 0)
		return rc;
	if (!c->rl) {
		*absent = c->rl_refusal;
		return 1;
	}
	/* one point per covered row: the summary counts them, the rows are
	 * built only for a chart the page holds */
	size_t points = (size_t)tlc_roofline_get_summary(c->rl)->by_reason[TLC_ROOF_COVERED];
	size_t max = c->o->chart_points_max ? c->o->chart_points_max : 20000;
	if (points > max) { /* one circle per op: a page of hundreds of MB */
		snprintf(c->reason, REASON_CAP,
		         "the chart has %zu points, one per covered op, more than the page holds "
		         "(%zu); `tlcost roofline --svg FILE` draws them all", points, max);
		*absent = c->reason;
		return 1;
	}
	tlc_roofline *rl = NULL;
	rc = build_roofline(&rl, c->rl_refusal, c->ev, c->o, 0);
	if (rc == 0 && !rl) {
		*absent = c->rl_refusal;
		return 1;
	}
	if (rc == 0)
		rc = tlc_write_roofline_svg(out, rl);
	tlc_roofline_free(rl);
	return rc;
}

/* The join's device spans with copies, collected once (the join's
 * figures and the steps' buckets read the same spans). */
static int spans_of(html_ctx *c)
{
	if (c->spans_built)
		return 0;
	c->spans_built = 1;
	return tlc_join__spans(&c->spans, &c->nspans, c->ev, c->j, 1);
}

static int doc_join(FILE *out, html_ctx *c, const char **absent)
{
	if (!c->j) {
		*absent = "the input has no device records (kernels, memcpy, memset) to join";
		return 1;
	}
	int rc = spans_of(c);
	return rc < 0 ? rc : tlc_join__write_json_summary(out, c->j, c->ev, c->spans, c->nspans);
}

/* The unique-args table with attributed kernel utilization: the document
 * of `tlcost profile --by args --utilization --top K --format json` (the
 * same model and writer). Absent, with the library's refusal, without a
 * passed gate or without ceilings for the device. */
static int doc_unique_args(FILE *out, html_ctx *c, const char **absent)
{
	int rc = profiles_of(c);
	if (rc < 0)
		return rc;
	if (c->ua_absent) {
		*absent = c->ua_absent;
		return 1;
	}
	return profile_doc(out, c, PROF_ARGS);
}

/* Where the step went: the document of `tlcost steps --format json`, from
 * the join section's spans (taken: the steps cut and sort them). */
static int doc_steps(FILE *out, html_ctx *c, const char **absent)
{
	if (!c->j) {
		*absent = "step-time buckets need device records (kernels, memcpy, memset): "
		          "the input has none";
		return 1;
	}
	int rc = spans_of(c);
	if (rc < 0)
		return rc;
	tlc_steps *s = NULL;
	rc = tlc_steps__build_spans(&s, c->ev, c->j, c->spans, c->nspans);
	c->spans = NULL;
	c->nspans = 0;
	if (rc == TLC_ENOTFOUND) {
		*absent = error_reason(c->reason, "no step-time buckets");
		return 1;
	}
	if (rc == 0)
		rc = tlc_write_steps(out, s, TLC_FORMAT_JSON);
	tlc_steps_free(s);
	return rc;
}

/* The kind of each document decides how it is embedded: JSON in a script
 * block, text in a hidden <pre>, the SVG inline. */
enum { DOC_JSON, DOC_TEXT, DOC_SVG };

typedef struct html_section {
	const char *id;   /* the page's script looks documents up by it */
	int kind;
	html_doc_fn write;
} html_section;

static const html_section sections[] = {
	{ "headline", DOC_TEXT, doc_headline },
	{ "flops", DOC_JSON, doc_flops },
	{ "tree", DOC_JSON, doc_tree },
	{ "ops", DOC_JSON, doc_ops },
	{ "types", DOC_JSON, doc_types },
	{ "modules", DOC_JSON, doc_modules },
	{ "unique_args", DOC_JSON, doc_unique_args },
	{ "roofline", DOC_JSON, doc_roofline },
	{ "roofline_svg", DOC_SVG, doc_roofline_svg },
	{ "join", DOC_JSON, doc_join },
	{ "steps", DOC_JSON, doc_steps },
};

/* ---- embedding ---- */

static void open_tag(FILE *out, const char *tag, const char *type, long input, const char *id,
                     const char *absent)
{
	fprintf(out, "<%s class=\"tlc-doc\"", tag);
	if (type)
		fprintf(out, " type=\"%s\"", type);
	if (input >= 0)
		fprintf(out, " data-input=\"%ld\"", input);
	else
		fputs(" data-input=\"all\"", out);
	fprintf(out, " data-doc=\"%s\"", id);
	if (absent) {
		fputs(" data-absent=\"", out);
		html_str(out, absent);
		fputc('"', out);
	}
	if (strcmp(tag, "script") != 0)
		fputs(" hidden", out);
	fputc('>', out);
}

static const char *tag_of(int kind)
{
	return kind == DOC_JSON ? "script" : kind == DOC_TEXT ? "pre" : "div";
}

/* Writes the document of one section into memory, then embeds it. */
static int embed(FILE *out, long input, const char *id, int kind, html_doc_fn fn,
                 html_ctx *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return tlc_error__oom();
	const char *absent = NULL;
	int rc = fn(m, c, &absent);
	if (fclose(m) != 0 && rc >= 0)
		rc = tlc_error__oom();
	if (rc < 0) {
		free(buf);
		return rc;
	}
	const char *tag = tag_of(kind);
	open_tag(out, tag, kind == DOC_JSON ? "application/json" : NULL, input, id,
	         rc == 1 ? absent : NULL);
	if (rc == 0) {
		if (kind == DOC_JSON) {
			json_in_script(out, buf, len);
		} else if (kind == DOC_TEXT) {
			html_text(out, buf, len);
		} else { /* the SVG writer escapes its text; drop the XML declaration */
			const char *s = buf;
			if (len > 5 && memcmp(s, "<?xml", 5) == 0) {
				const char *e = memchr(s, '\n', len);
				s = e ? e + 1 : s + len;
			}
			fwrite(s, 1, len - (size_t)(s - buf), out);
		}
	}
	fprintf(out, "</%s>\n", tag);
	free(buf);
	return 0;
}

static int check_opts(const tlc_html_options *o)
{
	if (!o || o->size < offsetof(tlc_html_options, diff)) /* diff appended later */
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass tlc_html_options with size = sizeof(tlc_html_options)",
		                      "tlc_html: options missing or too small");
	return 0;
}

int tlc_html_write_head(FILE *out, const tlc_html_options *opts)
{
	int rc = check_opts(opts);
	if (rc < 0)
		return rc;
	if (!out)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream",
		                      "tlc_html_write_head: NULL stream");
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"generator\" content=\"tlcost ", out);
	html_str(out, tlc_version(NULL, NULL, NULL));
	fputs("\">\n<title>", out);
	html_str(out, opts->title ? opts->title : "tlcost report");
	fputs("</title>\n<style>\n", out);
	for (const char *const *l = tlc_html__css; *l; l++)
		fputs(*l, out);
	fputs("</style>\n</head>\n<body>\n<noscript><p>This page lays out its figures with "
	      "JavaScript, which is off here; the same figures are the JSON documents in the "
	      "page's source, and the commands named in docs/html.md print them.</p></noscript>\n"
	      "<div id=\"tlc-page\"></div>\n"
	      "<div id=\"tlc-docs\" hidden>\n", out);
	return ferror(out) ? tlc_textw__finish(out, 0) : 0;
}

int tlc_html_write_input(FILE *out, size_t index, const char *name, const tlc_eval *ev,
                         const tlc_join *j, const tlc_html_options *opts)
{
	int rc = check_opts(opts);
	if (rc < 0)
		return rc;
	if (!out || !ev)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream and an eval",
		                      "tlc_html_write_input: NULL argument");
	if ((rc = tlc_rep__check_eval(ev)) < 0)
		return rc;
	fprintf(out, "<div class=\"tlc-input\" data-input=\"%zu\" data-name=\"", index);
	html_str(out, name ? name : "");
	fputs("\" hidden></div>\n", out);
	char reason[REASON_CAP], refusal[REASON_CAP], ua_reason[REASON_CAP];
	html_ctx c;
	memset(&c, 0, sizeof c);
	c.name = name;
	c.ev = ev;
	c.j = j;
	c.o = opts;
	c.reason = reason;
	c.rl_refusal = refusal;
	c.ua_reason = ua_reason;
	for (size_t i = 0; i < sizeof sections / sizeof sections[0] && rc == 0; i++)
		rc = embed(out, (long)index, sections[i].id, sections[i].kind, sections[i].write, &c);
	tlc_roofline_free(c.rl);
	for (int k = 0; k < 4; k++)
		tlc_profile_free(c.prof[k]);
	free(c.spans);
	if (rc == 0 && ferror(out))
		rc = tlc_textw__finish(out, 0);
	return rc;
}

static int doc_ranks(FILE *out, html_ctx *c, const char **absent)
{
	const tlc_ranks *r = c->ranks;
	if (!r) {
		*absent = c->o->ranks_refusal ? c->o->ranks_refusal
		          : "one input: give several ranks' traces for the per-rank table";
		return 1;
	}
	return tlc_ranks_write(out, r, TLC_FORMAT_JSON);
}

/* What changed from the first input to the second: the document of
 * `tlcost diff --format json A B` (the same model and writer). */
static int doc_diff(FILE *out, html_ctx *c, const char **absent)
{
	const tlc_diff *d = c->o->size >= offsetof(tlc_html_options, diff) + sizeof d
	                    ? c->o->diff : NULL;
	if (!d) {
		*absent = "give exactly two inputs and --diff for a diff of the second against "
		          "the first (`tlcost diff A B`)";
		return 1;
	}
	return tlc_write_diff(out, d, TLC_FORMAT_JSON);
}

int tlc_html_write_tail(FILE *out, const tlc_ranks *ranks, const tlc_html_options *opts)
{
	int rc = check_opts(opts);
	if (rc < 0)
		return rc;
	if (!out)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream",
		                      "tlc_html_write_tail: NULL stream");
	html_ctx c;
	memset(&c, 0, sizeof c);
	c.o = opts;
	c.ranks = ranks;
	rc = embed(out, -1, "ranks", DOC_JSON, doc_ranks, &c);
	if (rc == 0)
		rc = embed(out, -1, "diff", DOC_JSON, doc_diff, &c);
	if (rc < 0)
		return rc;
	fputs("</div>\n<script>\n", out);
	for (const char *const *l = tlc_html__js; *l; l++)
		fputs(*l, out);
	fputs("</script>\n</body>\n</html>\n", out);
	return tlc_textw__finish(out, 0);
}
