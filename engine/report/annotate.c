/* The annotated trace's model (docs/annotate.md): which event each op row
 * came from (the trace reader's source keys), the tlcost.* args of a row,
 * and the counter samples; and tlc_annotate_trace, which reads the trace
 * once to evaluate it and once more to copy it (annotate_write.c).
 *
 * Every figure written comes from the evaluation's rows (the same model as
 * `tlcost flops`, `profile` and the JSON documents): nothing is recomputed
 * here but the running sums of the counters. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "annotate.h"
#include "count.h"
#include "cost.h"
#include "error.h"
#include "eval.h"

/* ------------------------------------------------------------------ */
/* model                                                               */
/* ------------------------------------------------------------------ */

static int cmp_sample(const void *pa, const void *pb)
{
	const tlc_annot_sample *a = pa, *b = pb;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->end_ns != b->end_ns)
		return a->end_ns < b->end_ns ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

int tlc_annotate__model_build(tlc_annot_model *m, const tlc_eval *ev)
{
	memset(m, 0, sizeof *m);
	m->a = tlc_eval__allocator(ev);
	m->ev = ev;
	size_t n;
	const tlc_eval__source_key *k = tlc_eval__source_keys(ev, &n);
	if (n == 0)
		return 0;
	m->items = tlc_alloc__malloc(m->a, n * sizeof *m->items);
	m->samples = tlc_alloc__malloc(m->a, n * sizeof *m->samples);
	if (!m->items || !m->samples) {
		tlc_annotate__model_free(m);
		return tlc_error__oom();
	}
	for (size_t i = 0; i < n; i++) {
		int64_t row = tlc_eval__row_of_id(ev, k[i].id);
		if (row < 0 || (i > 0 && k[i].event <= k[i - 1].event)) {
			tlc_annotate__model_free(m);
			return tlc_error__set(TLC_EINPUT, "annotate_input_changed",
			                      "report the trace that gave this error: its op "
			                      "events could not be told apart",
			                      "op id %lld of event %llu has no row of its own",
			                      (long long)k[i].id, (unsigned long long)k[i].event);
		}
		m->items[m->nitems].event = k[i].event;
		m->items[m->nitems].row = (uint32_t)row;
		m->nitems++;
		tlc_op_row r = tlc_eval__row(ev, (size_t)row);
		if (r.cost) { /* counted: known, zero by rule, or partly known */
			tlc_annot_sample *s = &m->samples[m->nsamples++];
			s->pid = k[i].pid;
			s->start_ns = r.start_ns;
			s->end_ns = r.end_ns;
			s->cost = r.cost;
			s->row = (uint32_t)row;
		}
	}
	qsort(m->samples, m->nsamples, sizeof *m->samples, cmp_sample);
	return 0;
}

void tlc_annotate__model_free(tlc_annot_model *m)
{
	if (!m->a)
		return;
	tlc_alloc__free(m->a, m->items);
	tlc_alloc__free(m->a, m->samples);
	tlc_profile_free(m->util);
	tlc_alloc__free(m->a, m->util_of_row);
	memset(m, 0, sizeof *m);
}

/* ------------------------------------------------------------------ */
/* the args of one row                                                 */
/* ------------------------------------------------------------------ */

/* A JSON string (quotes included) of s: '"', '\\' and control bytes
 * escaped; other bytes (UTF-8) as they are. */
static void put_str(tlc_sb *sb, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	tlc_sb__putc(sb, '"');
	const char *run = s, *end = s + strlen(s);
	for (; s < end; s++) {
#ifdef __SSE2__
		/* 16 bytes a step to the next byte to escape (most strings
		 * have none: the rule texts are long plain ASCII) */
		const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'),
		              ctl = _mm_set1_epi8(0x1f);
		while (end - s >= 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
			__m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, bs)),
			                           _mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v)); /* v <= 0x1f */
			unsigned mask = (unsigned)_mm_movemask_epi8(hit);
			if (mask) {
				s += __builtin_ctz(mask);
				break;
			}
			s += 16;
		}
		if (s == end)
			break;
#endif
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		tlc_sb__append(sb, run, (size_t)(s - run));
		char esc[6] = { '\\', (char)c, 0, 0, 0, 0 };
		size_t len = 2;
		if (c < 0x20) {
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			len = 6;
		}
		tlc_sb__append(sb, esc, len);
		run = s + 1;
	}
	tlc_sb__append(sb, run, (size_t)(s - run));
	tlc_sb__putc(sb, '"');
}

static void put_count(tlc_sb *sb, const tlc_count *c)
{
	if (!c->big) {
		tlc_sb__put_i64(sb, c->small);
		return;
	}
	char *s = tlc_count__to_str(c);
	if (!s) {
		sb->failed = 1;
		return;
	}
	tlc_sb__puts(sb, s);
	free(s);
}

/* key is a literal with its quotes, comma and colon: ",\"k\":" */
#define put_key_count(sb, key, c) (tlc_sb__append((sb), key, sizeof key - 1), put_count((sb), (c)))

/* fma=2 FLOPs of a cost: 2 * macs + other (exact). */
static void cost_flops(tlc_count *out, const tlc_cost *c)
{
	tlc_count__init(out);
	tlc_count__addmul_si(out, &c->f[TLC_FIELD_MACS], 2);
	tlc_count__add(out, &c->f[TLC_FIELD_OTHER_FLOPS]);
}

static void cost_bytes(tlc_count *out, const tlc_cost *c)
{
	tlc_count__init(out);
	tlc_count__add(out, &c->f[TLC_FIELD_BYTES_READ]);
	tlc_count__add(out, &c->f[TLC_FIELD_BYTES_WRITTEN]);
}

/* appends a string literal (its length known at compile time) */
#define LIT(sb, lit) tlc_sb__append((sb), lit, sizeof lit - 1)

#define MISSING(c, f) (((c)->missing >> (f)) & 1u)

/* The determined terms of a cost: a term the rule could not determine
 * (partly known) or that is not known (the macs/other split) is absent,
 * never 0. */
static void put_cost(tlc_sb *sb, const tlc_cost *c)
{
	int macs_ok = !MISSING(c, TLC_FIELD_MACS) && !c->split_unknown;
	int flops_ok = !MISSING(c, TLC_FIELD_MACS) && !MISSING(c, TLC_FIELD_OTHER_FLOPS);
	int bytes_ok = !MISSING(c, TLC_FIELD_BYTES_READ) && !MISSING(c, TLC_FIELD_BYTES_WRITTEN);
	if (macs_ok)
		put_key_count(sb, ",\"tlcost.macs\":", &c->f[TLC_FIELD_MACS]);
	tlc_count t;
	if (flops_ok) {
		cost_flops(&t, c);
		put_key_count(sb, ",\"tlcost.flops\":", &t);
		tlc_count__clear(&t);
	}
	if (bytes_ok) {
		cost_bytes(&t, c);
		put_key_count(sb, ",\"tlcost.bytes\":", &t);
		tlc_count__clear(&t);
		if (c->bytes_unknown)
			LIT(sb, ",\"tlcost.bytes_lower_bound\":true");
	}
	if (c->split_unknown && flops_ok)
		tlc_sb__puts(sb, ",\"tlcost.macs_unknown\":\"the rule gives FLOPs without a "
		                 "multiply-accumulate split\"");
	LIT(sb, ",\"tlcost.evidence\":\"");
	tlc_sb__puts(sb, tlc_evidence_name(c->evidence));
	tlc_sb__putc(sb, '"');
}

void tlc_annotate__row_args(tlc_sb *sb, const tlc_annot_model *m, size_t row,
                            tlc_annotate_summary *s)
{
	const tlc_eval *ev = m->ev;
	tlc_op_row r = tlc_eval__row(ev, row);
	LIT(sb, "\"tlcost.class\":\"");
	tlc_sb__puts(sb, tlc_class_name(r.cls));
	LIT(sb, "\",\"tlcost.phase\":\"");
	tlc_sb__puts(sb, tlc_phase_name(r.phase));
	tlc_sb__putc(sb, '"');
	switch (r.cls) {
	case TLC_CLASS_KNOWN:
	case TLC_CLASS_ZERO_BY_RULE:
		s->known++;
		if (r.cost)
			put_cost(sb, r.cost);
		if (r.reason) {
			LIT(sb, ",\"tlcost.rule\":");
			put_str(sb, r.reason);
		}
		tlc_annotate__utilization(sb, m, row, s);
		break;
	case TLC_CLASS_UNKNOWN:
		s->unknown++;
		LIT(sb, ",\"tlcost.unknown\":");
		put_str(sb, r.reason ? r.reason : "unknown");
		if (r.cost) { /* partly known: its determined terms, counted in the totals */
			put_cost(sb, r.cost);
			LIT(sb, ",\"tlcost.missing\":\"");
			const char *sep = "";
			static const char *const names[] = { "macs", "other_flops", "bytes_read",
			                                     "bytes_written" };
			for (int f = 0; f < TLC_FIELD_COUNT; f++)
				if (MISSING(r.cost, f)) {
					tlc_sb__printf(sb, "%s%s", sep, names[f]);
					sep = ",";
				}
			tlc_sb__putc(sb, '"');
		}
		break;
	default:
		s->not_applicable++;
		if (r.reason) {
			LIT(sb, ",\"tlcost.reason\":");
			put_str(sb, r.reason);
		}
		break;
	}
	s->ops++;
}

int tlc_annotate__util_build(tlc_annot_model *m, tlc_eval *ev, const tlc_ceilings *c,
                             int *refused)
{
	*refused = 0;
	tlc_join *j = NULL;
	int rc = tlc_join_run(&j, ev, NULL);
	if (rc < 0)
		return rc;
	/* by op: one row per op, the model `tlcost profile --by op
	 * --utilization` prints; every row, every phase */
	tlc_profile_options o = { sizeof o, TLC_PROFILE_BY_OP, TLC_SORT_FLOPS, 0, -1 };
	rc = tlc_profile_build_util(&m->util, ev, j, &o, c);
	tlc_join_free(j);
	if (rc == TLC_EREFUSED) {
		m->util = NULL;
		*refused = 1;
		return 0;
	}
	if (rc < 0) {
		m->util = NULL;
		return rc;
	}
	size_t n = tlc_eval_op_count(ev), k = tlc_profile_row_count(m->util);
	m->util_of_row = tlc_alloc__malloc(m->a, (n ? n : 1) * sizeof *m->util_of_row);
	if (!m->util_of_row)
		return tlc_error__oom();
	for (size_t i = 0; i < n; i++)
		m->util_of_row[i] = -1;
	for (size_t i = 0; i < k; i++) {
		const tlc_profile_row *r = tlc_profile_row_at(m->util, i);
		int64_t row = r->op ? tlc_eval__row_of_id(ev, r->op->id) : -1;
		if (row >= 0 && (size_t)row < n && r->has_util)
			m->util_of_row[row] = (int32_t)i;
	}
	return 0;
}

/* A double as JSON to 15 significant digits (the document rounds to 6). */
static void put_real(tlc_sb *sb, const char *key, double v)
{
	tlc_sb__printf(sb, ",\"tlcost.util.%s\":%.15g", key, v);
}

void tlc_annotate__utilization(tlc_sb *sb, const tlc_annot_model *m, size_t row,
                               tlc_annotate_summary *s)
{
	/* The per-row model of tlc_profile_build_util (issue 25 item 4): the
	 * row's exact FLOPs and bytes over its costed kernel time, under a
	 * passed gate. Absent keys where it has none: never 0. */
	if (!m->util_of_row || m->util_of_row[row] < 0)
		return;
	const tlc_profile_row *r = tlc_profile_row_at(m->util, (size_t)m->util_of_row[row]);
	put_real(sb, "flops_per_s", r->flops_per_s);
	if (r->bytes_per_s >= 0)
		put_real(sb, "bytes_per_s", r->bytes_per_s);
	if (r->peak_share >= 0)
		put_real(sb, "peak_share", r->peak_share);
	if (r->bw_share >= 0)
		put_real(sb, "bw_share", r->bw_share);
	if (r->peak_dtype) {
		LIT(sb, ",\"tlcost.util.peak_dtype\":");
		put_str(sb, r->peak_dtype);
	}
	tlc_sb__printf(sb, ",\"tlcost.util.kernel_ns\":%lld", (long long)r->costed_kernel_ns);
	if (r->recoverable_ns >= 0)
		put_real(sb, "recoverable_ns_hypothesis", r->recoverable_ns);
	if (r->util_note) {
		LIT(sb, ",\"tlcost.util.note\":");
		put_str(sb, r->util_note);
	}
	s->utilization++;
}

/* ------------------------------------------------------------------ */
/* counters                                                            */
/* ------------------------------------------------------------------ */

/* ns as microseconds with three decimals ("12.345"), exactly. */
static void put_us(tlc_sb *sb, int64_t ns)
{
	if (ns < 0) {
		tlc_sb__putc(sb, '-');
		if (ns == INT64_MIN) { /* -9223372036854775808 ns */
			LIT(sb, "9223372036854775.808");
			return;
		}
		ns = -ns;
	}
	tlc_sb__put_i64(sb, ns / 1000);
	int frac = (int)(ns % 1000);
	char d[4] = { '.', (char)('0' + frac / 100), (char)('0' + frac / 10 % 10), (char)('0' + frac % 10) };
	tlc_sb__append(sb, d, 4);
}

/* What one track's counter events of one process share: the text before
 * the time and the text between the time and the value. */
typedef struct counter_head {
	char head[160]; /* (the track names are short literals) */
	size_t head_len;
	const char *mid;
	size_t mid_len;
} counter_head;

static void counter_head_init(counter_head *h, const char *name, int64_t pid, const char *mid)
{
	int n = snprintf(h->head, sizeof h->head,
	                 "{\"ph\":\"C\",\"cat\":\"tlcost\",\"name\":\"%s\",\"pid\":%lld,\"ts\":",
	                 name, (long long)pid);
	h->head_len = n > 0 && (size_t)n < sizeof h->head ? (size_t)n : 0;
	h->mid = mid;
	h->mid_len = strlen(mid);
}

static void put_counter(tlc_sb *sb, int *first, const counter_head *h, int64_t ns,
                        const tlc_count *v)
{
	if (*first)
		LIT(sb, "\n");
	else
		LIT(sb, ",\n");
	*first = 0;
	tlc_sb__append(sb, h->head, h->head_len);
	put_us(sb, ns);
	tlc_sb__append(sb, h->mid, h->mid_len);
	put_count(sb, v);
	LIT(sb, "}}");
}

#define FLOPS_TRACK "tlcost analytic FLOPs (cumulative)"
#define BYTES_TRACK "tlcost analytic bytes (cumulative)"

int tlc_annotate__counters(tlc_sb *sb, const tlc_annot_model *m, int first,
                           tlc_annotate_summary *s, int (*flush)(tlc_sb *sb, void *payload),
                           void *payload)
{
	int rc = 0;
	tlc_count fl, by, zero, t;
	tlc_count__init(&fl);
	tlc_count__init(&by);
	tlc_count__init(&zero);
	for (size_t i = 0; i < m->nsamples && rc == 0;) {
		/* one process: a sample of 0 where its first counted op starts,
		 * then the running sums at each distinct end time */
		size_t j = i;
		int64_t pid = m->samples[i].pid, start = m->samples[i].start_ns;
		while (j < m->nsamples && m->samples[j].pid == pid) {
			if (m->samples[j].start_ns < start)
				start = m->samples[j].start_ns;
			j++;
		}
		counter_head hf, hb;
		counter_head_init(&hf, FLOPS_TRACK, pid, ",\"args\":{\"flops\":");
		counter_head_init(&hb, BYTES_TRACK, pid, ",\"args\":{\"bytes\":");
		put_counter(sb, &first, &hf, start, &zero);
		put_counter(sb, &first, &hb, start, &zero);
		s->counters += 2;
		tlc_count__clear(&fl);
		tlc_count__clear(&by);
		tlc_count__init(&fl);
		tlc_count__init(&by);
		for (size_t k = i; k < j; k++) {
			const tlc_cost *cost = m->samples[k].cost;
			cost_flops(&t, cost);
			tlc_count__add(&fl, &t);
			tlc_count__clear(&t);
			cost_bytes(&t, cost);
			tlc_count__add(&by, &t);
			tlc_count__clear(&t);
			if (k + 1 < j && m->samples[k + 1].end_ns == m->samples[k].end_ns)
				continue;
			put_counter(sb, &first, &hf, m->samples[k].end_ns, &fl);
			put_counter(sb, &first, &hb, m->samples[k].end_ns, &by);
			s->counters += 2;
			if (sb->len >= ((size_t)1 << 20) && (rc = flush(sb, payload)) < 0)
				break;
		}
		i = j;
	}
	tlc_count__clear(&fl);
	tlc_count__clear(&by);
	tlc_count__clear(&zero);
	return rc;
}

/* ------------------------------------------------------------------ */
/* tlc_annotate_trace                                                  */
/* ------------------------------------------------------------------ */

/* Copies an input that cannot be read twice (standard input, a pipe) to a
 * temporary file; *tmp is its malloc'd path. */
static int buffer_input(char **tmp, uint64_t *bytes, const char *input, const char *dir)
{
	FILE *in = strcmp(input, "-") == 0 ? stdin : fopen(input, "rb");
	if (!in)
		return tlc_error__set_pos(TLC_EIO, "io_error", input, 0, 0,
		                          "check the path and its permissions",
		                          "cannot open '%s': %s", input, strerror(errno));
	size_t cap = strlen(dir) + 32;
	char *path = malloc(cap);
	int fd = -1;
	if (path) {
		snprintf(path, cap, "%s/tlcost-annotate-XXXXXX", dir);
		fd = mkstemp(path);
	}
	FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
	int rc = 0;
	if (!path) {
		rc = tlc_error__oom();
	} else if (!out) {
		rc = tlc_error__set_pos(TLC_EIO, "io_error", input, 0, 0,
		                        "set TMPDIR to a writable directory with room for the trace",
		                        "cannot create a temporary file in '%s' to buffer the input "
		                        "(it is read twice): %s", dir, strerror(errno));
		if (fd >= 0)
			close(fd), unlink(path);
	}
	enum { BUFSZ = 1 << 16 };
	char *buf = rc == 0 ? malloc(BUFSZ) : NULL;
	size_t n;
	*bytes = 0;
	if (rc == 0 && !buf)
		rc = tlc_error__oom();
	while (rc == 0 && (n = fread(buf, 1, BUFSZ, in)) > 0) {
		if (fwrite(buf, 1, n, out) != n)
			rc = tlc_error__set_pos(TLC_EIO, "io_error", input, 0, 0,
			                        "set TMPDIR to a writable directory with room for the "
			                        "trace", "buffering the input in '%s' failed: %s", path,
			                        strerror(errno));
		*bytes += n;
	}
	if (rc == 0 && ferror(in))
		rc = tlc_error__set_pos(TLC_EIO, "io_error", input, 0, 0,
		                        "check that the input is readable",
		                        "reading '%s' failed: %s", input, strerror(errno));
	if (out && fclose(out) != 0 && rc == 0)
		rc = tlc_error__set_pos(TLC_EIO, "io_error", input, 0, 0,
		                        "set TMPDIR to a writable directory with room for the trace",
		                        "buffering the input in '%s' failed: %s", path, strerror(errno));
	free(buf);
	if (in != stdin)
		fclose(in);
	if (rc < 0) {
		if (out)
			unlink(path);
		free(path);
		return rc;
	}
	*tmp = path;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int annotate(tlc_annotate_summary *s, tlc_engine *eng, const char *input,
                    const char *name, const char *output, int gzip,
                    const tlc_input_limits *lim, const tlc_ceilings *ceilings)
{
	tlc_eval_options eo = { sizeof eo, 1, NULL, NULL };
	tlc_eval *ev;
	int rc = tlc_eval_new(&ev, eng, &eo);
	if (rc < 0)
		return rc;
	tlc_eval__want_source_keys(ev);
	rc = tlc_input_read_limited(ev, input, lim);
	if (rc == 0)
		rc = tlc_eval_finish(ev);
	const tlc_input_info *info = tlc_eval_info(ev);
	if (rc == 0 && (!info->format || strcmp(info->format, "kineto-trace") != 0))
		rc = tlc_error__set_pos(TLC_EINPUT, "annotate_not_trace", name, 0, 0,
		                        "give a PyTorch profiler trace (prof.export_chrome_trace, "
		                        "plain or .gz): an op log has no trace to annotate; "
		                        "`tlcost flops` and `tlcost profile` read it",
		                        "'%s' is %s, not a Chrome-trace JSON trace", name,
		                        info->format ? info->format : "not a trace");
	tlc_annot_model m;
	memset(&m, 0, sizeof m);
	if (rc == 0)
		rc = tlc_annotate__model_build(&m, ev);
	if (rc == 0 && ceilings)
		rc = tlc_annotate__util_build(&m, ev, ceilings, &s->utilization_refused);
	s->lower_bound = tlc_eval_is_lower_bound(ev);
	s->gzip = gzip;
	tlc_outfile *o = NULL;
	FILE *f = NULL;
	if (rc == 0)
		rc = tlc_outfile_open(&o, &f, output);
	if (rc == 0) {
		rc = tlc_annotate__copy(f, gzip, input, &m, s);
		if (rc == 0)
			rc = tlc_outfile_commit(o);
		else
			tlc_outfile_abort(o);
	}
	tlc_annotate__model_free(&m);
	tlc_eval_free(ev);
	return rc;
}

int tlc_annotate_trace(tlc_annotate_summary *out, tlc_engine *eng, const char *input,
                       const char *output, const tlc_annotate_options *opts)
{
	if (!eng || !input || !output || (out && out->size < sizeof(uint32_t) + 8) ||
	    (opts && opts->size < sizeof(uint32_t) + sizeof(int)))
		return tlc_error__set(TLC_EINVAL, "invalid_argument",
		                      "pass an engine, an input and an output path",
		                      "tlc_annotate_trace: NULL or undersized argument");
	tlc_annotate_options o = TLC_ANNOTATE_OPTIONS_INIT;
	if (opts)
		memcpy(&o, opts, opts->size < sizeof o ? opts->size : sizeof o);
	tlc_annotate_summary s = TLC_ANNOTATE_SUMMARY_INIT;
	int gzip = o.gzip >= 0 ? o.gzip != 0 : ends_with(output, ".gz");
	struct stat st;
	char *tmp = NULL;
	int rc = 0;
	if (strcmp(input, "-") == 0 || (stat(input, &st) == 0 && !S_ISREG(st.st_mode))) {
		const char *dir = o.tmpdir ? o.tmpdir : getenv("TMPDIR");
		rc = buffer_input(&tmp, &s.buffered_bytes, input, dir && *dir ? dir : "/tmp");
	}
	if (rc == 0)
		rc = annotate(&s, eng, tmp ? tmp : input, strcmp(input, "-") == 0 ? "<stdin>" : input,
		              output, gzip, o.limits, o.ceilings);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	if (rc == 0 && out)
		memcpy((char *)out + sizeof out->size, (char *)&s + sizeof s.size,
		       (out->size < sizeof s ? out->size : sizeof s) - sizeof s.size);
	return rc;
}
