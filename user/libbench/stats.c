// SPDX-License-Identifier: GPL-2.0
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Two-sided 95% Student's t quantile for the given degrees of freedom. */
static double stats_t95(size_t dof)
{
	/* Table for small samples; beyond it the normal quantile is close. */
	static const double t[] = {
		0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
		2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110,
		2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
		2.052, 2.048, 2.045, 2.042,
	};

	if (dof == 0)
		return NAN;
	if (dof < sizeof(t) / sizeof(t[0]))
		return t[dof];
	if (dof < 60)
		return 2.000;
	if (dof < 120)
		return 1.980;
	return 1.960;
}

int stats_compute(const double *samples, size_t n, struct stats *out)
{
	double *sorted, sum = 0, ss = 0, half;
	size_t i;

	if (n == 0)
		goto invalid;
	for (i = 0; i < n; i++)
		if (!isfinite(samples[i]))
			goto invalid;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -1;
	memcpy(sorted, samples, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);

	for (i = 0; i < n; i++)
		sum += sorted[i];
	out->n = n;
	out->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (sorted[i] - out->mean) * (sorted[i] - out->mean);
	out->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	out->median = n % 2 ? sorted[n / 2] :
			      (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	half = n > 1 ? stats_t95(n - 1) * out->stddev / sqrt((double)n) : 0;
	out->ci95_lo = out->mean - half;
	out->ci95_hi = out->mean + half;
	free(sorted);
	return 0;
invalid:
	errno = EINVAL;
	return -1;
}

void stats_scale(struct stats *st, double k)
{
	st->mean *= k;
	st->median *= k;
	st->stddev *= k;
	st->min *= k;
	st->max *= k;
	st->ci95_lo *= k;
	st->ci95_hi *= k;
}
