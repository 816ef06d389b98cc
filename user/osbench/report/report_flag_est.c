// SPDX-License-Identifier: GPL-2.0
/*
 * Estimates a reader must not trust: a measured figure more than 10x
 * away from its estimate (either way) is flagged with the likely cause,
 * read from the kind of basis the estimate rests on.
 */
#include "report_parts.h"

#include <math.h>
#include <string.h>

#define OFF_BY 10.0

/* The likely cause of an estimate far off, by its basis. */
static const char *cause(const char *basis)
{
	if (!strncmp(basis, "cycle model", 11))
		return "the cycle count assumed does not hold on this core, "
		       "or the measured path does work the model leaves out";
	if (!strncmp(basis, "hardware", 8))
		return "the hardware assumed is not the hardware here (a "
		       "virtual device, a cache in front of it)";
	if (!strncmp(basis, "typical", 7))
		return "this machine is not the typical one (virtual "
		       "hardware, a cache in front of the device)";
	return "a figure it builds on is off, or the path costs something "
	       "the model leaves out";
}

int rep_flag_estimates(struct doc *d, const struct rep *r)
{
	struct rep_est e;
	double ratio;
	int f, n = 0;

	for (f = 0; f < FIG_COUNT; f++) {
		if (!rep_have(r, f))
			continue;
		rep_estimate(r, f, &e);
		if (!(e.v > 0))
			continue;
		ratio = rep_val(r, f) / e.v;
		if (ratio <= OFF_BY && ratio >= 1 / OFF_BY)
			continue;
		ratio = ratio > 1 ? ratio : 1 / ratio;
		doc_item(d, "Estimate off by %.*fx: %s: estimated %.4g, "
			 "measured %.4g %s (%s); likely cause: %s",
			 ratio < 100 ? 1 : 0, ratio, rep_figure_name(f),
			 e.v, rep_val(r, f), r->s.unit[f] ? r->s.unit[f] : "",
			 e.basis, cause(e.basis));
		n++;
	}
	return n;
}
