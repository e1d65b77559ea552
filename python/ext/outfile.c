/*
 * _tlcost.OutFile: libtlcost's whole-or-nothing output file (tlc_outfile_*,
 * include/tlcost/writers.h) for every file the Python package writes
 * (Report.save, `python3 -m tlcost capture --out`, `python3 -m tlcost map
 * -o/--provenance`), so Python and C follow one set of rules: regular
 * files only (a device node or FIFO is refused with output_open_failed),
 * a temporary beside the destination created with 0666 less the umask,
 * fsync and rename on commit, the old file untouched on any failure
 * (output_write_failed).
 */
#include "ext.h"
#include <errno.h>
#include <string.h>

typedef struct tlpy_outfile {
	PyObject_HEAD
	tlc_outfile *o; /* NULL once committed or aborted */
	FILE *f;
	PyObject *path; /* bytes: the destination, named by write errors */
	int failed;     /* errno of the write that failed (then o is NULL) */
} tlpy_outfile;

static int outfile_init(tlpy_outfile *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "path", NULL };
	PyObject *path = NULL;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&", kwlist, PyUnicode_FSConverter, &path))
		return -1;
	if (self->o) {
		Py_DECREF(path);
		tlpy_raise(TLC_ESTATE, "invalid_argument", "make a new OutFile for each file",
		           "OutFile.__init__ called twice");
		return -1;
	}
	int rc = tlc_outfile_open(&self->o, &self->f, PyBytes_AS_STRING(path));
	Py_XSETREF(self->path, path);
	if (rc < 0) {
		self->o = NULL;
		tlpy_raise_last();
		return -1;
	}
	return 0;
}

static void outfile_dealloc(tlpy_outfile *self)
{
	tlc_outfile_abort(self->o); /* never committed: the destination stays as it was */
	Py_XDECREF(self->path);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *raise_write(tlpy_outfile *self);

static int outfile_open(tlpy_outfile *self)
{
	if (self->o)
		return 1;
	if (self->failed) { /* a writer that goes on (GzipFile's close) sees the same error */
		raise_write(self);
		return 0;
	}
	tlpy_raise(TLC_ESTATE, "invalid_argument", "make a new OutFile for each file",
	           "this output file was already committed or aborted");
	return 0;
}

static PyObject *raise_write(tlpy_outfile *self)
{
	char msg[160];
	snprintf(msg, sizeof msg, "writing the output failed (%s): nothing replaced it",
	         strerror(self->failed));
	return tlpy_raise_at(TLC_EIO, "output_write_failed",
	                     "check that the disk has free space and the file size and quota "
	                     "limits allow the output",
	                     PyBytes_AS_STRING(self->path), msg);
}

/* A write into the temporary failed (errno e): removes the temporary and
 * raises output_write_failed naming the destination, which is untouched. */
static PyObject *fail_write(tlpy_outfile *self, int e)
{
	tlc_outfile_abort(self->o);
	self->o = NULL;
	self->failed = e ? e : EIO;
	return raise_write(self);
}

static PyObject *outfile_write(tlpy_outfile *self, PyObject *arg)
{
	if (!outfile_open(self))
		return NULL;
	Py_buffer b;
	if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0)
		return NULL;
	errno = 0;
	size_t n = fwrite(b.buf, 1, (size_t)b.len, self->f);
	int e = errno;
	Py_ssize_t len = b.len;
	PyBuffer_Release(&b);
	if (n != (size_t)len || ferror(self->f))
		return fail_write(self, e);
	return PyLong_FromSsize_t(len);
}

static PyObject *outfile_flush(tlpy_outfile *self, PyObject *unused)
{
	(void)unused;
	if (!outfile_open(self))
		return NULL;
	errno = 0;
	if (fflush(self->f) != 0)
		return fail_write(self, errno);
	Py_RETURN_NONE;
}

static PyObject *outfile_commit(tlpy_outfile *self, PyObject *unused)
{
	(void)unused;
	if (!outfile_open(self))
		return NULL;
	tlc_outfile *o = self->o;
	self->o = NULL;
	if (tlc_outfile_commit(o) < 0)
		return tlpy_raise_last();
	Py_RETURN_NONE;
}

static PyObject *outfile_abort(tlpy_outfile *self, PyObject *unused)
{
	(void)unused;
	tlc_outfile_abort(self->o);
	self->o = NULL;
	Py_RETURN_NONE;
}

static PyMethodDef outfile_methods[] = {
	{ "write", (PyCFunction)outfile_write, METH_O,
	  "write(bytes): into the temporary; a failure removes it and raises output_write_failed" },
	{ "flush", (PyCFunction)outfile_flush, METH_NOARGS, "flush the temporary's buffer" },
	{ "commit", (PyCFunction)outfile_commit, METH_NOARGS,
	  "commit(): flush, fsync and rename over the destination" },
	{ "abort", (PyCFunction)outfile_abort, METH_NOARGS,
	  "abort(): remove the temporary; the destination keeps its old content" },
	{ NULL, NULL, 0, NULL }
};

PyTypeObject tlpy_outfile_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "_tlcost.OutFile",
	.tp_basicsize = sizeof(tlpy_outfile),
	.tp_dealloc = (destructor)outfile_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "an output file written whole or not at all (tlc_outfile_*)",
	.tp_methods = outfile_methods,
	.tp_init = (initproc)outfile_init,
	.tp_new = PyType_GenericNew,
};
