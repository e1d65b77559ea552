/* _tlcost.Eval: one evaluation. Ops arrive one at a time from the capture
 * (push), or from a file (read); after finish() the totals, coverage,
 * ledger and every report are read from the library. With record=True each
 * pushed op is also written as an op log v1 line to an anonymous temporary
 * file, so saving the log later costs no memory that grows with the ops. */
#include "ext.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct tlpy_eval {
	PyObject_HEAD
	tlc_eval *ev;
	tlpy_engine *engine;   /* strong: the eval borrows its registry */
	tlpy_arena arena;
	FILE *log;             /* record=True: the op lines so far */
	tlc_join *join;
	int finished, busy;
	uint64_t pushed;
} tlpy_eval;

static int eval_init(tlpy_eval *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "engine", "keep_ops", "record", NULL };
	PyObject *eng;
	int keep_ops = 1, record = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|pp", kwlist, &tlpy_engine_type, &eng,
	                                 &keep_ops, &record))
		return -1;
	if (self->ev) {
		PyErr_SetString(PyExc_RuntimeError, "Eval already initialised");
		return -1;
	}
	if (!((tlpy_engine *)eng)->eng) {
		tlpy_raise(TLC_ESTATE, "invalid_argument", "initialise the Engine first",
		           "engine not initialised");
		return -1;
	}
	tlc_eval_options o = { sizeof o, keep_ops, NULL, NULL };
	if (tlc_eval_new(&self->ev, ((tlpy_engine *)eng)->eng, &o) < 0) {
		self->ev = NULL;
		tlpy_raise_last();
		return -1;
	}
	Py_INCREF(eng);
	self->engine = (tlpy_engine *)eng;
	if (record && !(self->log = tmpfile())) {
		PyErr_SetFromErrno(PyExc_OSError);
		return -1;
	}
	return 0;
}

static void eval_dealloc(tlpy_eval *self)
{
	tlc_join_free(self->join);
	tlc_eval_free(self->ev);
	tlpy_arena_free(&self->arena);
	if (self->log)
		fclose(self->log);
	Py_XDECREF(self->engine);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ready(tlpy_eval *self, int want_finished)
{
	if (!self->ev) {
		tlpy_raise(TLC_ESTATE, "invalid_argument", "create the Eval with an Engine",
		           "Eval not initialised");
		return 0;
	}
	if (self->busy) {
		tlpy_raise(TLC_ESTATE, "eval_busy", "use one Eval from one thread at a time",
		           "the evaluation is in use by another thread");
		return 0;
	}
	if (want_finished >= 0 && self->finished != want_finished) {
		tlpy_raise(TLC_ESTATE, want_finished ? "eval_not_finished" : "eval_finished",
		           want_finished ? "call finish() first" : "start a new evaluation",
		           want_finished ? "the evaluation is not finished"
		                         : "the evaluation is already finished");
		return 0;
	}
	return 1;
}

/* ---- input ---- */

static PyObject *eval_set_info(tlpy_eval *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "format", "producer", "model", "device", "params", "tokens",
	                          "meta_json", NULL };
	tlc_input_info in = TLC_INPUT_INFO_INIT;
	long long params = -1, tokens = -1;
	if (!ready(self, 0) ||
	    !PyArg_ParseTupleAndKeywords(args, kw, "|zzzzLLz", kwlist, &in.format, &in.producer,
	                                 &in.model, &in.device, &params, &tokens, &in.meta_json))
		return NULL;
	in.params = params;
	in.tokens = tokens;
	if (tlc_eval_set_info(self->ev, &in) < 0)
		return tlpy_raise_last();
	Py_RETURN_NONE;
}

static int opt_str(const char **out, PyObject *v, tlpy_arena *a)
{
	*out = NULL;
	if (v == Py_None)
		return 0;
	tlc_value tmp;
	if (!PyUnicode_Check(v)) {
		PyErr_SetString(PyExc_TypeError, "expected str or None");
		return -1;
	}
	if (tlpy_value_from_py(&tmp, v, a, 0) < 0)
		return -1;
	*out = tmp.u.string;
	return 0;
}

/* optional int64 field: -1 (or None) = absent */
static int opt_i64(int64_t *out, unsigned *flags, unsigned bit, PyObject *v)
{
	if (v == Py_None)
		return 0;
	long long x = PyLong_AsLongLong(v);
	if (x == -1 && PyErr_Occurred())
		return -1;
	if (x >= 0) {
		*out = x;
		*flags |= bit;
	}
	return 0;
}

/* push(id, name, overload, phase, module, module_type, module_call, args,
 *      kwargs, outputs, host_ns, start_ns, thread) */
static int build_op(tlc_op *op, PyObject *const *a, tlpy_arena *ar)
{
	memset(op, 0, sizeof *op);
	op->size = sizeof *op;
	long long id = PyLong_AsLongLong(a[0]);
	long phase = PyLong_AsLong(a[3]);
	if (PyErr_Occurred())
		return -1;
	op->id = op->correlation = id;
	op->phase = (phase >= 0 && phase < TLC_PHASE_COUNT) ? (tlc_phase)phase : TLC_PHASE_OTHER;
	if (opt_str(&op->name, a[1], ar) < 0 || opt_str(&op->overload, a[2], ar) < 0 ||
	    opt_str(&op->module, a[4], ar) < 0 || opt_str(&op->module_type, a[5], ar) < 0 ||
	    opt_i64(&op->module_call, &op->flags, TLC_OP_HAS_MODULE_CALL, a[6]) < 0 ||
	    tlpy_values_from_seq(&op->args, &op->nargs, a[7], ar) < 0 ||
	    tlpy_kwargs_from_dict(&op->kwargs, &op->nkwargs, a[8], ar) < 0 ||
	    tlpy_values_from_seq(&op->outputs, &op->noutputs, a[9], ar) < 0 ||
	    opt_i64(&op->host_ns, &op->flags, TLC_OP_HAS_HOST_NS, a[10]) < 0 ||
	    opt_i64(&op->start_ns, &op->flags, TLC_OP_HAS_START_NS, a[11]) < 0 ||
	    opt_i64(&op->thread, &op->flags, TLC_OP_HAS_THREAD, a[12]) < 0)
		return -1;
	if (a[9] != Py_None)
		op->flags |= TLC_OP_HAS_OUTPUTS;
	return 0;
}

static PyObject *eval_push(tlpy_eval *self, PyObject *const *args, Py_ssize_t nargs)
{
	if (nargs != 13) {
		PyErr_SetString(PyExc_TypeError, "push takes 13 arguments");
		return NULL;
	}
	if (!ready(self, 0))
		return NULL;
	tlc_op op;
	PyObject *r = NULL;
	if (build_op(&op, args, &self->arena) == 0) {
		if (tlc_eval_push_op(self->ev, &op) < 0)
			tlpy_raise_last();
		else if (self->log && tlc_oplog_write_op(self->log, &op) < 0)
			tlpy_raise_last();
		else {
			self->pushed++;
			r = Py_None;
			Py_INCREF(r);
		}
	}
	tlpy_arena_reset(&self->arena);
	return r;
}

static PyObject *eval_count_skipped(tlpy_eval *self, PyObject *args)
{
	const char *kind;
	if (!ready(self, 0) || !PyArg_ParseTuple(args, "s", &kind))
		return NULL;
	tlc_eval_count_skipped(self->ev, kind);
	Py_RETURN_NONE;
}

static PyObject *eval_read(tlpy_eval *self, PyObject *arg)
{
	PyObject *b;
	if (!ready(self, 0) || !PyUnicode_FSConverter(arg, &b))
		return NULL;
	int rc;
	self->busy = 1;
	Py_BEGIN_ALLOW_THREADS
	rc = tlc_input_read(self->ev, PyBytes_AS_STRING(b));
	Py_END_ALLOW_THREADS
	self->busy = 0;
	Py_DECREF(b);
	if (rc < 0)
		return tlpy_raise_last();
	Py_RETURN_NONE;
}

/* Device time exists only from a join: run it whenever the input brought
 * something to join, as the tlcost command does (contract section 7). */
static int auto_join(tlpy_eval *self)
{
	tlc_coverage c = TLC_COVERAGE_INIT;
	tlc_eval_coverage(&c, self->ev);
	const tlc_profiler_status *ps = tlc_eval_profiler_status(self->ev);
	if (tlc_eval_op_count(self->ev) == 0 && c.rows > 0)
		return 0; /* keep_ops off: nothing to join onto */
	if (c.device_records == 0 && ps->state == TLC_PROFILER_UNKNOWN)
		return 0;
	return tlc_join_run(&self->join, self->ev, NULL);
}

static PyObject *eval_finish(tlpy_eval *self, PyObject *unused)
{
	if (!ready(self, 0))
		return NULL;
	if (tlc_eval_finish(self->ev) < 0)
		return tlpy_raise_last();
	self->finished = 1;
	if (auto_join(self) < 0)
		return tlpy_raise_last();
	Py_RETURN_NONE;
}

/* ---- results ---- */

static PyObject *eval_total(tlpy_eval *self, PyObject *args)
{
	int phase, which;
	if (!ready(self, 1) || !PyArg_ParseTuple(args, "ii", &phase, &which))
		return NULL;
	char *s = NULL;
	if (tlc_eval_total_str(&s, self->ev, (tlc_phase)phase, (tlc_total)which) < 0)
		return tlpy_raise_last();
	PyObject *r = tlpy_int_from_dec(s);
	tlc_free(s);
	return r;
}

static PyObject *eval_phase_flags(tlpy_eval *self, PyObject *args)
{
	int phase;
	if (!ready(self, 1) || !PyArg_ParseTuple(args, "i", &phase))
		return NULL;
	if (phase < 0 || phase >= TLC_PHASE_COUNT)
		return tlpy_raise(TLC_EINVAL, "invalid_argument", "use a phase index 0..3",
		                  "unknown phase");
	return Py_BuildValue("(OO)", tlc_eval_phase_present(self->ev, (tlc_phase)phase) ? Py_True : Py_False,
	                     tlc_eval_bytes_incomplete(self->ev, (tlc_phase)phase) ? Py_True : Py_False);
}

static PyObject *eval_lower_bound(tlpy_eval *self, PyObject *unused)
{
	if (!ready(self, 1))
		return NULL;
	return PyBool_FromLong(tlc_eval_is_lower_bound(self->ev));
}

static PyObject *eval_coverage(tlpy_eval *self, PyObject *unused)
{
	tlc_coverage c = TLC_COVERAGE_INIT;
	if (!ready(self, 1))
		return NULL;
	if (tlc_eval_coverage(&c, self->ev) < 0)
		return tlpy_raise_last();
	return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K,s:K}", "rows", (unsigned long long)c.rows,
	                     "known", (unsigned long long)c.by_class[TLC_CLASS_KNOWN],
	                     "zero_by_rule", (unsigned long long)c.by_class[TLC_CLASS_ZERO_BY_RULE],
	                     "not_applicable", (unsigned long long)c.by_class[TLC_CLASS_NOT_APPLICABLE],
	                     "unknown", (unsigned long long)c.by_class[TLC_CLASS_UNKNOWN],
	                     "skipped_records", (unsigned long long)c.skipped,
	                     "device_records", (unsigned long long)c.device_records);
}

static PyObject *ledger_entry(const tlc_ledger_entry *e)
{
	PyObject *ids = PyList_New(0), *shapes = PyList_New(0);
	for (size_t i = 0; ids && i < e->nexample_ids; i++) {
		PyObject *x = PyLong_FromLongLong((long long)e->example_ids[i]);
		if (!x || PyList_Append(ids, x) < 0)
			Py_CLEAR(ids);
		Py_XDECREF(x);
	}
	for (size_t i = 0; shapes && i < e->nexample_shapes; i++) {
		PyObject *x = PyUnicode_FromString(e->example_shapes[i]);
		if (!x || PyList_Append(shapes, x) < 0)
			Py_CLEAR(shapes);
		Py_XDECREF(x);
	}
	PyObject *nested = tlpy_int_from_dec(e->nested_flops);
	PyObject *d = NULL;
	if (ids && shapes && nested)
		d = Py_BuildValue("{s:s,s:s,s:K,s:O,s:O,s:O,s:s,s:z,s:s}", "name", e->name, "overload",
		                  e->overload, "count", (unsigned long long)e->count, "example_ids", ids,
		                  "example_shapes", shapes, "nested_flops", nested, "reason", e->reason,
		                  "detail", e->detail, "remedy", e->remedy);
	Py_XDECREF(ids);
	Py_XDECREF(shapes);
	Py_XDECREF(nested);
	return d;
}

static PyObject *eval_ledger(tlpy_eval *self, PyObject *unused)
{
	if (!ready(self, 1))
		return NULL;
	PyObject *l = PyList_New(0);
	for (size_t i = 0; l && i < tlc_eval_ledger_count(self->ev); i++) {
		PyObject *d = ledger_entry(tlc_eval_ledger_at(self->ev, i));
		if (!d || PyList_Append(l, d) < 0)
			Py_CLEAR(l);
		Py_XDECREF(d);
	}
	return l;
}

static PyObject *eval_info(tlpy_eval *self, PyObject *unused)
{
	if (!ready(self, -1))
		return NULL;
	const tlc_input_info *in = tlc_eval_info(self->ev);
	return Py_BuildValue("{s:z,s:z,s:z,s:z,s:L,s:L,s:z}", "format", in->format, "producer",
	                     in->producer, "model", in->model, "device", in->device, "params",
	                     (long long)in->params, "tokens", (long long)in->tokens, "meta_json",
	                     in->meta_json);
}

static PyObject *eval_counts(tlpy_eval *self, PyObject *unused)
{
	if (!ready(self, -1))
		return NULL;
	return Py_BuildValue("(KK)", (unsigned long long)self->pushed,
	                     (unsigned long long)tlc_eval_op_count(self->ev));
}

/* ---- the op log lines recorded so far, to a Python writer ---- */

/* The anonymous temporary holding the recorded op log cannot be flushed
 * or read back (errno): typed, as the library's io_error. */
static PyObject *log_failed(void)
{
	char msg[160];
	snprintf(msg, sizeof msg, "cannot flush or read back the recorded op log: %s",
	         strerror(errno ? errno : EIO));
	return tlpy_raise(TLC_EIO, "io_error",
	                  "check the free space and file size limit of the temporary directory "
	                  "(TMPDIR), then capture again",
	                  msg);
}

static PyObject *eval_write_log(tlpy_eval *self, PyObject *writer)
{
	if (!ready(self, -1))
		return NULL;
	if (!self->log)
		return tlpy_raise(TLC_ESTATE, "capture_not_recorded",
		                  "capture with record=True to save the op log",
		                  "this report was not recorded as an op log");
	if (fflush(self->log) != 0 || fseek(self->log, 0, SEEK_SET) != 0)
		return log_failed();
	char buf[65536];
	size_t n;
	PyObject *r = Py_None;
	self->busy = 1; /* the writer is Python: another thread could come in */
	while (r && (n = fread(buf, 1, sizeof buf, self->log)) > 0) {
		PyObject *chunk = PyBytes_FromStringAndSize(buf, (Py_ssize_t)n);
		PyObject *res = chunk ? PyObject_CallOneArg(writer, chunk) : NULL;
		Py_XDECREF(chunk);
		if (!res)
			r = NULL;
		Py_XDECREF(res);
	}
	if (r && ferror(self->log))
		r = log_failed();
	if (fseek(self->log, 0, SEEK_END) != 0 && r)
		r = log_failed();
	self->busy = 0;
	Py_XINCREF(r);
	return r;
}

/* ---- reports: each writes into a Python str ---- */

typedef struct report_job {
	tlpy_eval *self;
	const char *report;
	tlc_format fmt;
	tlc_tree_options tree;
	tlc_profile_options prof;
	tlc_roofline_options roof;
	tlc_mfu_options mfu;
	tlc_report_options rep;
	size_t top;
} report_job;

static int run_tree(FILE *out, report_job *j)
{
	tlc_tree *t;
	int rc = tlc_tree_build(&t, j->self->ev, &j->tree);
	if (rc == 0) {
		rc = tlc_write_tree(out, t, j->fmt);
		tlc_tree_free(t);
	}
	return rc;
}

static int run_profile(FILE *out, report_job *j)
{
	tlc_profile *p;
	int rc = tlc_profile_build(&p, j->self->ev, &j->prof);
	if (rc == 0) {
		rc = tlc_write_profile(out, p, j->fmt);
		tlc_profile_free(p);
	}
	return rc;
}

static int run_roofline(FILE *out, report_job *j, int svg)
{
	tlc_roofline *r;
	int rc = tlc_roofline_build(&r, j->self->ev, &j->roof);
	if (rc == 0) {
		rc = svg ? tlc_write_roofline_svg(out, r) : tlc_write_roofline(out, r, j->fmt, j->top);
		tlc_roofline_free(r);
	}
	return rc;
}

/* The text of `tlcost mfu` ends with the attributed kernel utilization, a
 * separate quantity that only a join passing the gate supports. */
static void kernel_utilization_line(FILE *out, report_job *j, const tlc_mfu_result *r)
{
	double peak = r->phase[TLC_PHASE_FORWARD].peak_flops, u = 0;
	for (int p = 0; peak <= 0 && p < TLC_PHASE_COUNT; p++)
		peak = r->phase[p].peak_flops;
	if (tlc_join_kernel_utilization(&u, j->self->join, j->self->ev, peak) < 0)
		fprintf(out, "attributed kernel utilization: refused (%s): %s\n",
		        tlc_error_last()->code, tlc_error_last()->message);
	else
		fprintf(out, "attributed kernel utilization (not MFU): %.4f = FLOPs of attributed ops / "
		        "(their kernel time x %.4g FLOP/s)%s\n",
		        u, peak, r->lower_bound ? "; a lower bound" : "");
}

static int run_mfu(FILE *out, report_job *j)
{
	tlc_mfu *m;
	int rc = tlc_mfu_compute(&m, j->self->ev, &j->mfu);
	if (rc == 0) {
		rc = tlc_write_mfu(out, m, j->fmt);
		if (rc == 0 && j->fmt == TLC_FORMAT_TEXT)
			kernel_utilization_line(out, j, tlc_mfu_get_result(m));
		tlc_mfu_free(m);
	}
	return rc;
}

/* `tlcost join` joins even when the input brought nothing to join (the
 * state is then unavailable); that join is not kept, so the other reports
 * still see exactly what the command's automatic join gives them. */
static int run_join(FILE *out, report_job *j)
{
	tlpy_eval *s = j->self;
	if (s->join)
		return tlc_write_join(out, s->join, s->ev, j->fmt);
	tlc_join *tmp;
	if (tlc_join_run(&tmp, s->ev, NULL) < 0)
		return -1;
	int rc = tlc_write_join(out, tmp, s->ev, j->fmt);
	tlc_join_free(tmp);
	return rc;
}

static int run_report(FILE *out, void *p)
{
	report_job *j = p;
	const tlc_eval *ev = j->self->ev;
	const char *r = j->report;
	if (!strcmp(r, "flops"))
		return tlc_write_flops(out, ev, j->fmt);
	if (!strcmp(r, "ledger"))
		return tlc_write_ledger(out, ev, j->fmt);
	if (!strcmp(r, "tree"))
		return run_tree(out, j);
	if (!strcmp(r, "profile"))
		return run_profile(out, j);
	if (!strcmp(r, "roofline") || !strcmp(r, "roofline_svg"))
		return run_roofline(out, j, r[8] != '\0');
	if (!strcmp(r, "mfu"))
		return run_mfu(out, j);
	if (!strcmp(r, "join"))
		return run_join(out, j);
	if (!strcmp(r, "report"))
		return tlc_write_report(out, ev, &j->rep, j->fmt);
	return -1;
}

static const char *known_reports[] = { "flops", "ledger", "tree", "profile", "roofline",
	                               "roofline_svg", "mfu", "join", "report", NULL };

static int known_report(const char *r)
{
	for (int i = 0; known_reports[i]; i++)
		if (!strcmp(r, known_reports[i]))
			return 1;
	return 0;
}

static int load_devices(tlc_devices **out, const char *file)
{
	*out = NULL;
	if (!file)
		return 0;
	if (tlc_devices_new(out) < 0)
		return -1;
	return tlc_devices_load(*out, file);
}

static PyObject *eval_write(tlpy_eval *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "report", "fmt", "phase", "top", "depth", "no_fold", "by", "sort",
	                          "device", "peak_flops", "peak_bw", "basis", "dtype",
	                          "devices_file", "cache_bytes", "denominator", "seconds", "params",
	                          "tokens", "tree_top", "tree_depth", NULL };
	report_job j;
	memset(&j, 0, sizeof j);
	int fmt = 0, phase = -1, no_fold = 0, by = 0, sort = 0, basis = 0, denom = 0;
	Py_ssize_t top = 0, depth = 0, tree_top = 0, tree_depth = 0;
	tlc_ceilings c;
	memset(&c, 0, sizeof c);
	const char *devices_file = NULL;
	long long cache = 0, params = 0, tokens = 0;
	double seconds = 0;
	if (!ready(self, 1) ||
	    !PyArg_ParseTupleAndKeywords(args, kw, "s|iinnpiizddizzLidLLnn", kwlist, &j.report, &fmt,
	                                 &phase, &top, &depth, &no_fold, &by, &sort, &c.device,
	                                 &c.peak_flops, &c.peak_bw, &basis, &c.dtype, &devices_file,
	                                 &cache, &denom, &seconds, &params, &tokens, &tree_top,
	                                 &tree_depth))
		return NULL;
	if (!known_report(j.report))
		return tlpy_raise(TLC_EINVAL, "invalid_argument", "use a report the tlcost command has",
		                  "unknown report");
	if (top < 0 || depth < 0 || tree_top < 0 || tree_depth < 0)
		return tlpy_raise(TLC_EINVAL, "invalid_argument", "pass counts >= 0",
		                  "a negative top or depth");
	tlc_devices *devs;
	if (load_devices(&devs, devices_file) < 0) {
		tlc_devices_free(devs);
		return tlpy_raise_last();
	}
	c.devices = devs;
	c.basis = (tlc_basis)basis;
	j.self = self;
	j.fmt = (tlc_format)fmt;
	j.top = (size_t)top;
	j.tree = (tlc_tree_options){ sizeof j.tree, phase < 0 ? TLC_PHASE_FORWARD : (tlc_phase)phase,
	                             (size_t)top, (size_t)depth, no_fold };
	j.prof = (tlc_profile_options){ sizeof j.prof, (tlc_profile_by)by, (tlc_profile_sort)sort,
	                                (size_t)top, phase };
	j.roof = (tlc_roofline_options){ sizeof j.roof, c, phase, (int64_t)cache };
	j.mfu = (tlc_mfu_options){ sizeof j.mfu, c, (tlc_mfu_denominator)denom, seconds,
	                           (int64_t)params, (int64_t)tokens };
	j.rep = (tlc_report_options){ sizeof j.rep, c, (size_t)tree_top, (size_t)tree_depth,
	                              (int64_t)cache, NULL };
	PyObject *r = tlpy_capture_text(run_report, &j);
	tlc_devices_free(devs);
	return r;
}

/* ---- the kept op rows, column by column (Report.to_pandas("rows")) ---- */

/* One cost field as an exact int; NULL (an exception set) on failure. */
static PyObject *cost_field(const tlc_cost *c, tlc_cost_field f)
{
	char *dec = NULL;
	if (tlc_cost_get_str(&dec, c, f) < 0)
		return tlpy_raise_last();
	PyObject *v = tlpy_int_from_dec(dec);
	tlc_free(dec);
	return v;
}

static PyObject *col_i64(int has, int64_t v)
{
	if (!has)
		Py_RETURN_NONE;
	return PyLong_FromLongLong((long long)v);
}

static PyObject *col_text(const char *s)
{
	if (!s)
		Py_RETURN_NONE;
	return PyUnicode_FromString(s);
}

#define ROW_COLUMNS 24
static const char *const row_columns[ROW_COLUMNS] = {
	"id", "parent", "name", "overload", "phase", "module", "module_type", "module_call",
	"class", "reason", "macs", "other_flops", "bytes_read", "bytes_written", "bytes_unknown",
	"evidence", "shapes", "dtype", "host_ns", "thread", "correlation", "attribution",
	"device_time_ns", "kernel_time_ns"
};

/* Row i's values in row_columns' order into cols (new references). The
 * cost fields are None where the row has no cost (an unknown op: unknown
 * is never 0), the device times None where no join gave the row one. */
static int row_values(PyObject **v, const tlc_op_row *r)
{
	const tlc_cost *c = r->cost;
	int dev = (r->row_flags & TLC_ROW_HAS_DEVICE_TIME) != 0;
	const char *dt = r->dtype == TLC_DTYPE_NONE ? NULL : tlc_dtype_names(r->dtype, NULL);
	v[0] = PyLong_FromLongLong((long long)r->id);
	v[1] = col_i64(r->parent >= 0, r->parent);
	v[2] = PyUnicode_FromString(r->name);
	v[3] = PyUnicode_FromString(r->overload ? r->overload : "");
	v[4] = PyUnicode_FromString(tlc_phase_name(r->phase));
	v[5] = PyUnicode_FromString(r->module ? r->module : "");
	v[6] = col_text(r->module_type);
	v[7] = col_i64(r->module_call >= 0, r->module_call);
	v[8] = PyUnicode_FromString(tlc_class_name(r->cls));
	v[9] = col_text(r->reason);
	for (int f = 0; f < 4; f++)
		v[10 + f] = c ? cost_field(c, (tlc_cost_field)f) : (Py_INCREF(Py_None), Py_None);
	v[14] = c ? PyBool_FromLong(tlc_cost_bytes_unknown(c)) : (Py_INCREF(Py_None), Py_None);
	v[15] = c ? PyUnicode_FromString(tlc_evidence_name(tlc_cost_evidence(c)))
	          : (Py_INCREF(Py_None), Py_None);
	v[16] = col_text(r->shapes);
	v[17] = col_text(dt);
	v[18] = col_i64((r->op_flags & TLC_OP_HAS_HOST_NS) != 0, r->host_ns);
	v[19] = col_i64((r->op_flags & TLC_OP_HAS_THREAD) != 0, r->thread);
	v[20] = PyLong_FromLongLong((long long)r->correlation);
	v[21] = r->attribution == TLC_ATTR_NONE ? (Py_INCREF(Py_None), Py_None)
	                                        : PyUnicode_FromString(tlc_attribution_name(r->attribution));
	v[22] = col_i64(dev, r->device_time_ns);
	v[23] = col_i64(dev, r->kernel_time_ns);
	for (int k = 0; k < ROW_COLUMNS; k++)
		if (!v[k])
			return -1;
	return 0;
}

static PyObject *eval_op_rows(tlpy_eval *self, PyObject *unused)
{
	if (!ready(self, 1))
		return NULL;
	size_t n = tlc_eval_op_count(self->ev);
	PyObject *cols[ROW_COLUMNS] = { NULL };
	PyObject *out = NULL;
	for (int k = 0; k < ROW_COLUMNS; k++)
		if (!(cols[k] = PyList_New((Py_ssize_t)n)))
			goto done;
	for (size_t i = 0; i < n; i++) {
		tlc_op_row r = TLC_OP_ROW_INIT;
		PyObject *v[ROW_COLUMNS] = { NULL };
		if (tlc_eval_op_get(self->ev, i, &r) < 0) {
			tlpy_raise_last();
			goto done;
		}
		int rc = row_values(v, &r);
		for (int k = 0; k < ROW_COLUMNS; k++) {
			if (rc < 0)
				Py_XDECREF(v[k]);
			else
				PyList_SET_ITEM(cols[k], (Py_ssize_t)i, v[k]);
		}
		if (rc < 0)
			goto done;
	}
	out = PyDict_New();
	for (int k = 0; out && k < ROW_COLUMNS; k++)
		if (PyDict_SetItemString(out, row_columns[k], cols[k]) < 0)
			Py_CLEAR(out);
done:
	for (int k = 0; k < ROW_COLUMNS; k++)
		Py_XDECREF(cols[k]);
	return out;
}

static PyMethodDef eval_methods[] = {
	{ "set_info", (PyCFunction)(void (*)(void))eval_set_info, METH_VARARGS | METH_KEYWORDS,
	  "header facts (format, producer, model, device, params, tokens, meta_json)" },
	{ "push", (PyCFunction)(void (*)(void))eval_push, METH_FASTCALL, "evaluate one op" },
	{ "count_skipped", (PyCFunction)eval_count_skipped, METH_VARARGS, "count a skipped record" },
	{ "read", (PyCFunction)eval_read, METH_O, "read an op log or Kineto trace" },
	{ "finish", (PyCFunction)eval_finish, METH_NOARGS, "end the input" },
	{ "total", (PyCFunction)eval_total, METH_VARARGS, "exact total (phase, which) as int" },
	{ "phase_flags", (PyCFunction)eval_phase_flags, METH_VARARGS, "(present, bytes_incomplete)" },
	{ "lower_bound", (PyCFunction)eval_lower_bound, METH_NOARGS, "some op is unknown" },
	{ "coverage", (PyCFunction)eval_coverage, METH_NOARGS, "four-way coverage" },
	{ "ledger", (PyCFunction)eval_ledger, METH_NOARGS, "unknown ledger entries" },
	{ "info", (PyCFunction)eval_info, METH_NOARGS, "header facts" },
	{ "counts", (PyCFunction)eval_counts, METH_NOARGS, "(ops pushed, op rows kept)" },
	{ "write_log", (PyCFunction)eval_write_log, METH_O, "recorded op lines to writer(bytes)" },
	{ "write", (PyCFunction)(void (*)(void))eval_write, METH_VARARGS | METH_KEYWORDS,
	  "a report as text, JSON or CSV" },
	{ "op_rows", (PyCFunction)eval_op_rows, METH_NOARGS,
	  "the kept op rows as {column: list} (exact ints; None where unknown)" },
	{ NULL, NULL, 0, NULL }
};

PyTypeObject tlpy_eval_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "_tlcost.Eval",
	.tp_basicsize = sizeof(tlpy_eval),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "one libtlcost evaluation",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)eval_init,
	.tp_dealloc = (destructor)eval_dealloc,
	.tp_methods = eval_methods,
};
