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

/* P(B < k) for B ~ Binomial(n, 1/2). */
static double binom_below(size_t n, size_t k)
{
	double sum = 0, ln2n = (double)n * log(2.0);
	size_t i;

	for (i = 0; i < k && i <= n; i++)
		sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) -
			   lgamma((double)(n - i) + 1) - ln2n);
	return sum;
}

void stats_median_ranks(size_t n, size_t *lo, size_t *hi, double *level)
{
	size_t r = 1;

	while (r + 1 <= (n + 1) / 2 && binom_below(n, r + 1) <= 0.025)
		r++;
	*lo = r;
	*hi = n + 1 - r;
	*level = n > 1 ? 1 - 2 * binom_below(n, r) : 0;
}

int stats_compute(const double *samples, size_t n, struct stats *out)
{
	double *sorted, sum = 0, ss = 0;
	size_t i, lo, hi;

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
	stats_median_ranks(n, &lo, &hi, &out->ci_level);
	out->ci_lo = n > 1 ? sorted[lo - 1] : out->median;
	out->ci_hi = n > 1 ? sorted[hi - 1] : out->median;
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
	st->ci_lo *= k;
	st->ci_hi *= k;
}
