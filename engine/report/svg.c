/* The roofline chart as a standalone SVG: log-log axes with labelled
 * decade ticks, memory and compute ceilings, ridges, one point per covered
 * op (on its ceiling, sized by FLOPs, coloured by op family), a legend and
 * a title saying these are hypotheses from ideal traffic. */
#include <math.h>
#include <string.h>
#include "reports.h"
#include "textw.h"

#define W 1100
#define H 600
#define PL 96.0   /* plot left */
#define PR 720.0  /* plot right */
#define PT 78.0   /* plot top */
#define PB 520.0  /* plot bottom */

typedef struct frame {
	double x0, x1, y0, y1; /* log10 ranges */
} frame;

static const struct { const char *family, *color; } palette[] = {
	{ "matmul", "#1f77b4" }, { "conv", "#ff7f0e" }, { "attention", "#9467bd" },
	{ "norm", "#2ca02c" }, { "pool", "#8c564b" }, { "reduction", "#e377c2" },
	{ "index", "#17becf" }, { "pointwise/other", "#7f7f7f" },
};
#define NPAL (sizeof palette / sizeof palette[0])

static size_t family_index(const char *f)
{
	for (size_t i = 0; i < NPAL; i++)
		if (strcmp(palette[i].family, f) == 0)
			return i;
	return NPAL - 1;
}

static double px(const frame *f, double x) { return PL + (log10(x) - f->x0) / (f->x1 - f->x0) * (PR - PL); }
static double py(const frame *f, double y) { return PB - (log10(y) - f->y0) / (f->y1 - f->y0) * (PB - PT); }

static void xml_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, out);
		}
	}
}

static double point_y(const tlc_roofline *rl, const tlc_roofline_row *r)
{
	const tlc_device_preset *d = tlc_roofline_get_summary(rl)->device;
	return r->verdict ? r->bound_flops_per_s : d->mem_bw * r->intensity;
}

/* Decade ranges covering every point, the ridges and the peaks. */
static void make_frame(const tlc_roofline *rl, const int *used, frame *f)
{
	const tlc_device_preset *d = tlc_roofline_get_summary(rl)->device;
	double xmin = INFINITY, xmax = 0, ymax = 0, ymin = INFINITY;
	for (int k = 0; k < TLC_PEAK_COUNT; k++) {
		if (!used[k] || !(d->peak_flops[k] > 0))
			continue;
		double ridge = d->peak_flops[k] / d->mem_bw;
		xmin = fmin(xmin, ridge / 10);
		xmax = fmax(xmax, ridge * 10);
		ymax = fmax(ymax, d->peak_flops[k]);
	}
	for (size_t i = 0; i < tlc_roofline_row_count(rl); i++) {
		const tlc_roofline_row *r = tlc_roofline_row_at(rl, i);
		if (r->reason != TLC_ROOF_COVERED || !(r->intensity > 0))
			continue;
		xmin = fmin(xmin, r->intensity);
		xmax = fmax(xmax, r->intensity);
		ymax = fmax(ymax, point_y(rl, r));
		int64_t ns = tlc_roofline__measured_ns(rl, i);
		if (ns > 0)
			ymin = fmin(ymin, tlc_cost_flops_double(r->op->cost) / ((double)ns * 1e-9));
	}
	if (!(xmax > 0)) {
		xmin = 0.1;
		xmax = 1000;
		ymax = d->mem_bw * 1000;
	}
	ymin = fmin(fmin(d->mem_bw * xmin, ymax / 1000), ymin);
	f->x0 = floor(log10(xmin));
	f->x1 = fmax(ceil(log10(xmax)), f->x0 + 1);
	f->y0 = floor(log10(ymin));
	f->y1 = fmax(ceil(log10(ymax * 1.5)), f->y0 + 1);
}

static void x_label(char *buf, size_t cap, double e)
{
	double v = pow(10, e);
	if (e < 0)
		snprintf(buf, cap, "%g", v);
	else
		tlc_rep__si(buf, cap, v);
}

static void axes(FILE *out, const frame *f)
{
	fprintf(out, "<g id=\"axes\" font-size=\"12\" fill=\"#222\">\n");
	fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
	        "stroke=\"#444\"/>\n", PL, PT, PR - PL, PB - PT);
	int xstep = f->x1 - f->x0 > 10 ? 2 : 1, ystep = f->y1 - f->y0 > 10 ? 2 : 1;
	char buf[32];
	for (double e = f->x0; e <= f->x1 + 1e-9; e += xstep) {
		double x = PL + (e - f->x0) / (f->x1 - f->x0) * (PR - PL);
		x_label(buf, sizeof buf, e);
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
		        "stroke=\"#ddd\"/><text class=\"tick-x\" x=\"%.1f\" y=\"%.0f\" "
		        "text-anchor=\"middle\">%s</text>\n", x, PT, x, PB, x, PB + 18, buf);
	}
	for (double e = f->y0; e <= f->y1 + 1e-9; e += ystep) {
		double y = PB - (e - f->y0) / (f->y1 - f->y0) * (PB - PT);
		tlc_rep__si(buf, sizeof buf, pow(10, e));
		fprintf(out, "<line class=\"grid\" x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
		        "stroke=\"#ddd\"/><text class=\"tick-y\" x=\"%.0f\" y=\"%.1f\" "
		        "text-anchor=\"end\">%s</text>\n", PL, y, PR, y, PL - 6, y + 4, buf);
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\" font-size=\"13\">"
	        "arithmetic intensity (FLOP per byte of ideal traffic, log scale)</text>\n",
	        (PL + PR) / 2, PB + 42);
	fprintf(out, "<text transform=\"translate(%.0f,%.0f) rotate(-90)\" text-anchor=\"middle\" "
	        "font-size=\"13\">attainable FLOP/s ceiling (log scale)</text>\n</g>\n", 22.0,
	        (PT + PB) / 2);
}

/* Dtypes sharing one peak value share one line and label ("fp16/bf16"). */
static int same_peak_before(const tlc_device_preset *d, const int *used, int k)
{
	for (int j = 0; j < k; j++)
		if (used[j] && d->peak_flops[j] == d->peak_flops[k])
			return 1;
	return 0;
}

static void compute_ceiling(FILE *out, const tlc_device_preset *d, const frame *f,
                            const int *used, int k, double *last_label_y, int nth)
{
	double pk = d->peak_flops[k], ridge = pk / d->mem_bw;
	char names[64] = "", ids[64] = "", a[32];
	for (int j = k; j < TLC_PEAK_COUNT; j++) {
		if (!used[j] || d->peak_flops[j] != pk)
			continue;
		const char *n = tlc_peak_dtype_name((tlc_peak_dtype)j);
		snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", *names ? "/" : "", n);
		snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%s%s", *ids ? "-" : "", n);
	}
	double y = py(f, pk), ly = y + 4;
	if (ly < *last_label_y + 15)
		ly = *last_label_y + 15;
	*last_label_y = ly;
	fprintf(out, "<line id=\"ceiling-compute-%s\" class=\"ceiling-compute\" x1=\"%.1f\" "
	        "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#2c3e50\" stroke-width=\"2\"/>\n",
	        ids, px(f, ridge), y, PR, y);
	fprintf(out, "<text class=\"ceiling-label\" x=\"%.0f\" y=\"%.1f\">%s %sFLOP/s</text>\n",
	        PR + 6, ly, names, tlc_rep__si(a, sizeof a, pk));
	int right = px(f, ridge) > PL + 0.75 * (PR - PL); /* label left of the line */
	fprintf(out, "<line class=\"ridge\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.0f\" "
	        "stroke=\"#888\" stroke-dasharray=\"5,4\"/>\n<text class=\"ridge-label\" "
	        "x=\"%.1f\" y=\"%.0f\" font-size=\"11\" fill=\"#555\" text-anchor=\"%s\">"
	        "ridge %s: %.3g FLOP/B</text>\n", px(f, ridge), y, px(f, ridge), PB,
	        px(f, ridge) + (right ? -4 : 4), PB - 8 - 14.0 * nth, right ? "end" : "start", names,
	        ridge);
}

static void ceilings(FILE *out, const tlc_roofline *rl, const frame *f, const int *used)
{
	const tlc_device_preset *d = tlc_roofline_get_summary(rl)->device;
	double xl = pow(10, f->x0), xr = pow(10, f->x1), pmax = 0;
	for (int k = 0; k < TLC_PEAK_COUNT; k++)
		if (used[k] && d->peak_flops[k] > pmax)
			pmax = d->peak_flops[k];
	double xend = pmax > 0 ? fmin(pmax / d->mem_bw, xr) : xr;
	fprintf(out, "<g id=\"ceilings\" font-size=\"12\">\n<line id=\"ceiling-memory\" "
	        "class=\"ceiling-memory\" clip-path=\"url(#plot)\" x1=\"%.1f\" y1=\"%.1f\" "
	        "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c0392b\" stroke-width=\"2\"/>\n", px(f, xl),
	        py(f, d->mem_bw * xl), px(f, xend), py(f, d->mem_bw * xend));
	double last = -100;
	int nth = 0;
	for (int k = TLC_PEAK_COUNT - 1; k >= 0; k--) /* highest peaks first: labels top down */
		if (used[k] && d->peak_flops[k] > 0 && !same_peak_before(d, used, k))
			compute_ceiling(out, d, f, used, k, &last, nth++);
	fputs("</g>\n", out);
}

static void points(FILE *out, const tlc_roofline *rl, const frame *f, int *fam_used)
{
	double fmax_ = 0;
	size_t n = tlc_roofline_row_count(rl);
	for (size_t i = 0; i < n; i++) {
		const tlc_roofline_row *r = tlc_roofline_row_at(rl, i);
		if (r->reason == TLC_ROOF_COVERED)
			fmax_ = fmax(fmax_, tlc_cost_flops_double(r->op->cost));
	}
	fputs("<g id=\"points\" clip-path=\"url(#plot)\" fill-opacity=\"0.55\" "
	      "stroke-width=\"1\">\n", out);
	/* two passes: large points first so small ones stay visible on top */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			const tlc_roofline_row *r = tlc_roofline_row_at(rl, i);
			if (r->reason != TLC_ROOF_COVERED)
				continue;
			double fl = tlc_cost_flops_double(r->op->cost);
			double rad = 2.5 + 11.0 * (fmax_ > 0 ? sqrt(fl / fmax_) : 0);
			if ((pass == 0) != (rad >= 6.0))
				continue;
			size_t fi = family_index(r->family);
			fam_used[fi] = 1;
			double x = r->intensity > 0 ? px(f, r->intensity) : PL;
			double y = r->intensity > 0 ? py(f, point_y(rl, r)) : PB;
			fprintf(out, "<circle class=\"op\" data-id=\"%lld\" cx=\"%.1f\" cy=\"%.1f\" "
			        "r=\"%.1f\" fill=\"%s\" stroke=\"%s\"%s><title>", (long long)r->op->id, x, y,
			        rad, r->cache_resident ? "none" : palette[fi].color, palette[fi].color,
			        r->cache_resident ? " fill-opacity=\"0\"" : "");
			xml_text(out, r->op->name);
			fprintf(out, " #%lld: %s FLOPs, intensity %.3g FLOP/B, %s</title></circle>\n",
			        (long long)r->op->id, r->flops, r->intensity,
			        tlc_roof_verdict_name(r->verdict));
		}
	fputs("</g>\n", out);
}

/* Measured points (a passed join gate): each op's achieved FLOP/s over its
 * costed kernel time, a dark diamond joined to its roof point by a dotted
 * line (the gap is the headroom). */
static void measured(FILE *out, const tlc_roofline *rl, const frame *f)
{
	if (!tlc_roofline__any_measured(rl))
		return;
	fputs("<g id=\"measured\" clip-path=\"url(#plot)\">\n", out);
	for (size_t i = 0; i < tlc_roofline_row_count(rl); i++) {
		const tlc_roofline_row *r = tlc_roofline_row_at(rl, i);
		int64_t ns = tlc_roofline__measured_ns(rl, i);
		if (ns <= 0 || !(r->intensity > 0))
			continue;
		double ach = tlc_cost_flops_double(r->op->cost) / ((double)ns * 1e-9);
		if (!(ach > 0))
			continue;
		double x = px(f, r->intensity), y0 = py(f, point_y(rl, r)), y = py(f, ach);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
		        "stroke-opacity=\"0.35\" stroke-dasharray=\"2,2\"/>\n", x, y0, x, y);
		fprintf(out, "<path class=\"measured\" d=\"M%.1f %.1fl4 4l-4 4l-4 -4z\" fill=\"#111\" "
		        "fill-opacity=\"0.8\"><title>", x, y - 4);
		xml_text(out, r->op->name);
		fprintf(out, " #%lld: attributed kernel utilization %.3g FLOP/s (%s FLOPs in %lld ns "
		        "of costed kernel time)</title></path>\n", (long long)r->op->id, ach, r->flops,
		        (long long)ns);
	}
	fputs("</g>\n", out);
}

static void legend(FILE *out, const int *fam_used, const tlc_device_preset *d, int meas)
{
	double x = PR + 170, y = PT + 4;
	char bw[32];
	fprintf(out, "<g id=\"legend\" font-size=\"12\">\n<text x=\"%.0f\" y=\"%.0f\" "
	        "font-weight=\"bold\">op family</text>\n", x, y);
	for (size_t i = 0; i < NPAL; i++) {
		if (!fam_used[i])
			continue;
		y += 20;
		fprintf(out, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"6\" fill=\"%s\" fill-opacity=\"0.55\" "
		        "stroke=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">%s</text>\n", x + 6, y - 4,
		        palette[i].color, palette[i].color, x + 18, y, palette[i].family);
	}
	y += 30;
	fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#c0392b\" "
	        "stroke-width=\"2\"/><text x=\"%.0f\" y=\"%.0f\">memory %sB/s</text>\n", x, y - 4,
	        x + 14, y - 4, x + 18, y, tlc_rep__si(bw, sizeof bw, d->mem_bw));
	y += 20;
	fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#2c3e50\" "
	        "stroke-width=\"2\"/><text x=\"%.0f\" y=\"%.0f\">compute ceiling</text>\n", x,
	        y - 4, x + 14, y - 4, x + 18, y);
	y += 20;
	fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#888\" "
	        "stroke-dasharray=\"5,4\"/><text x=\"%.0f\" y=\"%.0f\">ridge</text>\n", x, y - 4,
	        x + 14, y - 4, x + 18, y);
	y += 20;
	fprintf(out, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"6\" fill=\"none\" stroke=\"#555\"/>"
	        "<text x=\"%.0f\" y=\"%.0f\">cache-resident</text>\n", x + 6, y - 4, x + 18, y);
	y += 26;
	if (meas) {
		fprintf(out, "<path d=\"M%.0f %.0fl4 4l-4 4l-4 -4z\" fill=\"#111\"/><text x=\"%.0f\" "
		        "y=\"%.0f\">achieved</text>\n", x + 6, y - 12, x + 18, y);
		y += 22;
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">point area ~ FLOPs</text>\n"
		        "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">circles: roof (ideal)</text>\n"
		        "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">diamonds: FLOPs over</text>\n"
		        "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">attributed kernel</text>\n"
		        "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">time (gate passed)</text>\n</g>\n",
		        x, y, x, y + 16, x, y + 32, x, y + 48, x, y + 64);
		return;
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">point area ~ FLOPs</text>\n"
	        "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">points sit on their</text>\n"
	        "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">ceiling: no time</text>\n"
	        "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">was measured</text>\n</g>\n",
	        x, y, x, y + 16, x, y + 32, x, y + 48);
}

static void header(FILE *out, const tlc_roofline *rl)
{
	const tlc_roofline_summary *s = tlc_roofline_get_summary(rl);
	const tlc_input_info *info = tlc_eval_info(tlc_roofline__eval(rl));
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/"
	        "2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu "
	        "Sans, Arial, sans-serif\">\n<title>Roofline hypotheses from ideal traffic</title>\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<defs><clipPath "
	        "id=\"plot\"><rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\"/>"
	        "</clipPath></defs>\n", W, H, W, H, PL, PT, PR - PL, PB - PT);
	fprintf(out, "<text id=\"title\" x=\"%.0f\" y=\"28\" font-size=\"17\" font-weight=\"bold\">"
	        "Roofline HYPOTHESES from ideal traffic (not measured performance)</text>\n", PL);
	fprintf(out, "<text x=\"%.0f\" y=\"50\" font-size=\"12\" fill=\"#444\">", PL);
	if (info && info->model) {
		xml_text(out, info->model);
		fputs(" on ", out);
	}
	xml_text(out, s->device->name);
	fprintf(out, " (%s ceilings); traffic = every input read once, every output written "
	        "once</text>\n", tlc_basis_name(s->device->basis));
}

int tlc_write_roofline_svg(FILE *out, const tlc_roofline *rl)
{
	if (!out || !rl)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass a stream and a roofline",
		                      "tlc_write_roofline_svg called with NULL");
	int used[TLC_PEAK_COUNT] = { 0 }, fam_used[NPAL] = { 0 }, any = 0;
	for (size_t i = 0; i < tlc_roofline_row_count(rl); i++) {
		const tlc_roofline_row *r = tlc_roofline_row_at(rl, i);
		if (r->reason == TLC_ROOF_COVERED)
			any = used[r->peak_dtype] = 1;
	}
	if (!any) /* no op: still draw the device's fp32 (or first) ceiling */
		for (int k = TLC_PEAK_FP32; k < TLC_PEAK_COUNT && !any; k++)
			any = used[k] = tlc_roofline_get_summary(rl)->device->peak_flops[k] > 0;
	frame f;
	make_frame(rl, used, &f);
	header(out, rl);
	axes(out, &f);
	ceilings(out, rl, &f, used);
	points(out, rl, &f, fam_used);
	measured(out, rl, &f);
	legend(out, fam_used, tlc_roofline_get_summary(rl)->device, tlc_roofline__any_measured(rl));
	fputs("</svg>\n", out);
	return tlc_textw__finish(out, 0);
}
