/* _tlcost.diff(engine, path_a, path_b, by, top, conditions): `tlcost diff A B`
 * in-process (docs/diff.md). Each input is read, evaluated with kept rows
 * and joined as the command does; the result is the tlcost.diff/1 JSON
 * text the command writes and, for each condition, (expr, holds, explain).
 * tlcost.diff (python/tlcost/diff.py) wraps it. */
#include "ext.h"
#include <stdlib.h>

typedef struct side {
	tlc_eval *ev;
	tlc_join *join;
} side;

static int load(side *s, tlc_engine *eng, const char *path)
{
	tlc_eval_options o = { sizeof o, 1, NULL, NULL };
	if (tlc_eval_new(&s->ev, eng, &o) < 0 || tlc_input_read(s->ev, path) < 0 ||
	    tlc_eval_finish(s->ev) < 0)
		return -1;
	tlc_coverage c = TLC_COVERAGE_INIT;
	tlc_eval_coverage(&c, s->ev);
	if (c.device_records == 0 && tlc_eval_profiler_status(s->ev)->state == TLC_PROFILER_UNKNOWN)
		return 0; /* nothing to join, as the command decides */
	return tlc_join_run(&s->join, s->ev, NULL);
}

static int write_json(FILE *out, void *payload)
{
	return tlc_write_diff(out, payload, TLC_FORMAT_JSON);
}

static PyObject *conditions(const tlc_diff *d, PyObject *conds)
{
	PyObject *seq = PySequence_Fast(conds, "conditions must be a sequence of str");
	if (!seq)
		return NULL;
	Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
	PyObject *list = PyList_New(n);
	for (Py_ssize_t i = 0; list && i < n; i++) {
		const char *e = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
		int holds = 0;
		char *why = NULL;
		if (!e || tlc_diff_condition(&holds, &why, d, e) < 0) {
			if (e)
				tlpy_raise_last();
			Py_CLEAR(list);
			break;
		}
		PyList_SET_ITEM(list, i, Py_BuildValue("(sOs)", e, holds ? Py_True : Py_False,
		                                       why ? why : ""));
		tlc_free(why);
	}
	Py_DECREF(seq);
	return list;
}

PyObject *tlpy_mod_diff(PyObject *mod, PyObject *args)
{
	PyObject *engine, *conds;
	const char *pa, *pb;
	int by = 0;
	Py_ssize_t top = 0;
	(void)mod;
	if (!PyArg_ParseTuple(args, "O!ssinO", &tlpy_engine_type, &engine, &pa, &pb, &by, &top,
	                      &conds))
		return NULL;
	if (by < 0 || by > 2 || top < 0) {
		PyErr_SetString(PyExc_ValueError, "diff: by must be 0..2 and top >= 0");
		return NULL;
	}
	tlc_engine *eng = ((tlpy_engine *)engine)->eng;
	side s[2] = { { NULL, NULL }, { NULL, NULL } };
	tlc_diff *d = NULL;
	PyObject *r = NULL;
	tlc_diff_options o = TLC_DIFF_OPTIONS_INIT;
	o.by = (tlc_diff_by)by;
	o.top = (size_t)top;
	if (load(&s[0], eng, pa) < 0 || load(&s[1], eng, pb) < 0 ||
	    tlc_diff_build(&d, s[0].ev, s[0].join, s[1].ev, s[1].join, &o) < 0) {
		tlpy_raise_last();
	} else {
		PyObject *text = tlpy_capture_text(write_json, d);
		PyObject *c = text ? conditions(d, conds) : NULL;
		if (text && c)
			r = Py_BuildValue("(NN)", text, c);
		else {
			Py_XDECREF(text);
			Py_XDECREF(c);
		}
	}
	tlc_diff_free(d);
	for (int k = 0; k < 2; k++) {
		tlc_join_free(s[k].join);
		tlc_eval_free(s[k].ev);
	}
	return r;
}
