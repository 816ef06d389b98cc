// SPDX-License-Identifier: GPL-2.0
#include "anomaly.h"

#include <math.h>
#include <stdio.h>

int anomaly_spread(const struct stats *st, char *why, size_t len)
{
	double m = fabs(st->median);

	if (!(m > 0) || st->n < 2)
		return 0;
	if (st->ci95_hi - st->mean > 0.25 * m) {
		snprintf(why, len, "95%% interval of the mean %.3g..%.3g is "
			 "wider than +-25%% of the median %.3g", st->ci95_lo,
			 st->ci95_hi, st->median);
		return 1;
	}
	if (st->max - st->min > m) {
		snprintf(why, len, "samples range %.3g..%.3g, wider than the "
			 "median %.3g", st->min, st->max, st->median);
		return 1;
	}
	return 0;
}

int anomaly_monotonic(const double *y, size_t n, int increasing, double tol,
		      int *j)
{
	size_t i, k;

	for (i = 1; i < n; i++) {
		if (isnan(y[i]))
			continue;
		for (k = 0; k < i; k++) {
			if (isnan(y[k]))
				continue;
			if (increasing ? y[i] < y[k] * (1 - tol) :
					 y[i] > y[k] * (1 + tol)) {
				*j = (int)k;
				return (int)i;
			}
		}
	}
	return -1;
}
