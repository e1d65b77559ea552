/*
 * _tlcost.Nvtx: the call-identity NVTX ranges of libtlcost-nvtx
 * (docs/nvtx.md) for tlcost.capture(..., emit_nvtx=True). A thin object
 * over tlc_nvtx: start() refuses typed (emit_nvtx_unavailable) where no
 * NVTX tool takes ranges; op_enter/op_exit bracket one dispatched op.
 */
#include "ext.h"
#include <tlcost/nvtx.h>

typedef struct tlpy_nvtx {
	PyObject_HEAD
	tlc_nvtx *n;
} tlpy_nvtx;

static PyObject *raise_nvtx(const tlc_nvtx *n)
{
	const tlc_nvtx_error *e = tlc_nvtx_error_get(n);
	return tlpy_raise(e->klass, e->code, e->remedy, e->message);
}

static int nvtx_init(tlpy_nvtx *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { NULL };
	if (!PyArg_ParseTupleAndKeywords(args, kw, "", kwlist))
		return -1;
	if (self->n)
		return 0;
	if (tlc_nvtx_new(&self->n) < 0) {
		PyErr_NoMemory();
		return -1;
	}
	return 0;
}

static void nvtx_dealloc(tlpy_nvtx *self)
{
	tlc_nvtx_free(self->n);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *nvtx_start(tlpy_nvtx *self, PyObject *unused)
{
	(void)unused;
	if (tlc_nvtx_start(self->n) < 0)
		return raise_nvtx(self->n);
	Py_RETURN_NONE;
}

static PyObject *nvtx_op_enter(tlpy_nvtx *self, PyObject *args)
{
	const char *op;
	long long id;
	if (!PyArg_ParseTuple(args, "sL", &op, &id))
		return NULL;
	if (tlc_nvtx_op_enter(self->n, op, (int64_t)id) < 0)
		return raise_nvtx(self->n);
	Py_RETURN_NONE;
}

static PyObject *nvtx_op_exit(tlpy_nvtx *self, PyObject *args)
{
	long long id;
	if (!PyArg_ParseTuple(args, "L", &id))
		return NULL;
	if (tlc_nvtx_op_exit(self->n, (int64_t)id) < 0)
		return raise_nvtx(self->n);
	Py_RETURN_NONE;
}

static PyObject *nvtx_internal(tlpy_nvtx *self, PyObject *args)
{
	const char *what;
	int enter;
	if (!PyArg_ParseTuple(args, "sp", &what, &enter))
		return NULL;
	int rc = enter ? tlc_nvtx_internal_enter(self->n, what)
	               : tlc_nvtx_internal_exit(self->n, what);
	if (rc < 0)
		return raise_nvtx(self->n);
	Py_RETURN_NONE;
}

static PyMethodDef nvtx_methods[] = {
	{ "start", (PyCFunction)nvtx_start, METH_NOARGS,
	  "start(): find the NVTX tool; raises emit_nvtx_unavailable where none takes ranges" },
	{ "op_enter", (PyCFunction)nvtx_op_enter, METH_VARARGS,
	  "op_enter(op, call_id): push tlcost::<op>#<call_id>" },
	{ "op_exit", (PyCFunction)nvtx_op_exit, METH_VARARGS,
	  "op_exit(call_id): pop the innermost op range, which must be call_id's" },
	{ "internal", (PyCFunction)nvtx_internal, METH_VARARGS,
	  "internal(what, enter): push (enter=True) or pop tlcost::internal::<what>" },
	{ NULL, NULL, 0, NULL }
};

PyTypeObject tlpy_nvtx_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "_tlcost.Nvtx",
	.tp_basicsize = sizeof(tlpy_nvtx),
	.tp_dealloc = (destructor)nvtx_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "NVTX call-identity ranges (libtlcost-nvtx)",
	.tp_methods = nvtx_methods,
	.tp_init = (initproc)nvtx_init,
	.tp_new = PyType_GenericNew,
};
