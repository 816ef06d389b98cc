/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Find cache levels in a memory-latency curve (latency against working-set
 * size).  A cache level shows as a plateau: the latency stays flat while the
 * working set fits and rises once it does not.  Pure function of its input,
 * so it is tested on synthetic curves.
 *
 * The curve is first smoothed with a running median of three points, which
 * removes single-point spikes (an interrupt, a migration) without moving
 * a step.  A plateau extends while the latency stays within `rise` (e.g.
 * 0.3 = 30%) of the plateau's mean; a plateau of at least two points that
 * ends in a rise is a level, whose size is the plateau's largest working
 * set.  Points that keep rising by more than rise/2 each belong to the
 * transition, not to the next plateau.  The last plateau (main memory)
 * is not a level.
 */
#ifndef SYNCDEV_CACHEDETECT_H
#define SYNCDEV_CACHEDETECT_H

#include <stddef.h>

struct cache_level {
	double size;		/* largest working set on the plateau, bytes */
	double latency;		/* mean latency of the plateau */
};

/*
 * size[] ascending, lat[] the latency at each size, n points.  Writes at
 * most max levels to out and returns how many it found; *beyond (if not
 * NULL) gets the latency of the last plateau, the one no level contains.
 * Returns -1 when n == 0 or a value is not positive and finite.
 */
int cache_detect(const double *size, const double *lat, size_t n,
		 double rise, struct cache_level *out, size_t max,
		 double *beyond);

#endif
