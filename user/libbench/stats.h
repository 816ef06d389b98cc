/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summary statistics of a set of samples: every benchmark produces samples
 * and hands them here, so that all of them report the same figures.
 *
 * The headline figure is the median, and the interval beside it is the
 * median's own: a distribution-free interval between two order statistics
 * (the binomial method, no assumption on the samples' distribution).  For
 * n samples sorted x(1) <= ... <= x(n) it is x(r)..x(n+1-r) with r the
 * largest rank for which P(B < r) <= 2.5%, B ~ Binomial(n, 1/2); its
 * confidence is 1 - 2 P(B < r) (>= 95%).  With n <= 5 no pair of ranks
 * reaches that level: the interval is min..max and ci_level says how sure
 * it is (15/16 for 5, 3/4 for 3).  The interval always lies inside
 * [min, max].
 */
#ifndef SYNCDEV_STATS_H
#define SYNCDEV_STATS_H

#include <stddef.h>

struct stats {
	size_t n;
	double mean;
	double median;
	double stddev;		/* sample standard deviation (n - 1) */
	double min;
	double max;
	double ci_lo;		/* interval of the median: order statistics */
	double ci_hi;		/* x(r) and x(n+1-r); equal to it when n < 2 */
	double ci_level;	/* its confidence, 0..1 (0 when n < 2) */
};

/*
 * Compute the summary of n samples (the array is not modified).
 * Returns 0, or -1 with errno = EINVAL when n == 0 or a sample is not finite.
 */
int stats_compute(const double *samples, size_t n, struct stats *out);

/*
 * The ranks (1-based) of the median's interval for n >= 1 samples:
 * x(*lo)..x(*hi), with *hi = n + 1 - *lo, and its confidence in *level.
 */
void stats_median_ranks(size_t n, size_t *lo, size_t *hi, double *level);

/*
 * Multiply every figure by k > 0 (a change of unit: ns to us, or ns per op
 * to ns per half round trip).  stddev and the interval scale with it.
 */
void stats_scale(struct stats *st, double k);

#endif
