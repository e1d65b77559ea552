/*
 * _tlcost: the CPython binding of libtlcost (python/tlcost is its typed
 * face). C against the public headers only; every number it hands to
 * Python comes from the library, exact counts as Python ints parsed from
 * the library's decimal strings.
 */
#ifndef TLCOST_PY_EXT_H
#define TLCOST_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdio.h>
#include <tlcost/tlcost.h>

/* ---- module state (set once from tlcost/__init__.py) ---- */
typedef struct tlpy_hooks {
	PyObject *error_factory; /* (klass, code, message, remedy, file, line, column) -> exception */
	PyObject *tensor_type;   /* torch.Tensor, or NULL before torch is configured */
	PyObject *encode_other;  /* obj -> str/int/float/list for values C does not know */
	PyObject *dtype_names;   /* dict torch.dtype -> "float32" */
	PyObject *device_names;  /* dict torch.device -> "cpu" (filled as seen) */
	PyObject *strided;       /* torch.strided */
	PyObject *tensor_view;   /* namedtuple type Tensor(shape, dtype, stride, device) for rules */
} tlpy_hooks;

extern tlpy_hooks tlpy_hooks_g;

/** Raises the library's last error as a tlcost.Error subclass; returns NULL. */
PyObject *tlpy_raise_last(void);
/** Raises a tlcost.Error of our own (binding misuse), returns NULL. */
PyObject *tlpy_raise(int klass, const char *code, const char *remedy, const char *message);
/** The same, naming the file it concerns (the error's position). */
PyObject *tlpy_raise_at(int klass, const char *code, const char *remedy, const char *file,
                        const char *message);

/* ---- per-call arena for converted values ---- */
typedef struct tlpy_arena_block tlpy_arena_block;
typedef struct tlpy_arena {
	tlpy_arena_block *head;
	tlpy_arena_block *spare; /* the first block, kept between calls */
} tlpy_arena;

void *tlpy_arena_alloc(tlpy_arena *a, size_t n);
void tlpy_arena_reset(tlpy_arena *a);
void tlpy_arena_free(tlpy_arena *a);

/** Converts a Python argument value to a tlc_value living in the arena.
 *  Returns 0, or -1 with a Python exception set. */
int tlpy_value_from_py(tlc_value *out, PyObject *v, tlpy_arena *a, int depth);
/** Converts a sequence into n values. */
int tlpy_values_from_seq(const tlc_value **out, size_t *n, PyObject *seq, tlpy_arena *a);
/** Converts a dict {name: value} into kwargs. */
int tlpy_kwargs_from_dict(const tlc_kwarg **out, size_t *n, PyObject *dict, tlpy_arena *a);
/** A library value as a Python object (tensors as tlcost.Tensor). */
PyObject *tlpy_value_to_py(const tlc_value *v, int depth);
/** An exact decimal from the library as a Python int (None for NULL). */
PyObject *tlpy_int_from_dec(const char *dec);

/* ---- types ---- */
typedef struct tlpy_engine {
	PyObject_HEAD
	tlc_engine *eng;
	PyObject *rules; /* list keeping Python rule callables alive */
} tlpy_engine;

extern PyTypeObject tlpy_engine_type;
extern PyTypeObject tlpy_eval_type;
extern PyTypeObject tlpy_nvtx_type; /* python/ext/nvtx.c */
extern PyTypeObject tlpy_outfile_type; /* python/ext/outfile.c */

/** Registers a Python callable as a cost rule (python/ext/pyrule.c). */
PyObject *tlpy_engine_register_py_rule(tlpy_engine *self, PyObject *args, PyObject *kw);

/** Runs writer(out, payload) on an in-memory stream and returns its text
 *  as str, or raises the library's error. */
typedef int (*tlpy_writer)(FILE *out, void *payload);
PyObject *tlpy_capture_text(tlpy_writer w, void *payload);
PyObject *tlpy_mod_diff(PyObject *mod, PyObject *args); /* python/ext/diff.c */

#endif
