/* _tlcost module: error translation, the Engine type, in-memory writers. */
#include "ext.h"
#include <stdlib.h>
#include <string.h>

tlpy_hooks tlpy_hooks_g;

/* ---- errors ---- */

static PyObject *make_error(int klass, const char *code, const char *message,
                            const char *remedy, const char *file, uint64_t line,
                            uint64_t column)
{
	if (!tlpy_hooks_g.error_factory) {
		PyErr_Format(PyExc_RuntimeError, "%s: %s (remedy: %s)", code, message, remedy);
		return NULL;
	}
	PyObject *exc = PyObject_CallFunction(tlpy_hooks_g.error_factory, "issszKK", klass, code,
	                                      message, remedy, file, (unsigned long long)line,
	                                      (unsigned long long)column);
	if (exc) {
		PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
		Py_DECREF(exc);
	}
	return NULL;
}

PyObject *tlpy_raise_last(void)
{
	const tlc_error *e = tlc_error_last();
	return make_error(e->klass, e->code, e->message, e->remedy, e->file, e->line, e->column);
}

PyObject *tlpy_raise(int klass, const char *code, const char *remedy, const char *message)
{
	return make_error(klass, code, message, remedy, NULL, 0, 0);
}

PyObject *tlpy_raise_at(int klass, const char *code, const char *remedy, const char *file,
                        const char *message)
{
	return make_error(klass, code, message, remedy, file, 0, 0);
}

/* ---- text writers into Python strings ---- */

PyObject *tlpy_capture_text(tlpy_writer w, void *payload)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return PyErr_NoMemory();
	int rc = w(f, payload);
	int closed = fclose(f);
	PyObject *r = NULL;
	if (rc < 0)
		tlpy_raise_last();
	else if (closed != 0)
		PyErr_NoMemory();
	else
		r = PyUnicode_DecodeUTF8(buf ? buf : "", (Py_ssize_t)len, "replace");
	free(buf);
	return r;
}

/* ---- Engine ---- */

static int engine_init(tlpy_engine *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "builtins", "load_env", "packs", NULL };
	int builtins = 1, load_env = 1;
	PyObject *packs = Py_None; /* None: every pack; else a sequence of pack names */
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|ppO", kwlist, &builtins, &load_env, &packs))
		return -1;
	if (self->eng)
		return 0;
	PyObject *names = NULL;
	if (packs != Py_None && !(names = PySequence_Fast(packs, "packs must be a list of names")))
		return -1;
	tlc_engine_options o = { sizeof o, builtins ? 0u : TLC_ENGINE_NO_BUILTINS, NULL };
	if (names)
		o.flags |= TLC_ENGINE_NO_PACKS;
	if (!self->rules && !(self->rules = PyList_New(0)))
		return -1;
	if (tlc_engine_new(&self->eng, &o) < 0) {
		self->eng = NULL;
		Py_XDECREF(names);
		tlpy_raise_last();
		return -1;
	}
	for (Py_ssize_t i = 0; names && i < PySequence_Fast_GET_SIZE(names); i++) {
		const char *name = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(names, i));
		if (!name || tlc_engine_load_pack(self->eng, name) < 0) {
			Py_DECREF(names);
			if (name)
				tlpy_raise_last();
			return -1;
		}
	}
	Py_XDECREF(names);
	if (load_env && tlc_engine_load_plugin_env(self->eng) < 0) {
		tlpy_raise_last();
		return -1;
	}
	return 0;
}

static void engine_dealloc(tlpy_engine *self)
{
	tlc_engine_free(self->eng);
	Py_XDECREF(self->rules);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int engine_ready(tlpy_engine *self)
{
	if (self->eng)
		return 1;
	tlpy_raise(TLC_ESTATE, "invalid_argument", "call Engine.__init__", "engine not initialised");
	return 0;
}

static PyObject *engine_load_plugin(tlpy_engine *self, PyObject *arg)
{
	PyObject *b;
	if (!engine_ready(self) || !PyUnicode_FSConverter(arg, &b))
		return NULL;
	int rc = tlc_engine_load_plugin(self->eng, PyBytes_AS_STRING(b));
	Py_DECREF(b);
	if (rc < 0)
		return tlpy_raise_last();
	Py_RETURN_NONE;
}

static PyObject *engine_load_rules(tlpy_engine *self, PyObject *arg)
{
	PyObject *b;
	if (!engine_ready(self) || !PyUnicode_FSConverter(arg, &b))
		return NULL;
	int rc = tlc_engine_load_rules_file(self->eng, PyBytes_AS_STRING(b));
	Py_DECREF(b);
	if (rc < 0)
		return tlpy_raise_last();
	Py_RETURN_NONE;
}

static const char *kind_name(tlc_rule_kind k)
{
	switch (k) {
	case TLC_RULE_COST: return "cost";
	case TLC_RULE_ZERO: return "zero";
	case TLC_RULE_DECOMPOSED: return "decomposed";
	default: return "structural";
	}
}

static PyObject *engine_rules(tlpy_engine *self, PyObject *unused)
{
	if (!engine_ready(self))
		return NULL;
	size_t n = tlc_engine_rule_count(self->eng);
	PyObject *l = PyList_New(0);
	for (size_t i = 0; l && i < n; i++) {
		const tlc_rule_info *r = tlc_engine_rule_at(self->eng, i);
		PyObject *d = Py_BuildValue("{s:s,s:s,s:s,s:z,s:s,s:O}", "name", r->name, "kind",
		                            kind_name(r->kind), "evidence",
		                            tlc_evidence_name(r->evidence), "note", r->note,
		                            "provider", r->provider, "overrides",
		                            r->overrides ? Py_True : Py_False);
		if (!d || PyList_Append(l, d) < 0)
			Py_CLEAR(l);
		Py_XDECREF(d);
	}
	return l;
}

static PyObject *engine_notices(tlpy_engine *self, PyObject *unused)
{
	if (!engine_ready(self))
		return NULL;
	PyObject *l = PyList_New(0);
	for (size_t i = 0; l && i < tlc_engine_notice_count(self->eng); i++) {
		const tlc_notice *n = tlc_engine_notice_at(self->eng, i);
		PyObject *t = Py_BuildValue("(ss)", n->code, n->message);
		if (!t || PyList_Append(l, t) < 0)
			Py_CLEAR(l);
		Py_XDECREF(t);
	}
	return l;
}

typedef struct { const tlc_engine *eng; tlc_format fmt; } rules_job;

static int write_rules_job(FILE *out, void *p)
{
	rules_job *j = p;
	return tlc_write_rules(out, j->eng, j->fmt);
}

static PyObject *engine_write_rules(tlpy_engine *self, PyObject *args)
{
	int fmt = 0;
	if (!engine_ready(self) || !PyArg_ParseTuple(args, "|i", &fmt))
		return NULL;
	rules_job j = { self->eng, (tlc_format)fmt };
	return tlpy_capture_text(write_rules_job, &j);
}

static PyObject *engine_register_rule(PyObject *self, PyObject *args, PyObject *kw)
{
	if (!engine_ready((tlpy_engine *)self))
		return NULL;
	return tlpy_engine_register_py_rule((tlpy_engine *)self, args, kw);
}

static PyMethodDef engine_methods[] = {
	{ "load_plugin", (PyCFunction)engine_load_plugin, METH_O, "dlopen a rule plugin" },
	{ "load_rules", (PyCFunction)engine_load_rules, METH_O, "load a rule file" },
	{ "register_rule", (PyCFunction)(void (*)(void))engine_register_rule,
	  METH_VARARGS | METH_KEYWORDS, "register a Python rule (use tlcost.Engine.rule)" },
	{ "rules", (PyCFunction)engine_rules, METH_NOARGS, "registered rules as dicts" },
	{ "notices", (PyCFunction)engine_notices, METH_NOARGS, "(code, message) notices" },
	{ "write_rules", (PyCFunction)engine_write_rules, METH_VARARGS, "the rule listing" },
	{ NULL, NULL, 0, NULL }
};

PyTypeObject tlpy_engine_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "_tlcost.Engine",
	.tp_basicsize = sizeof(tlpy_engine),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "libtlcost engine: the rule registry (built-ins, plugins, rule files, Python rules)",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)engine_init,
	.tp_dealloc = (destructor)engine_dealloc,
	.tp_methods = engine_methods,
};

/* ---- module ---- */

static void set_hook(PyObject **slot, PyObject *v)
{
	Py_INCREF(v);
	Py_XSETREF(*slot, v);
}

static PyObject *mod_configure(PyObject *mod, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "error_factory", "tensor_type", "encode_other", "dtype_names",
	                          "strided", "tensor_view", NULL };
	PyObject *h[6] = { Py_None, Py_None, Py_None, Py_None, Py_None, Py_None };
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOOOOO", kwlist, &h[0], &h[1], &h[2], &h[3],
	                                 &h[4], &h[5]))
		return NULL;
	PyObject **slots[] = { &tlpy_hooks_g.error_factory, &tlpy_hooks_g.tensor_type,
	                       &tlpy_hooks_g.encode_other, &tlpy_hooks_g.dtype_names,
	                       &tlpy_hooks_g.strided, &tlpy_hooks_g.tensor_view };
	for (int i = 0; i < 6; i++)
		if (h[i] != Py_None)
			set_hook(slots[i], h[i]);
	if (!tlpy_hooks_g.device_names && !(tlpy_hooks_g.device_names = PyDict_New()))
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *mod_error_last(PyObject *mod, PyObject *unused)
{
	const tlc_error *e = tlc_error_last();
	return Py_BuildValue("(isssz KK)", e->klass, e->code, e->message, e->remedy, e->file,
	                     (unsigned long long)e->line, (unsigned long long)e->column);
}

/* merge([(name, json), ...]) -> the merged partial's JSON (tlc_merge_*,
 * the merge behind `tlcost merge`; tlcost.distributed uses it). */
static PyObject *mod_merge(PyObject *self, PyObject *args)
{
	PyObject *items;
	(void)self;
	if (!PyArg_ParseTuple(args, "O", &items))
		return NULL;
	PyObject *seq = PySequence_Fast(items, "merge() takes a list of (name, json) pairs");
	if (!seq)
		return NULL;
	tlc_merge *m = NULL;
	if (tlc_merge_new(&m) < 0) {
		Py_DECREF(seq);
		return tlpy_raise_last();
	}
	PyObject *r = NULL;
	Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
	for (Py_ssize_t i = 0; i < n; i++) {
		const char *name, *json;
		Py_ssize_t len;
		if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ss#", &name, &json, &len))
			goto done;
		if (tlc_merge_add_mem(m, json, (size_t)len, name) < 0) {
			tlpy_raise_last();
			goto done;
		}
	}
	char *out = NULL;
	size_t olen = 0;
	if (tlc_merge_write_mem(&out, &olen, m) < 0) {
		tlpy_raise_last();
		goto done;
	}
	r = PyUnicode_DecodeUTF8(out, (Py_ssize_t)olen, "strict");
	tlc_free(out);
done:
	tlc_merge_free(m);
	Py_DECREF(seq);
	return r;
}

static PyObject *mod_library_version(PyObject *self, PyObject *unused)
{
	(void)self, (void)unused;
	return PyUnicode_FromString(tlc_version(NULL, NULL, NULL));
}

static PyMethodDef mod_methods[] = {
	{ "merge", mod_merge, METH_VARARGS,
	  "merge([(name, json), ...]): the exact merge of flops partials (tlcost merge)" },
	{ "library_version", mod_library_version, METH_NOARGS, "tlc_version() of the loaded libtlcost" },
	{ "configure", (PyCFunction)(void (*)(void))mod_configure, METH_VARARGS | METH_KEYWORDS,
	  "set the Python hooks (tlcost/__init__.py and tlcost.capture call it)" },
	{ "error_last", mod_error_last, METH_NOARGS, "tlc_error_last() as a tuple" },
	{ "diff", tlpy_mod_diff, METH_VARARGS, "diff(engine, a, b, by, top, conditions): tlcost diff" },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef tlpy_module = {
	PyModuleDef_HEAD_INIT, "_tlcost", "CPython binding of libtlcost (use the tlcost package)",
	-1, mod_methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__tlcost(void);

PyMODINIT_FUNC PyInit__tlcost(void)
{
	if (PyType_Ready(&tlpy_engine_type) < 0 || PyType_Ready(&tlpy_eval_type) < 0 ||
	    PyType_Ready(&tlpy_nvtx_type) < 0 || PyType_Ready(&tlpy_outfile_type) < 0)
		return NULL;
	PyObject *m = PyModule_Create(&tlpy_module);
	if (!m)
		return NULL;
	Py_INCREF(&tlpy_engine_type);
	Py_INCREF(&tlpy_eval_type);
	Py_INCREF(&tlpy_nvtx_type);
	Py_INCREF(&tlpy_outfile_type);
	if (PyModule_AddObject(m, "Engine", (PyObject *)&tlpy_engine_type) < 0 ||
	    PyModule_AddObject(m, "Eval", (PyObject *)&tlpy_eval_type) < 0 ||
	    PyModule_AddObject(m, "Nvtx", (PyObject *)&tlpy_nvtx_type) < 0 ||
	    PyModule_AddObject(m, "OutFile", (PyObject *)&tlpy_outfile_type) < 0 ||
	    PyModule_AddStringConstant(m, "build_python", TLPY_BUILD_PYTHON) < 0 ||
	    PyModule_AddStringConstant(m, "version", TLC_VERSION_STRING) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
