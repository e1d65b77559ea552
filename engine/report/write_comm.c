/* The communication block of `tlcost flops` as text (its JSON is the flops
 * summary's, report/flops_sum.c). Bus bytes are
 * exact rationals: written "P/Q" in lowest terms when not an integer (text
 * adds a rounded decimal in parentheses), as a JSON string always. */
#include <stdlib.h>
#include <string.h>
#include "write_comm.h"
#include "textw.h"
#include "error.h"
#include "jsonw.h"
#include "join_comm.h"

int tlc_rep__comm_any(const tlc_eval *ev)
{
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		for (int k = 0; k < TLC_COMM_COUNT; k++)
			if (tlc_eval_comm_calls(ev, (tlc_phase)p, (tlc_comm_kind)k))
				return 1;
	return 0;
}

static double q_value(const char *q)
{
	const char *slash = strchr(q, '/');
	double num = strtod(q, NULL);
	return slash ? num / strtod(slash + 1, NULL) : num;
}

void tlc_rep__comm_bytes_text(FILE *out, const char *msg, const char *bus)
{
	tlc_digits d = { 0 };
	fprintf(out, "message %s B, ", tlc_textw__group(&d, msg));
	/* a fraction is printed as it is: grouping applies to integers */
	fprintf(out, "bus %s B", strchr(bus, '/') ? bus : tlc_textw__group(&d, bus));
	if (strchr(bus, '/'))
		fprintf(out, " (~%.2f B)", q_value(bus));
	tlc_textw__digits_free(&d);
}

static void dist_text(FILE *out, const tlc_eval *ev)
{
	const tlc_dist_info *d = tlc_eval_dist(ev);
	if (!d)
		return;
	fprintf(out, "  rank %lld of world size %lld%s%s\n", (long long)d->rank,
	        (long long)d->world_size, d->backend ? ", backend " : "",
	        d->backend ? d->backend : "");
}

int tlc_rep__comm_text(FILE *out, const tlc_eval *ev)
{
	if (!tlc_rep__comm_any(ev))
		return 0;
	fprintf(out, "communication (analytic: nccl-tests message size S and bus bytes "
	             "S x factor, exact):\n");
	for (int p = 0; p < TLC_PHASE_COUNT; p++)
		for (int k = 0; k < TLC_COMM_COUNT; k++) {
			uint64_t calls = tlc_eval_comm_calls(ev, (tlc_phase)p, (tlc_comm_kind)k);
			if (!calls)
				continue;
			char *m, *b;
			if (tlc_eval_comm_bytes(&m, &b, ev, (tlc_phase)p, (tlc_comm_kind)k) < 0)
				return TLC_ENOMEM;
			fprintf(out, "  %-9s %-15s x%-5llu ", tlc_phase_name((tlc_phase)p),
			        tlc_comm_kind_name((tlc_comm_kind)k), (unsigned long long)calls);
			tlc_rep__comm_bytes_text(out, m, b);
			fprintf(out, "\n");
			tlc_free(m);
			tlc_free(b);
		}
	uint64_t basis[3];
	tlc_eval_comm_group_basis(basis, ev);
	fprintf(out, "  group sizes: %llu recorded, %llu derived from buffer sizes, %llu taken "
	             "from the world size (no group recorded)\n",
	        (unsigned long long)basis[0], (unsigned long long)basis[1],
	        (unsigned long long)basis[2]);
	dist_text(out, ev);
	return 0;
}
