// SPDX-License-Identifier: GPL-2.0
#include "target.h"

#include <math.h>
#include <stdio.h>

void target_columns(struct report *r)
{
	report_column(r, "target", NULL);
	report_column(r, "verdict", NULL);
}

bool target_cells(struct report *r, double ratio, double want)
{
	char buf[32];

	if (!(want > 0)) {
		report_none(r);
		report_none(r);
		return false;
	}
	/* Plain ASCII, so that every terminal and CSV reader shows it. */
	snprintf(buf, sizeof(buf), ">= %.2g", want);
	report_str(r, buf);
	if (!isfinite(ratio) || ratio <= 0) {
		report_str(r, "-");
		return false;
	}
	report_str(r, ratio >= want ? "met" : "missed");
	return ratio >= want;
}
