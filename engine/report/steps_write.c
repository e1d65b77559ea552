/* The steps report's writer: text, JSON (tlcost.steps/1), CSV
 * (docs/reports.md, "tlcost steps"). */
#include <stdio.h>
#include "tlcost/tlcost.h"
#include "error.h"
#include "jsonw.h"
#include "steps_impl.h"

static double ms(int64_t ns) { return (double)ns / 1e6; }

static void step_label(char *buf, size_t cap, const tlc_steps_row *r)
{
	if (r->step >= 0)
		snprintf(buf, cap, "ProfilerStep#%lld", (long long)r->step);
	else
		snprintf(buf, cap, "device span");
}

static void write_text(FILE *out, const tlc_steps *s)
{
	if (s->marked)
		fprintf(out, "tlcost steps: %zu profiler steps (ProfilerStep#N) x %zu device%s;\n"
		             "each step's wall time splits into buckets that add up to it exactly "
		             "(integer ns)\n", s->nsteps, s->ndevices, s->ndevices == 1 ? "" : "s");
	else
		fprintf(out, "tlcost steps: the input has no ProfilerStep#N markers: each device's span\n"
		             "(first work start to last work end) is one step, split into buckets that\n"
		             "add up to it exactly (integer ns)\n");
	for (size_t i = 0; i < s->nrows; i++) {
		const tlc_steps_row *r = &s->rows[i];
		char lab[48];
		step_label(lab, sizeof lab, r);
		fprintf(out, "\n%s, device %lld: wall %.3f ms (%lld ns), residual %lld ns\n", lab,
		        (long long)r->device, ms(r->wall_ns), (long long)r->wall_ns,
		        (long long)r->residual_ns);
		for (int k = 0; k < TLC_STEPS_BUCKET_COUNT; k++)
			fprintf(out, "  %-24s %12.3f ms %6.1f%% %16lld ns\n",
			        tlc_steps_bucket_name((tlc_steps_bucket)k), ms(r->buckets[k]),
			        r->wall_ns > 0 ? 100.0 * (double)r->buckets[k] / (double)r->wall_ns : 0.0,
			        (long long)r->buckets[k]);
	}
	fprintf(out, "\ncompute families: kernel time (union) by the costed op's family where the\n"
	             "kernel is attributed, by kernel name otherwise; exposed: not overlapped by\n"
	             "compute (communication) or by any kernel (memcpy/memset); idle_queued: no\n"
	             "work runs but a launch is pending; idle_host_bound: nothing queued\n"
	             "(docs/reports.md, \"tlcost steps\")\n");
}

void tlc_steps__json_rows(yajl_gen g, const tlc_steps *s)
{
	yajl_gen_array_open(g);
	for (size_t i = 0; i < s->nrows; i++) {
		const tlc_steps_row *r = &s->rows[i];
		yajl_gen_map_open(g);
		if (r->step >= 0)
			tlc_jsonw__kint(g, "step", r->step);
		else
			tlc_jsonw__knull(g, "step");
		tlc_jsonw__kint(g, "device", r->device);
		tlc_jsonw__kint(g, "start_ns", r->start_ns);
		tlc_jsonw__kint(g, "end_ns", r->end_ns);
		tlc_jsonw__kint(g, "wall_ns", r->wall_ns);
		tlc_jsonw__kint(g, "residual_ns", r->residual_ns);
		tlc_jsonw__key(g, "buckets");
		yajl_gen_map_open(g);
		for (int k = 0; k < TLC_STEPS_BUCKET_COUNT; k++)
			tlc_jsonw__kint(g, tlc_steps_bucket_name((tlc_steps_bucket)k), r->buckets[k]);
		yajl_gen_map_close(g);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

void tlc_steps__text_summary(FILE *out, const tlc_steps *s)
{
	int64_t wall = 0, res = 0, b[TLC_STEPS_BUCKET_COUNT] = { 0 };
	for (size_t i = 0; i < s->nrows; i++) {
		wall += s->rows[i].wall_ns;
		res += s->rows[i].residual_ns;
		for (int k = 0; k < TLC_STEPS_BUCKET_COUNT; k++)
			b[k] += s->rows[i].buckets[k];
	}
	if (s->marked)
		fprintf(out, "\nwhere the steps went (%zu ProfilerStep#N x %zu device%s, summed; "
		             "`tlcost steps`):\n", s->nsteps, s->ndevices, s->ndevices == 1 ? "" : "s");
	else
		fprintf(out, "\nwhere the time went (no ProfilerStep#N markers: each device's span "
		             "is one\nstep; %zu device%s, summed; `tlcost steps`):\n", s->ndevices,
		        s->ndevices == 1 ? "" : "s");
	for (int k = 0; k < TLC_STEPS_BUCKET_COUNT; k++)
		if (b[k])
			fprintf(out, "  %-24s %12.3f ms %6.1f%%\n",
			        tlc_steps_bucket_name((tlc_steps_bucket)k), ms(b[k]),
			        wall > 0 ? 100.0 * (double)b[k] / (double)wall : 0.0);
	fprintf(out, "  %-24s %12.3f ms (residual %lld ns)\n", "wall", ms(wall), (long long)res);
}

static int write_json(FILE *out, const tlc_steps *s)
{
	yajl_gen g = tlc_jsonw__new(out);
	if (!g)
		return tlc_error__oom();
	yajl_gen_map_open(g);
	tlc_jsonw__kstr(g, "schema", "tlcost.steps/1");
	tlc_jsonw__kstr(g, "windows", s->marked ? "profiler_steps" : "device_span");
	tlc_jsonw__kuint(g, "devices", s->ndevices);
	tlc_jsonw__key(g, "steps");
	tlc_steps__json_rows(g, s);
	yajl_gen_map_close(g);
	return tlc_jsonw__end(g, out);
}

static void write_csv(FILE *out, const tlc_steps *s)
{
	fputs("step,device,start_ns,end_ns,wall_ns", out);
	for (int k = 0; k < TLC_STEPS_BUCKET_COUNT; k++)
		fprintf(out, ",%s_ns", tlc_steps_bucket_name((tlc_steps_bucket)k));
	fputs(",residual_ns\n", out);
	for (size_t i = 0; i < s->nrows; i++) {
		const tlc_steps_row *r = &s->rows[i];
		if (r->step >= 0)
			fprintf(out, "%lld", (long long)r->step);
		fprintf(out, ",%lld,%lld,%lld,%lld", (long long)r->device, (long long)r->start_ns,
		        (long long)r->end_ns, (long long)r->wall_ns);
		for (int k = 0; k < TLC_STEPS_BUCKET_COUNT; k++)
			fprintf(out, ",%lld", (long long)r->buckets[k]);
		fprintf(out, ",%lld\n", (long long)r->residual_ns);
	}
}

int tlc_write_steps(FILE *out, const tlc_steps *s, tlc_format fmt)
{
	if (!out || !s)
		return tlc_error__set(TLC_EINVAL, "invalid_argument", "pass an output and the steps",
		                      "tlc_write_steps: NULL argument");
	int rc = 0;
	if (fmt == TLC_FORMAT_JSON)
		rc = write_json(out, s);
	else if (fmt == TLC_FORMAT_CSV)
		write_csv(out, s);
	else
		write_text(out, s);
	if (rc == 0 && ferror(out))
		rc = tlc_error__set(TLC_EIO, "io_error", "check the output",
		                    "writing the steps report failed");
	return rc;
}
