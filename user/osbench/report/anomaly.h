/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tests that tell a reader not to take a result at face value: a spread
 * too wide for the median to mean much, and a curve that goes the wrong
 * way where physics or the method says which way it must go.
 */
#ifndef SYNCDEV_ANOMALY_H
#define SYNCDEV_ANOMALY_H

#include "stats.h"

#include <stddef.h>

/*
 * High spread: the interval of the median (stats.h) reaches more than 25%
 * of the median beyond it on either side.
 * Returns 1 and writes why (len bytes), else 0.
 */
int anomaly_spread(const struct stats *st, char *why, size_t len);

/*
 * The first index i > 0 where y[i] goes against the expected direction
 * (increasing: y[i] < y[j] for some j < i; else y[i] > y[j]) by more than
 * the relative tolerance tol, with *j the earlier point it is compared
 * with; -1 when there is none.  NaN points are skipped.
 */
int anomaly_monotonic(const double *y, size_t n, int increasing, double tol,
		      int *j);

#endif
