// SPDX-License-Identifier: GPL-2.0
/*
 * What every estimate of the summary table is made of (report_parts.h):
 * the figures it builds on, and its value with the sentence that says
 * why.
 */
#include "report_parts.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

int rep_have(const struct rep *r, enum figure f)
{
	return r->s.set[f] && r->s.value[f] > 0;
}

double rep_val(const struct rep *r, enum figure f)
{
	return r->s.value[f];
}

void rep_say(struct rep_est *e, double v, const char *fmt, ...)
{
	va_list ap;

	e->hw = NAN;
	e->sw = NAN;
	e->v = v;
	va_start(ap, fmt);
	vsnprintf(e->basis, sizeof(e->basis), fmt, ap);
	va_end(ap);
}

void rep_split(struct rep_est *e, double hw, double sw, const char *fmt, ...)
{
	va_list ap;

	e->hw = hw;
	e->sw = sw;
	e->v = (isnan(hw) ? 0 : hw) + (isnan(sw) ? 0 : sw);
	va_start(ap, fmt);
	vsnprintf(e->basis, sizeof(e->basis), fmt, ap);
	va_end(ap);
}

int rep_need(const struct rep *r, struct rep_est *e, enum figure f)
{
	if (rep_have(r, f))
		return 1;
	rep_say(e, NAN, "no basis: builds on %s, not measured",
		rep_figure_name(f));
	return 0;
}
