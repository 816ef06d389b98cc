// SPDX-License-Identifier: GPL-2.0
#include "anomaly.h"

#include <math.h>
#include <stdio.h>

int anomaly_spread(const struct stats *st, char *why, size_t len)
{
	double m = fabs(st->median);

	if (!(m > 0) || st->n < 2)
		return 0;
	if (st->ci_hi - st->median > 0.25 * m ||
	    st->median - st->ci_lo > 0.25 * m) {
		snprintf(why, len, "%.3g%% interval of the median %.4g..%.4g "
			 "(n %zu) reaches beyond +-25%% of the median %.4g",
			 100 * st->ci_level, st->ci_lo, st->ci_hi, st->n,
			 st->median);
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
