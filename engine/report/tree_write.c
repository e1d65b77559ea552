/* Writers of the cost tree: text (full, or 80 columns for the report),
 * JSON, CSV. */
#include <string.h>
#include "reports.h"
#include "textw.h"

static const char *kind_name(tlc_tree_row_kind k)
{
	return k == TLC_TREE_MORE ? "more" : k == TLC_TREE_BELOW ? "below" : "node";
}

/* Column widths: at least the headers', and wide enough for the largest
 * figure of any row, so the columns stay aligned at any size. A
 * width-limited tree (the report's) leaves out the self columns: its label
 * column gets their room (`tlcost tree` shows them). */
typedef struct cols {
	int flops, unk;
	int self; /* 1: the self FLOPs and % columns are shown */
} cols;

static int digits_u64(unsigned long long v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static cols widths(const tlc_tree *t, int self)
{
	cols c = { 14, 3, self };
	tlc_digits d = { 0 };
	for (size_t i = 0; i < tlc_tree_row_count(t); i++) {
		const tlc_tree_row *r = tlc_tree_row_at(t, i);
		int w = (int)strlen(tlc_textw__group(&d, r->subtree_flops));
		if (w > c.flops)
			c.flops = w;
		w = self ? (int)strlen(tlc_textw__group(&d, r->self_flops)) : 0;
		if (w > c.flops)
			c.flops = w;
		if (digits_u64(r->subtree_unknown) > c.unk)
			c.unk = digits_u64(r->subtree_unknown);
	}
	tlc_textw__digits_free(&d);
	return c;
}

/* One row; width > 0 drops the label's [type], then cuts the label so the
 * line fits (marked with '~'). Before the label: "%*s %5.1f " per FLOPs
 * column shown (flops + 7 characters), unk, then two spaces. */
static void text_row(FILE *out, const tlc_tree_row *r, size_t width, cols c)
{
	tlc_digits sub = { 0 }, self = { 0 };
	char label[600];
	if (r->kind == TLC_TREE_NODE && *r->module_type)
		snprintf(label, sizeof label, "%s [%s]", r->label, r->module_type);
	else
		snprintf(label, sizeof label, "%s", r->label);
	/* a width-limited tree (the report's) shows the subtree time only */
	size_t used = (size_t)((c.self ? 2 : 1) * (c.flops + 7) + c.unk) + 2 + 2 * r->depth +
	              (r->has_device_time ? (width ? 9 : 26) : 0);
	/* too long for the width: the module's own name first, its type left out */
	if (width && used + strlen(label) > width && r->kind == TLC_TREE_NODE && *r->module_type)
		snprintf(label, sizeof label, "%s", r->label);
	if (width && used + strlen(label) > width) {
		size_t keep = width > used + 8 ? width - used - 1 : 7;
		const char *tail = r->kind == TLC_TREE_NODE ? strstr(r->label, " (x") : NULL;
		size_t tl = tail ? strlen(tail) : 0;
		if (keep < strlen(label) && tl && tl + 4 <= keep) {
			/* a folded row keeps its count: the name is cut, not "(xN)" */
			memmove(label + keep - tl, tail, tl + 1);
			label[keep - tl - 1] = '~';
		} else if (keep < strlen(label)) {
			label[keep] = '~';
			label[keep + 1] = '\0';
		}
	}
	fprintf(out, "%*s %5.1f ", c.flops, tlc_textw__group(&sub, r->subtree_flops), r->subtree_pct);
	if (c.self)
		fprintf(out, "%*s %5.1f ", c.flops, tlc_textw__group(&self, r->self_flops), r->self_pct);
	fprintf(out, "%*llu", c.unk, (unsigned long long)r->subtree_unknown);
	if (r->has_device_time && width)
		fprintf(out, " %8.3f", (double)r->subtree_kernel_ns / 1e6);
	else if (r->has_device_time)
		fprintf(out, " %12.3f %12.3f", (double)r->subtree_kernel_ns / 1e6,
		        (double)r->self_kernel_ns / 1e6);
	fprintf(out, "  %*s%s\n", (int)(2 * r->depth), "", label);
	tlc_textw__digits_free(&sub);
	tlc_textw__digits_free(&self);
}

void tlc_rep__tree_text_rows(FILE *out, const tlc_tree *t, size_t width)
{
	cols c = widths(t, width == 0);
	tlc_tree_device dv = TLC_TREE_DEVICE_INIT;
	tlc_tree_device_get(t, &dv);
	fprintf(out, "%*s %5s ", c.flops, "subtree FLOPs", "%");
	if (c.self)
		fprintf(out, "%*s %5s ", c.flops, "self FLOPs", "%");
	fprintf(out, "%*s", c.unk, "unk");
	if (dv.present && width)
		fprintf(out, " %8s", "k.ms");
	else if (dv.present)
		fprintf(out, " %12s %12s", "subtree k.ms", "self k.ms");
	fprintf(out, "  %s\n", "module call");
	for (size_t i = 0; i < tlc_tree_row_count(t); i++)
		text_row(out, tlc_tree_row_at(t, i), width, c);
}

static void write_text(FILE *out, const tlc_tree *t)
{
	const tlc_tree_options *o = tlc_tree__options(t);
	tlc_digits a = { 0 }, b = { 0 };
	fprintf(out, "cost tree, %s phase (actual-path analytic, fma=2: one MAC = 2 FLOPs)\n",
	        tlc_phase_name(o->phase));
	tlc_rep__tree_text_rows(out, t, 0);
	fprintf(out, "total %s: %s FLOPs (sum of the self column)\n", tlc_phase_name(o->phase),
	        tlc_textw__group(&a, tlc_tree_total_flops(t)));
	fprintf(out, "hidden in remainder rows: %s FLOPs in %llu call%s (top %zu, depth %zu; 0 = "
	        "no limit)\n", tlc_textw__group(&b, tlc_tree_hidden_flops(t)),
	        (unsigned long long)tlc_tree_hidden_calls(t),
	        tlc_tree_hidden_calls(t) == 1 ? "" : "s", o->top, o->depth);
	fputs("unk = unknown-cost calls in the subtree (their FLOPs are not in the total)\n", out);
	tlc_tree_device dv = TLC_TREE_DEVICE_INIT;
	if (tlc_tree_device_get(t, &dv) == 0 && dv.present)
		fprintf(out, "k.ms = kernel time on the costed row (the op whose rule carries the cost: "
		        "the op\nitself or the counted op enclosing it), from the device-time join: "
		        "%lld ns in the\nself column (%lld ns in remainder rows) + %lld ns on rows that "
		        "are not costed ops\n", (long long)dv.rows_ns, (long long)dv.hidden_ns,
		        (long long)dv.not_op_ns);
	tlc_rep__coverage_line(out, tlc_tree__eval(t));
	tlc_textw__digits_free(&a);
	tlc_textw__digits_free(&b);
}

static void json_row(yajl_gen g, const tlc_tree_row *r)
{
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "kind", kind_name(r->kind));
	tlc_jsonw__kuint(g, "depth", r->depth);
	tlc_jsonw__kstr(g, "path", r->path);
	tlc_jsonw__kstr(g, "last_path", r->last_path);
	tlc_jsonw__kstr(g, "label", r->label);
	tlc_jsonw__kstr(g, "module_type", r->module_type);
	tlc_jsonw__kint(g, "call", r->call);
	tlc_jsonw__kuint(g, "repeat", r->repeat);
	tlc_jsonw__kuint(g, "hidden_calls", r->hidden_calls);
	tlc_jsonw__knum(g, "self_flops", r->self_flops);
	tlc_jsonw__knum(g, "subtree_flops", r->subtree_flops);
	tlc_jsonw__kreal(g, "self_pct", r->self_pct);
	tlc_jsonw__kreal(g, "subtree_pct", r->subtree_pct);
	tlc_jsonw__kuint(g, "self_ops", r->self_ops);
	tlc_jsonw__kuint(g, "self_unknown", r->self_unknown);
	tlc_jsonw__kuint(g, "subtree_unknown", r->subtree_unknown);
	if (r->has_device_time) {
		tlc_jsonw__kint(g, "self_kernel_ns", r->self_kernel_ns);
		tlc_jsonw__kint(g, "subtree_kernel_ns", r->subtree_kernel_ns);
	}
	yajl_gen_map_close(g);
}

void tlc_rep__tree_json(yajl_gen g, const tlc_tree *t)
{
	const tlc_tree_options *o = tlc_tree__options(t);
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", "tlcost.tree/2");
	tlc_jsonw__kstr(g, "report", "tree");
	tlc_jsonw__kstr(g, "phase", tlc_phase_name(o->phase));
	tlc_jsonw__kstr(g, "convention", "fma=2");
	tlc_jsonw__kstr(g, "basis", "actual-path analytic");
	tlc_jsonw__knum(g, "total_flops", tlc_tree_total_flops(t));
	tlc_jsonw__knum(g, "hidden_flops", tlc_tree_hidden_flops(t));
	tlc_jsonw__kuint(g, "hidden_calls", tlc_tree_hidden_calls(t));
	tlc_jsonw__kbool(g, "lower_bound", tlc_eval_is_lower_bound(tlc_tree__eval(t)));
	tlc_jsonw__kuint(g, "top", o->top);
	tlc_jsonw__kuint(g, "depth", o->depth);
	tlc_jsonw__kbool(g, "fold", !o->no_fold);
	tlc_tree_device dv = TLC_TREE_DEVICE_INIT;
	if (tlc_tree_device_get(t, &dv) == 0 && dv.present) {
		tlc_jsonw__key(g, "device_time");
		yajl_gen_map_open(g);
		tlc_jsonw__kint(g, "rows_kernel_ns", dv.rows_ns);
		tlc_jsonw__kint(g, "hidden_kernel_ns", dv.hidden_ns);
		tlc_jsonw__kint(g, "not_op_kernel_ns", dv.not_op_ns);
		yajl_gen_map_close(g);
	}
	tlc_jsonw__key(g, "rows");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < tlc_tree_row_count(t); i++)
		json_row(g, tlc_tree_row_at(t, i));
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
}

static int write_json(FILE *out, const tlc_tree *t)
{
	yajl_gen g = tlc_jsonw__new(out);
	if (!g)
		return tlc_error__oom();
	tlc_rep__tree_json(g, t);
	return tlc_jsonw__end(g, out);
}

static void write_csv(FILE *out, const tlc_tree *t)
{
	tlc_tree_device dv = TLC_TREE_DEVICE_INIT;
	tlc_tree_device_get(t, &dv);
	fputs("kind,depth,path,last_path,label,module_type,call,repeat,hidden_calls,self_flops,"
	      "subtree_flops,self_pct,subtree_pct,self_ops,self_unknown,subtree_unknown", out);
	fputs(dv.present ? ",self_kernel_ns,subtree_kernel_ns\n" : "\n", out);
	for (size_t i = 0; i < tlc_tree_row_count(t); i++) {
		const tlc_tree_row *r = tlc_tree_row_at(t, i);
		fprintf(out, "%s,%zu,", kind_name(r->kind), r->depth);
		tlc_textw__csv(out, r->path, 0);
		fputc(',', out);
		tlc_textw__csv(out, r->last_path, 0);
		fputc(',', out);
		tlc_textw__csv(out, r->label, 0);
		fputc(',', out);
		tlc_textw__csv(out, r->module_type, 0);
		fprintf(out, ",%lld,%llu,%llu,%s,%s,%.4f,%.4f,%llu,%llu,%llu", (long long)r->call,
		        (unsigned long long)r->repeat, (unsigned long long)r->hidden_calls,
		        r->self_flops, r->subtree_flops, r->self_pct, r->subtree_pct,
		        (unsigned long long)r->self_ops, (unsigned long long)r->self_unknown,
		        (unsigned long long)r->subtree_unknown);
		if (dv.present)
			fprintf(out, ",%lld,%lld", (long long)r->self_kernel_ns,
			        (long long)r->subtree_kernel_ns);
		fputc('\n', out);
	}
}

int tlc_write_tree(FILE *out, const tlc_tree *tree, tlc_format fmt)
{
	if (!out || !tree)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream and a tree",
		                      "tlc_write_tree called with NULL");
	if (fmt == TLC_FORMAT_JSON)
		return write_json(out, tree);
	FILE *t = tlc_textw__open(out);
	if (!t)
		return TLC_ENOMEM;
	if (fmt == TLC_FORMAT_CSV)
		write_csv(t, tree);
	else
		write_text(t, tree);
	return tlc_textw__close(t, out, 0);
}
