/* A Python function as a cost rule. The library calls the trampoline like
 * any C rule; it shows the op to tlcost.engine's wrapper, which calls the
 * user's function and returns its exact ints split into 62-bit limbs, so
 * the cost reaches the library's exact counts through the host table's
 * cost_add (value = sum limb_k * 2^(62k)) with no float and no truncation. */
#include "ext.h"
#include <string.h>

#define LIMB_BASE ((int64_t)1 << 62)
#define MAX_LIMBS 64

static PyObject *kwargs_to_py(const tlc_op *op)
{
	PyObject *d = PyDict_New();
	for (size_t i = 0; d && i < op->nkwargs; i++) {
		PyObject *v = tlpy_value_to_py(&op->kwargs[i].value, 0);
		if (!v || PyDict_SetItemString(d, op->kwargs[i].name, v) < 0)
			Py_CLEAR(d);
		Py_XDECREF(v);
	}
	return d;
}

static PyObject *values_to_py(const tlc_value *v, size_t n)
{
	tlc_value list = { .kind = TLC_VALUE_LIST };
	list.u.list.n = n;
	list.u.list.items = v;
	return tlpy_value_to_py(&list, 0);
}

static PyObject *call_wrapper(PyObject *fn, const tlc_op *op)
{
	PyObject *outputs = (op->flags & TLC_OP_HAS_OUTPUTS) ? values_to_py(op->outputs, op->noutputs)
	                                                    : (Py_INCREF(Py_None), Py_None);
	PyObject *args = values_to_py(op->args, op->nargs);
	PyObject *kwargs = kwargs_to_py(op);
	PyObject *r = NULL;
	if (outputs && args && kwargs)
		r = PyObject_CallFunction(fn, "sssOOO", op->name, op->overload ? op->overload : "",
		                          tlc_phase_name(op->phase), args, kwargs, outputs);
	Py_XDECREF(outputs);
	Py_XDECREF(args);
	Py_XDECREF(kwargs);
	return r;
}

/* field += sum limbs[k] * 2^(62k), exactly */
static int add_limbs(tlc_cost *out, const tlc_host *host, tlc_cost_field f, PyObject *limbs)
{
	if (!PyTuple_Check(limbs) || PyTuple_GET_SIZE(limbs) > MAX_LIMBS)
		return TLC_RULE_BAD_ARGS;
	int64_t factors[MAX_LIMBS];
	for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(limbs); k++) {
		long long limb = PyLong_AsLongLong(PyTuple_GET_ITEM(limbs, k));
		if (limb < 0 || limb >= LIMB_BASE) {
			PyErr_Clear();
			return TLC_RULE_BAD_ARGS;
		}
		factors[k] = LIMB_BASE;
		if (limb && host->cost_add(out, f, (int64_t)limb, (size_t)k, factors) != 0)
			return TLC_RULE_BAD_ARGS;
	}
	return 0;
}

/* Ideal traffic when the rule leaves it to us: every tensor argument read
 * once, every recorded output written once. */
static int default_read(tlc_cost *out, const tlc_op *op, const tlc_host *host)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < op->nargs; i++)
		rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, &op->args[i]);
	for (size_t i = 0; rc == 0 && i < op->nkwargs; i++)
		rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, &op->kwargs[i].value);
	return rc;
}

static int default_written(tlc_cost *out, const tlc_op *op, const tlc_host *host)
{
	if (!(op->flags & TLC_OP_HAS_OUTPUTS)) {
		host->cost_explain(out, "python rule: no outputs recorded; return bytes_written");
		return TLC_RULE_MISSING_ARGS;
	}
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < op->noutputs; i++)
		rc = host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, &op->outputs[i]);
	return rc;
}

/* ("ok", macs, other, read|None, written|None, evidence, note|None, split_unknown) */
static int apply_ok(tlc_cost *out, const tlc_op *op, const tlc_host *host, PyObject *r)
{
	if (PyTuple_GET_SIZE(r) != 8)
		return TLC_RULE_BAD_ARGS;
	int rc = add_limbs(out, host, TLC_FIELD_MACS, PyTuple_GET_ITEM(r, 1));
	if (rc == 0)
		rc = add_limbs(out, host, TLC_FIELD_OTHER_FLOPS, PyTuple_GET_ITEM(r, 2));
	PyObject *rd = PyTuple_GET_ITEM(r, 3), *wr = PyTuple_GET_ITEM(r, 4);
	if (rc == 0)
		rc = rd == Py_None ? default_read(out, op, host)
		                   : add_limbs(out, host, TLC_FIELD_BYTES_READ, rd);
	if (rc == 0)
		rc = wr == Py_None ? default_written(out, op, host)
		                   : add_limbs(out, host, TLC_FIELD_BYTES_WRITTEN, wr);
	long ev = PyLong_AsLong(PyTuple_GET_ITEM(r, 5));
	if (ev == 0 || ev == 1)
		host->cost_set_evidence(out, ev ? TLC_EVIDENCE_ESTIMATED : TLC_EVIDENCE_FORMULA_EXACT);
	PyErr_Clear();
	PyObject *note = PyTuple_GET_ITEM(r, 6);
	if (rc == 0 && PyUnicode_Check(note))
		host->cost_explain(out, PyUnicode_AsUTF8(note));
	if (rc == 0 && PyObject_IsTrue(PyTuple_GET_ITEM(r, 7)) == 1)
		host->cost_set_split_unknown(out);
	PyErr_Clear();
	return rc;
}

static int apply_result(tlc_cost *out, const tlc_op *op, const tlc_host *host, PyObject *r)
{
	if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) < 2 || !PyUnicode_Check(PyTuple_GET_ITEM(r, 0)))
		return TLC_RULE_BAD_ARGS;
	const char *status = PyUnicode_AsUTF8(PyTuple_GET_ITEM(r, 0));
	if (status && strcmp(status, "ok") == 0)
		return apply_ok(out, op, host, r);
	PyObject *why = PyTuple_GET_ITEM(r, 1);
	if (PyUnicode_Check(why))
		host->cost_explain(out, PyUnicode_AsUTF8(why));
	PyErr_Clear();
	return status && strcmp(status, "missing") == 0 ? TLC_RULE_MISSING_ARGS : TLC_RULE_BAD_ARGS;
}

static int trampoline(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	PyGILState_STATE gs = PyGILState_Ensure();
	PyObject *saved_type, *saved_value, *saved_tb;
	PyErr_Fetch(&saved_type, &saved_value, &saved_tb);
	PyObject *r = call_wrapper((PyObject *)payload, op);
	int rc;
	if (!r) {
		/* the wrapper catches the user's exceptions; this is ours */
		PyErr_Clear();
		host->cost_explain(out, "python rule: the tlcost wrapper failed");
		rc = TLC_RULE_BAD_ARGS;
	} else {
		rc = apply_result(out, op, host, r);
		Py_DECREF(r);
	}
	PyErr_Restore(saved_type, saved_value, saved_tb);
	PyGILState_Release(gs);
	return rc;
}

static int parse_kind(tlc_rule_kind *out, const char *s)
{
	static const char *names[] = { "cost", "zero", "decomposed", "structural" };
	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (tlc_rule_kind)i;
			return 0;
		}
	return -1;
}

PyObject *tlpy_engine_register_py_rule(tlpy_engine *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "name", "wrapper", "kind", "estimated", "note", "override", NULL };
	const char *name, *kind = "cost", *note = NULL;
	PyObject *wrapper = Py_None;
	int estimated = 0, override = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "sO|spzp", kwlist, &name, &wrapper, &kind,
	                                 &estimated, &note, &override))
		return NULL;
	tlc_rule_def def;
	memset(&def, 0, sizeof def);
	def.size = sizeof def;
	def.name = name;
	def.note = note;
	def.evidence = estimated ? TLC_EVIDENCE_ESTIMATED : TLC_EVIDENCE_FORMULA_EXACT;
	def.flags = override ? TLC_RULE_OVERRIDE : 0;
	if (parse_kind(&def.kind, kind) < 0)
		return tlpy_raise(TLC_EINVAL, "invalid_argument",
		                  "kind is one of cost, zero, decomposed, structural", "unknown rule kind");
	if (def.kind == TLC_RULE_COST) {
		if (!PyCallable_Check(wrapper))
			return tlpy_raise(TLC_EINVAL, "invalid_argument", "pass a function",
			                  "a cost rule needs a callable");
		def.fn = trampoline;
		def.payload = wrapper;
	}
	/* the engine holds the pointer: keep the callable alive as long as it
	 * (an entry left by a refused registration costs nothing) */
	if (def.fn && PyList_Append(self->rules, wrapper) < 0)
		return NULL;
	if (tlc_engine_register_rule(self->eng, &def) < 0)
		return tlpy_raise_last();
	Py_RETURN_NONE;
}
