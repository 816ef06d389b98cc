/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summary statistics of a set of samples: every benchmark produces samples
 * and hands them here, so that all of them report the same figures.
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
	double ci95_lo;		/* 95% confidence interval of the mean */
	double ci95_hi;		/* (Student's t); equal to mean when n < 2 */
};

/*
 * Compute the summary of n samples (the array is not modified).
 * Returns 0, or -1 with errno = EINVAL when n == 0 or a sample is not finite.
 */
int stats_compute(const double *samples, size_t n, struct stats *out);

/*
 * Multiply every figure by k > 0 (a change of unit: ns to us, or ns per op
 * to ns per half round trip).  stddev and the interval scale with it.
 */
void stats_scale(struct stats *st, double k);

#endif
