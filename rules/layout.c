/* Layout rules: views and metadata ops (zero_by_rule), copies and
 * concatenations (0 FLOPs, bytes), constructors (0 FLOPs; zeros/ones/full
 * write their output, empty writes nothing), and composite ops that may or may
 * not copy (decomposed: their cost is exactly their children's).
 *
 * Bytes of a copy: every input tensor read once, every output written once;
 * an in-place copy_ reads src and writes self; a *_copy of a view reads only
 * what it copies (the smaller of input and output). */
#include <string.h>
#include "rules.h"
#include "util.h"

/* ---- copies ------------------------------------------------------------ */

enum copy_read { READ_ALL = 0, READ_SRC, READ_SELF, READ_MIN, READ_NONE };
enum copy_fallback {
	FB_NONE = 0,  /* outputs must be recorded */
	FB_SAME,      /* like arg 0 (dtype kwarg honoured) */
	FB_ARG1,      /* arg 1 is the destination (_copy_from) */
	FB_CAT,       /* cat(tensors, dim) */
	FB_STACK,     /* stack(tensors, dim) */
	FB_SIZE0,     /* constructor: size list at arg 0, dtype kwarg */
	FB_SIZE1,     /* new_*(self, size, ...): size at arg 1, dtype kwarg or self's */
	FB_LIKE,      /* *_like(self, ...): self's shape, dtype kwarg or self's */
	FB_GRAD_SIZES, /* *_backward(grad, input_sizes, ...): input_sizes, grad's dtype */
	FB_PAD        /* pads: self's shape with (before, after) pairs from the last dim */
};

typedef struct copy_spec {
	int read;
	int fallback;
} copy_spec;

/* Where a trace lists the dtype of the ops that take one (Kineto writes
 * keyword-only arguments positionally, a dtype as a ScalarType code). */
static const tlc_value *observed_dtype(const tlc_op *op, int *has)
{
	static const struct { const char *name; size_t pos; } pos[] = {
		{ "aten::_to_copy", 1 }, { "aten::zeros", 1 }, { "aten::ones", 1 },
		{ "aten::zeros_like", 1 }, { "aten::ones_like", 1 }, { "aten::full", 2 },
		{ "aten::full_like", 2 }, { "aten::new_zeros", 2 }, { "aten::new_ones", 2 },
		{ "aten::new_full", 3 }, { "aten::linspace", 3 },
	};
	*has = 0;
	for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++)
		if (strcmp(op->name, pos[i].name) == 0) {
			*has = 1;
			return pos[i].pos < op->nargs ? &op->args[pos[i].pos] : NULL;
		}
	return NULL;
}

static tlc_dtype dtype_kwarg_or(const tlc_op *op, const tlc_host *host, tlc_dtype dflt)
{
	int has = 0;
	const tlc_value *o = tlc_rules__observed(op) ? observed_dtype(op, &has) : NULL;
	if (has) {
		if (o && o->kind == TLC_VALUE_INT)
			return tlc_rules__dtype_code(o->u.integer);
		/* None: the default below; passed but not recorded: unknown */
		return o && o->kind == TLC_VALUE_NONE ? dflt : TLC_DTYPE_NONE;
	}
	const tlc_value *v = host->op_kwarg(op, "dtype");
	if (v && v->kind == TLC_VALUE_STRING)
		return host->dtype_parse(v->u.string);
	return dflt;
}

/* cat: shapes agree except along dim, which adds up (1-D empty tensors skipped). */
static int cat_shape(int64_t *shape, size_t *n, const tlc_value *list, int64_t dim, int stack)
{
	const tlc_tensor *first = NULL;
	int64_t along = 0;
	for (size_t i = 0; i < list->u.list.n; i++) {
		const tlc_tensor *t = tlc_rules__tensor(&list->u.list.items[i]);
		if (!t)
			return TLC_RULE_MISSING_ARGS;
		if (!stack && t->ndim == 1 && t->shape[0] == 0)
			continue; /* legacy: empty 1-D tensors are ignored by cat */
		if (!first)
			first = t;
		if (t->ndim != first->ndim)
			return TLC_RULE_BAD_ARGS;
		int64_t nd = (int64_t)t->ndim, d = dim < 0 ? dim + nd + stack : dim;
		if (d < 0 || d >= nd + stack)
			return TLC_RULE_BAD_ARGS;
		if (__builtin_add_overflow(along, stack ? 1 : t->shape[d], &along))
			return TLC_RULE_BAD_ARGS;
	}
	if (!first || first->ndim + 1 > TLC_RULES_MAX_DIMS)
		return first ? TLC_RULE_BAD_ARGS : TLC_RULE_MISSING_ARGS;
	int64_t nd = (int64_t)first->ndim, d = dim < 0 ? dim + nd + stack : dim;
	*n = 0;
	for (int64_t k = 0; k < nd + stack; k++) {
		if (k == d)
			shape[(*n)++] = along;
		else
			shape[(*n)++] = first->shape[k < d || !stack ? k : k - 1];
	}
	return 0;
}

static int fb_cat(tlc_cost *out, const tlc_op *op, const tlc_host *host, int stack)
{
	const tlc_value *list = host->arg(op, 0, "tensors");
	int64_t dim = 0, shape[TLC_RULES_MAX_DIMS];
	size_t n = 0;
	if (!list || list->kind != TLC_VALUE_LIST || list->u.list.n == 0)
		return tlc_rules__missing(out, host, "missing the tensor list");
	int drc = host->int_arg_or(&dim, op, 1, "dim", 0);
	if (drc < 0)
		return tlc_rules__arg_fail(out, host, op, drc, "dim", "dim is not an int");
	int rc = cat_shape(shape, &n, list, dim, stack);
	if (rc == TLC_RULE_MISSING_ARGS)
		return tlc_rules__missing(out, host, "a tensor's shape is not recorded");
	if (rc < 0)
		return tlc_rules__bad(out, host, "tensors do not concatenate along dim");
	const tlc_tensor *t0 = tlc_rules__tensor(&list->u.list.items[0]);
	return tlc_rules__write_shape(out, host, shape, n, t0->dtype);
}

static int fb_size(tlc_cost *out, const tlc_op *op, const tlc_host *host, size_t i,
                   const char *name, tlc_dtype dflt)
{
	int64_t shape[TLC_RULES_MAX_DIMS];
	size_t n = 0;
	int rc = tlc_rules__int_list(shape, TLC_RULES_MAX_DIMS, &n, host->arg(op, i, name));
	if ((rc = tlc_rules__need(out, host, rc, name)) < 0)
		return rc;
	return tlc_rules__write_shape(out, host, shape, n, dtype_kwarg_or(op, host, dflt));
}

/* constant_pad_nd(self, pad) / reflection_pad*(self, padding): pad holds
 * (before, after) pairs starting at the last dim; negative pads crop. */
static int fb_pad(tlc_cost *out, const tlc_op *op, const tlc_host *host, const tlc_tensor *self)
{
	int64_t pad[2 * TLC_RULES_MAX_DIMS], shape[TLC_RULES_MAX_DIMS];
	size_t n = 0;
	if (!self)
		return tlc_rules__missing(out, host, "missing self shape");
	int rc = tlc_rules__int_list(pad, 2 * TLC_RULES_MAX_DIMS, &n, host->arg(op, 1, "pad"));
	if ((rc = tlc_rules__need(out, host, rc, "pad")) < 0)
		return rc;
	if (n % 2 || n / 2 > self->ndim || self->ndim > TLC_RULES_MAX_DIMS)
		return tlc_rules__bad(out, host, "pad needs (before, after) pairs for at most every dim");
	memcpy(shape, self->shape, self->ndim * sizeof shape[0]);
	for (size_t i = 0; i < n / 2; i++) {
		int64_t *d = &shape[self->ndim - 1 - i];
		if (__builtin_add_overflow(*d, pad[2 * i], d) ||
		    __builtin_add_overflow(*d, pad[2 * i + 1], d) || *d < 0)
			return tlc_rules__bad(out, host, "padded size is negative or overflows");
	}
	return tlc_rules__write_shape(out, host, shape, self->ndim, self->dtype);
}

/* Written bytes when the outputs are not recorded. */
static int copy_fallback(tlc_cost *out, const tlc_op *op, const tlc_host *host, int fb)
{
	const tlc_tensor *self = host->tensor_arg(op, 0, "self");
	switch (fb) {
	case FB_SAME:
	case FB_LIKE:
		if (!self)
			return tlc_rules__missing(out, host, "missing self shape");
		return tlc_rules__write_shape(out, host, self->shape, self->ndim,
		                              dtype_kwarg_or(op, host, self->dtype));
	case FB_ARG1:
		if (!host->tensor_arg(op, 1, "dst"))
			return tlc_rules__missing(out, host, "missing dst shape");
		return host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, host->arg(op, 1, "dst"));
	case FB_CAT: return fb_cat(out, op, host, 0);
	case FB_STACK: return fb_cat(out, op, host, 1);
	case FB_SIZE0: return fb_size(out, op, host, 0, "size", TLC_DTYPE_NONE);
	case FB_SIZE1:
		return fb_size(out, op, host, 1, "size", self ? self->dtype : TLC_DTYPE_NONE);
	case FB_PAD: return fb_pad(out, op, host, self);
	case FB_GRAD_SIZES:
		/* arg 0 is grad_output here */
		return fb_size(out, op, host, 1, "input_sizes", self ? self->dtype : TLC_DTYPE_NONE);
	default:
		return tlc_rules__missing(out, host, "outputs not recorded: the copied size is unknown");
	}
}

/* bytes of the smaller of arg 0 and output 0 (a *_copy of a view). */
static int read_min(tlc_cost *out, const tlc_op *op, const tlc_host *host)
{
	const tlc_value *in = host->arg(op, 0, "self");
	const tlc_value *o = host->output(op, 0);
	const tlc_tensor *ti = tlc_rules__tensor(in), *to = tlc_rules__tensor(o);
	int64_t ni = 0, no = 0;
	if (!ti || !to)
		return tlc_rules__missing(out, host, "a view copy needs its input and output shapes");
	if (tlc_rules__numel_range(&ni, ti, 0, ti->ndim) < 0 ||
	    tlc_rules__numel_range(&no, to, 0, to->ndim) < 0)
		return tlc_rules__bad(out, host, "tensor too large");
	if (ti->dtype != to->dtype)
		return host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, in);
	return host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, no < ni ? o : in);
}

static int copy_read(tlc_cost *out, const tlc_op *op, const tlc_host *host, int mode)
{
	switch (mode) {
	case READ_ALL: return host->read_inputs(out, op);
	case READ_SRC:
		if (!host->tensor_arg(op, 1, "src"))
			return tlc_rules__missing(out, host, "missing src shape");
		return host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, host->arg(op, 1, "src"));
	case READ_SELF:
		/* _copy_from(self, dst): dst is only written */
		if (!host->tensor_arg(op, 0, "self"))
			return tlc_rules__missing(out, host, "missing self shape");
		return host->cost_add_bytes(out, TLC_FIELD_BYTES_READ, host->arg(op, 0, "self"));
	case READ_MIN: return read_min(out, op, host);
	default: return 0;
	}
}

static int rule_copy(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const copy_spec *s = payload;
	int rc = copy_read(out, op, host, s->read);
	if (rc < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	if (s->read == READ_SRC) {
		/* copy_: self is the destination */
		if (!host->tensor_arg(op, 0, "self"))
			return tlc_rules__missing(out, host, "missing self shape");
		return host->cost_add_bytes(out, TLC_FIELD_BYTES_WRITTEN, host->arg(op, 0, "self"));
	}
	return copy_fallback(out, op, host, s->fallback);
}

/* reflection/replication_pad*_backward(grad_output, self, padding): every
 * grad_output element is added into the input-sized gradient: the folded
 * border costs numel(grad_output) - numel(self) adds. */
static int rule_pad_backward(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	const tlc_tensor *go = host->tensor_arg(op, 0, "grad_output");
	const tlc_tensor *self = host->tensor_arg(op, 1, "self");
	if (!go || !self)
		return tlc_rules__missing(out, host, "missing grad_output or self shape");
	int rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, 1, go);
	if (rc == 0)
		rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, -1, self);
	if (rc == 0)
		rc = host->read_inputs(out, op);
	if (rc < 0)
		return rc;
	if ((op->flags & TLC_OP_HAS_OUTPUTS) && op->noutputs > 0)
		return host->write_outputs(out, op, NULL);
	return tlc_rules__write_shape(out, host, self->shape, self->ndim, go->dtype);
}

/* Leading numeric args of an op (arange's start/end/step) into v[3]; *ints
 * says whether all were ints. */
static size_t numeric_args(double *v, int *ints, const tlc_op *op)
{
	size_t n = 0;
	*ints = 1;
	while (n < op->nargs && n < 3) {
		const tlc_value *a = &op->args[n];
		if (a->kind == TLC_VALUE_INT)
			v[n] = (double)a->u.integer;
		else if (a->kind == TLC_VALUE_FLOAT)
			v[n] = a->u.real, *ints = 0;
		else
			break;
		n++;
	}
	return n;
}

/* Length and dtype of arange/linspace from their arguments (no output
 * recorded): arange has ceil((end-start)/step) elements, int64 when every
 * bound is an int; linspace has `steps`. An unknown dtype stays unknown. */
static int range_shape(tlc_cost *out, int64_t *len, tlc_dtype *dt, const tlc_op *op,
                       const tlc_host *host, int linspace)
{
	double v[3] = { 0, 0, 1 };
	int ints;
	size_t n = numeric_args(v, &ints, op);
	*dt = dtype_kwarg_or(op, host, TLC_DTYPE_NONE);
	if (linspace) {
		if (n < 3 || op->args[2].kind != TLC_VALUE_INT || op->args[2].u.integer < 0)
			return tlc_rules__missing(out, host, "linspace: steps not recorded");
		*len = op->args[2].u.integer;
		return 0;
	}
	if (n == 0)
		return tlc_rules__missing(out, host, "arange: bounds not recorded (tensor or absent)");
	double start = n >= 2 ? v[0] : 0, end = n >= 2 ? v[1] : v[0], step = n == 3 ? v[2] : 1;
	double l = step != 0 ? __builtin_ceil((end - start) / step) : -1;
	if (!(l >= 0 && l < 9.0e18))
		return tlc_rules__bad(out, host, "arange: bounds give no valid length");
	*len = (int64_t)l;
	if (*dt == TLC_DTYPE_NONE && ints)
		*dt = TLC_DTYPE_INT64;
	return 0;
}

/* arange in a trace, where every argument is listed and the overload is
 * told by the count: arange(end, dtype, layout, device, pin_memory) 5,
 * .start(start, end, dtype, ...) 6, .start_step(start, end, step, dtype,
 * ...) 7, .out(end, out) 2, .start_out(start, end, step, out) 4. The dtype
 * is a c10::ScalarType code; None means int64 for int bounds and the default
 * float dtype otherwise (unknown here: the bytes are then unknown). */
static int range_observed(tlc_cost *out, int64_t *len, tlc_dtype *dt, const tlc_op *op,
                          const tlc_host *host)
{
	static const struct { size_t nargs; size_t nbounds; int dtype_pos; } ovl[] = {
		{ 5, 1, 1 }, { 6, 2, 2 }, { 7, 3, 3 }, { 2, 1, -1 }, { 4, 3, -1 },
	};
	size_t k = 0;
	while (k < sizeof ovl / sizeof ovl[0] && ovl[k].nargs != op->nargs)
		k++;
	if (k == sizeof ovl / sizeof ovl[0])
		return tlc_rules__bad(out, host, "arange with %zu arguments: no such overload",
		                      op->nargs);
	double v[3] = { 0, 0, 1 };
	int ints = 1;
	for (size_t i = 0; i < ovl[k].nbounds; i++) {
		const tlc_value *a = &op->args[i];
		if (a->kind == TLC_VALUE_INT)
			v[i] = (double)a->u.integer;
		else if (a->kind == TLC_VALUE_FLOAT)
			v[i] = a->u.real, ints = 0;
		else
			return a->kind == TLC_VALUE_UNRECORDED ?
				tlc_rules__missing_arg(out, host, op, "arange bounds") :
				tlc_rules__missing(out, host, "arange: bounds not recorded (tensor or absent)");
	}
	size_t nb = ovl[k].nbounds;
	double start = nb >= 2 ? v[0] : 0, end = nb >= 2 ? v[1] : v[0], step = nb == 3 ? v[2] : 1;
	double l = step != 0 ? __builtin_ceil((end - start) / step) : -1;
	if (!(l >= 0 && l < 9.0e18))
		return tlc_rules__bad(out, host, "arange: bounds give no valid length");
	*len = (int64_t)l;
	*dt = ints ? TLC_DTYPE_INT64 : TLC_DTYPE_NONE;
	const tlc_value *d = ovl[k].dtype_pos >= 0 ? &op->args[ovl[k].dtype_pos] : NULL;
	if (d && d->kind == TLC_VALUE_INT)
		*dt = tlc_rules__dtype_code(d->u.integer);
	else if (d && d->kind != TLC_VALUE_NONE)
		*dt = TLC_DTYPE_NONE; /* a dtype was passed but not recorded: bytes unknown */
	else if (!d) {
		const tlc_tensor *o = tlc_rules__tensor(&op->args[op->nargs - 1]);
		*dt = o ? o->dtype : TLC_DTYPE_NONE; /* .out: the out tensor's dtype */
	}
	return 0;
}

/* arange / linspace: start + i*step per element (2 FLOPs), written once. */
static int rule_range(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	const tlc_tensor *o = tlc_rules__tensor_out(op, 0);
	if (o) {
		int rc = host->cost_add_numel(out, TLC_FIELD_OTHER_FLOPS, 2, o);
		return rc < 0 ? rc : host->write_outputs(out, op, NULL);
	}
	int64_t len = 0;
	tlc_dtype dt = TLC_DTYPE_NONE;
	int rc = payload == NULL && tlc_rules__observed(op) ?
		range_observed(out, &len, &dt, op, host) :
		range_shape(out, &len, &dt, op, host, payload != NULL);
	if (rc < 0)
		return rc;
	if ((rc = host->cost_add(out, TLC_FIELD_OTHER_FLOPS, 2, 1, &len)) < 0)
		return rc;
	return tlc_rules__write_shape(out, host, &len, 1, dt);
}

/* _local_scalar_dense(self): reads one element to the host. */
static int rule_local_scalar(tlc_cost *out, const tlc_op *op, const tlc_host *host, void *payload)
{
	(void)payload;
	if (!host->tensor_arg(op, 0, "self"))
		return tlc_rules__missing(out, host, "missing self shape");
	return host->read_inputs(out, op);
}

static const copy_spec copy_same = { READ_ALL, FB_SAME };
static const copy_spec copy_none = { READ_ALL, FB_NONE };
static const copy_spec copy_inplace = { READ_SRC, FB_NONE };
static const copy_spec copy_from = { READ_SELF, FB_ARG1 };
static const copy_spec copy_view = { READ_MIN, FB_NONE };
static const copy_spec copy_cat = { READ_ALL, FB_CAT };
static const copy_spec copy_stack = { READ_ALL, FB_STACK };
static const copy_spec ctor_size0 = { READ_NONE, FB_SIZE0 };
static const copy_spec ctor_size1 = { READ_NONE, FB_SIZE1 };
static const copy_spec ctor_like = { READ_NONE, FB_LIKE };
static const copy_spec ctor_scalar = { READ_NONE, FB_NONE };
static const copy_spec view_backward = { READ_ALL, FB_GRAD_SIZES };
static const copy_spec copy_pad = { READ_ALL, FB_PAD };

#define P(x) ((const void *)&(x))
#define COPY TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT, rule_copy
#define VIEW(n) { "aten::" n, TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL, \
	"view or metadata op: no arithmetic, no data moved" }
#define DECOMP(n, why) { "aten::" n, TLC_RULE_DECOMPOSED, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL, why }
#define VCOPY(n) { "aten::" n, COPY, P(copy_view), "copy of a view: 0 FLOPs; reads min(in, out), writes out" }
#define MAYCOPY "composite: a view, or a copy done by its children (cost = children)"

static const tlc_rules_entry layout_rules[] = {
	/* views */
	VIEW("view"), VIEW("_unsafe_view"), VIEW("view_as"), VIEW("_reshape_alias"),
	VIEW("as_strided"), VIEW("as_strided_"), VIEW("t"), VIEW("t_"), VIEW("transpose"),
	VIEW("transpose_"), VIEW("swapaxes"), VIEW("swapaxes_"), VIEW("swapdims"),
	VIEW("swapdims_"), VIEW("permute"), VIEW("movedim"), VIEW("moveaxis"), VIEW("expand"),
	VIEW("expand_as"), VIEW("broadcast_to"), VIEW("broadcast_tensors"), VIEW("squeeze"),
	VIEW("squeeze_"), VIEW("unsqueeze"), VIEW("unsqueeze_"), VIEW("unflatten"),
	VIEW("select"), VIEW("slice"), VIEW("narrow"), VIEW("split"), VIEW("split_with_sizes"),
	VIEW("unsafe_split"), VIEW("unsafe_split_with_sizes"), VIEW("tensor_split"),
	VIEW("hsplit"), VIEW("vsplit"), VIEW("dsplit"), VIEW("chunk"), VIEW("unsafe_chunk"),
	VIEW("unbind"), VIEW("detach"), VIEW("detach_"), VIEW("alias"), VIEW("diagonal"),
	VIEW("numpy_T"), VIEW("mT"), VIEW("mH"), VIEW("adjoint"), VIEW("matrix_H"),
	VIEW("lift_fresh"), VIEW("lift"), VIEW("unfold"), VIEW("view_as_real"),
	VIEW("view_as_complex"), VIEW("real"), VIEW("imag"), VIEW("conj"), VIEW("_conj"),
	VIEW("_neg_view"), VIEW("positive"), VIEW("resize_"), VIEW("resize_as_"), VIEW("set_"),
	VIEW("requires_grad_"), VIEW("_indices"), VIEW("_values"), VIEW("indices"),
	VIEW("values"),
	/* metadata queries */
	VIEW("size"), VIEW("stride"), VIEW("dim"), VIEW("numel"), VIEW("is_same_size"),
	VIEW("is_floating_point"), VIEW("is_complex"), VIEW("is_nonzero"), VIEW("sym_size"),
	VIEW("sym_stride"), VIEW("sym_numel"), VIEW("storage_offset"),
	VIEW("_assert_async"), VIEW("_assert_scalar"), VIEW("_assert_tensor_metadata"),
	VIEW("sym_constrain_range"), VIEW("sym_constrain_range_for_size"), VIEW("meshgrid"),
	/* allocation without initialisation */
	{ "aten::empty", TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
	  "allocation only: no arithmetic, nothing written" },
	{ "aten::empty_like", TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
	  "allocation only: no arithmetic, nothing written" },
	{ "aten::empty_strided", TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
	  "allocation only: no arithmetic, nothing written" },
	{ "aten::new_empty", TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
	  "allocation only: no arithmetic, nothing written" },
	{ "aten::new_empty_strided", TLC_RULE_ZERO, TLC_EVIDENCE_FORMULA_EXACT, NULL, NULL,
	  "allocation only: no arithmetic, nothing written" },
	/* composites that view or copy through their children */
	DECOMP("reshape", MAYCOPY), DECOMP("flatten", MAYCOPY), DECOMP("ravel", MAYCOPY),
	DECOMP("contiguous", MAYCOPY), DECOMP("to", MAYCOPY), DECOMP("type_as", MAYCOPY),
	DECOMP("resolve_conj", MAYCOPY), DECOMP("resolve_neg", MAYCOPY), DECOMP("item", MAYCOPY),
	DECOMP("concat", "alias of cat (cost = children)"),
	DECOMP("concatenate", "alias of cat (cost = children)"),
	DECOMP("hstack", "cat of its inputs (cost = children)"),
	DECOMP("vstack", "cat of its inputs (cost = children)"),
	DECOMP("dstack", "cat of its inputs (cost = children)"),
	DECOMP("column_stack", "cat of its inputs (cost = children)"),
	DECOMP("tile", "repeat (cost = children)"),
	DECOMP("rot90", "flip and transpose (cost = children)"),
	DECOMP("pad", "constant_pad_nd or a reflection/replication pad (cost = children)"),
	/* copies: 0 FLOPs, bytes */
	{ "aten::clone", COPY, P(copy_same), "copy: 0 FLOPs; read input, write output" },
	{ "aten::_to_copy", COPY, P(copy_same), "copy (maybe a dtype/device change): 0 FLOPs" },
	{ "aten::copy", COPY, P(copy_inplace), "functional copy: 0 FLOPs; read src, write a self-shaped result" },
	{ "aten::copy_", COPY, P(copy_inplace), "in-place copy: 0 FLOPs; read src, write self" },
	{ "aten::_copy_from", COPY, P(copy_from), "copy to dst: 0 FLOPs; read self, write dst" },
	{ "aten::_copy_from_and_resize", COPY, P(copy_from), "copy to dst: 0 FLOPs" },
	{ "aten::lift_fresh_copy", COPY, P(copy_same), "copy: 0 FLOPs" },
	{ "aten::pin_memory", COPY, P(copy_same), "copy to pinned memory: 0 FLOPs" },
	{ "aten::_pin_memory", COPY, P(copy_same), "copy to pinned memory: 0 FLOPs" },
	{ "aten::flip", COPY, P(copy_same), "reordering copy: 0 FLOPs" },
	{ "aten::roll", COPY, P(copy_same), "reordering copy: 0 FLOPs" },
	{ "aten::constant_pad_nd", COPY, P(copy_pad), "padded copy: 0 FLOPs; output written once" },
	{ "aten::cat", COPY, P(copy_cat), "concatenation: 0 FLOPs; read inputs, write output" },
	{ "aten::stack", COPY, P(copy_stack), "stacking: 0 FLOPs; read inputs, write output" },
	{ "aten::slice_scatter", COPY, P(copy_same), "copy with an embedded slice: 0 FLOPs" },
	{ "aten::select_scatter", COPY, P(copy_same), "copy with an embedded select: 0 FLOPs" },
	{ "aten::diagonal_scatter", COPY, P(copy_same), "copy with an embedded diagonal: 0 FLOPs" },
	{ "aten::as_strided_scatter", COPY, P(copy_same), "copy with an embedded view: 0 FLOPs" },
	{ "aten::select_backward", COPY, P(view_backward),
	  "gradient of a view: 0 FLOPs; read grad_output, write input_sizes (zeros + embedded grad, written once)" },
	{ "aten::slice_backward", COPY, P(view_backward),
	  "gradient of a view: 0 FLOPs; read grad_output, write input_sizes once" },
	{ "aten::diagonal_backward", COPY, P(view_backward),
	  "gradient of a view: 0 FLOPs; read grad_output, write input_sizes once" },
	{ "aten::pixel_shuffle", COPY, P(copy_same), "reordering copy: 0 FLOPs" },
	{ "aten::pixel_unshuffle", COPY, P(copy_same), "reordering copy: 0 FLOPs" },
	{ "aten::channel_shuffle", COPY, P(copy_same), "reordering copy: 0 FLOPs" },
	{ "aten::native_channel_shuffle", COPY, P(copy_same), "reordering copy: 0 FLOPs" },
	{ "aten::reflection_pad1d", COPY, P(copy_pad), "padded copy: 0 FLOPs" },
	{ "aten::reflection_pad2d", COPY, P(copy_pad), "padded copy: 0 FLOPs" },
	{ "aten::reflection_pad3d", COPY, P(copy_pad), "padded copy: 0 FLOPs" },
	{ "aten::replication_pad1d", COPY, P(copy_pad), "padded copy: 0 FLOPs" },
	{ "aten::replication_pad2d", COPY, P(copy_pad), "padded copy: 0 FLOPs" },
	{ "aten::replication_pad3d", COPY, P(copy_pad), "padded copy: 0 FLOPs" },
	{ "aten::diag_embed", COPY, P(copy_none), "copy onto a zero diagonal matrix: 0 FLOPs" },
	{ "aten::diag", COPY, P(copy_none), "diagonal copy: 0 FLOPs" },
	{ "aten::im2col", COPY, P(copy_none), "patch copy: 0 FLOPs" },
#define PADB(n) { "aten::" n, TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT, rule_pad_backward, NULL, \
	"numel(grad_output) - numel(self) adds (border folded back); read inputs, write grad_input" }
	PADB("reflection_pad1d_backward"), PADB("reflection_pad2d_backward"),
	PADB("reflection_pad3d_backward"), PADB("replication_pad1d_backward"),
	PADB("replication_pad2d_backward"), PADB("replication_pad3d_backward"),
#undef PADB
	{ "aten::arange", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT, rule_range, NULL,
	  "start + i*step: 2 FLOPs per element; written once" },
	{ "aten::linspace", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT, rule_range, "linspace",
	  "start + i*step: 2 FLOPs per element; written once" },
	{ "aten::_local_scalar_dense", TLC_RULE_COST, TLC_EVIDENCE_FORMULA_EXACT, rule_local_scalar,
	  NULL, "reads one element to the host: 0 FLOPs" },
	VCOPY("view_copy"), VCOPY("_unsafe_view_copy"), VCOPY("permute_copy"),
	VCOPY("transpose_copy"), VCOPY("t_copy"), VCOPY("expand_copy"), VCOPY("squeeze_copy"),
	VCOPY("unsqueeze_copy"), VCOPY("select_copy"), VCOPY("slice_copy"),
	VCOPY("as_strided_copy"), VCOPY("alias_copy"), VCOPY("detach_copy"),
	VCOPY("diagonal_copy"), VCOPY("_reshape_alias_copy"), VCOPY("unfold_copy"),
	VCOPY("view_as_real_copy"), VCOPY("view_as_complex_copy"),
	/* constructors: 0 FLOPs; write the output, read nothing */
	{ "aten::zeros", COPY, P(ctor_size0), "constructor: 0 FLOPs; writes the output" },
	{ "aten::ones", COPY, P(ctor_size0), "constructor: 0 FLOPs; writes the output" },
	{ "aten::full", COPY, P(ctor_size0), "constructor: 0 FLOPs; writes the output" },
	{ "aten::scalar_tensor", COPY, P(ctor_scalar), "constructor: 0 FLOPs; writes the output" },
	{ "aten::zeros_like", COPY, P(ctor_like), "constructor: 0 FLOPs; writes the output" },
	{ "aten::ones_like", COPY, P(ctor_like), "constructor: 0 FLOPs; writes the output" },
	{ "aten::full_like", COPY, P(ctor_like), "constructor: 0 FLOPs; writes the output" },
	{ "aten::new_zeros", COPY, P(ctor_size1), "constructor: 0 FLOPs; writes the output" },
	{ "aten::new_ones", COPY, P(ctor_size1), "constructor: 0 FLOPs; writes the output" },
	{ "aten::new_full", COPY, P(ctor_size1), "constructor: 0 FLOPs; writes the output" },
};
#undef MAYCOPY
#undef VCOPY
#undef DECOMP
#undef VIEW
#undef COPY
#undef P

int tlc_rules__layout_init(tlc_plugin_ctx *ctx, const tlc_host *host)
{
	return tlc_rules__register_table(ctx, host, layout_rules, TLC_RULES_COUNT(layout_rules));
}
