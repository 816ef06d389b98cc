// SPDX-License-Identifier: GPL-2.0
#include "cachedetect.h"

#include <math.h>
#include <stdlib.h>

static double median3(double a, double b, double c)
{
	if (a > b) {
		double t = a;

		a = b;
		b = t;
	}
	/* Now a <= b: the median is b clipped to [a, c] or c in between. */
	if (c >= b)
		return b;
	return c > a ? c : a;
}

int cache_detect(const double *size, const double *lat, size_t n,
		 double rise, struct cache_level *out, size_t max,
		 double *beyond)
{
	double *s;
	size_t i, j, found = 0;

	if (n == 0)
		return -1;
	for (i = 0; i < n; i++)
		if (!isfinite(lat[i]) || lat[i] <= 0 || !isfinite(size[i]) ||
		    size[i] <= 0)
			return -1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	for (i = 0; i < n; i++)
		s[i] = median3(lat[i ? i - 1 : 0], lat[i],
			       lat[i + 1 < n ? i + 1 : n - 1]);

	i = 0;
	for (;;) {
		double sum = s[i], level = s[i];

		for (j = i; j + 1 < n && s[j + 1] <= level * (1 + rise); j++) {
			sum += s[j + 1];
			level = sum / (double)(j + 2 - i);
		}
		if (j + 1 == n) {
			if (beyond)
				*beyond = level;
			break;
		}
		if (j > i && found < max) {
			out[found].size = size[j];
			out[found].latency = level;
			found++;
		}
		/* Skip the transition up to where the curve flattens. */
		for (i = j + 1; i + 1 < n && s[i + 1] > s[i] * (1 + rise / 2);
		     i++)
			;
	}
	free(s);
	return (int)found;
}
