/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Find how many units of work (blocks, system calls) take between lo_ns
 * and hi_ns: start at one, double until the time reaches lo_ns, and if
 * the last doubling overshot hi_ns, bisect between the last two counts.
 * run2 uses it with 5..15 s; the sweep to size each point.
 *
 * The clock is a parameter so that tests can drive the search with a
 * simulated clock instead of waiting for seconds.
 */
#ifndef SYNCDEV_CALIBRATE_H
#define SYNCDEV_CALIBRATE_H

#include <stdint.h>

struct calibrate {
	/*
	 * Do count units of work and store in *done how many were done:
	 * fewer than count only when the input ended.  0, or -1 with errno.
	 */
	int (*work)(void *ctx, uint64_t count, uint64_t *done);
	/* Nanoseconds from any fixed origin; NULL means now_ns(). */
	uint64_t (*clock)(void *ctx);
	void *ctx;
	uint64_t lo_ns, hi_ns;	/* the wanted time window */
	uint64_t max_count;	/* never try more than this; 0 = no limit */
};

enum calibrate_status {
	CALIBRATE_FOUND,	/* lo_ns <= elapsed <= hi_ns */
	CALIBRATE_SHORT_INPUT,	/* the input ended before lo_ns */
	CALIBRATE_LIMIT,	/* max_count done in less than lo_ns */
	CALIBRATE_SLOW,		/* no count in the window: the fewest that
				 * reached lo_ns took more than hi_ns */
};

struct calibrate_result {
	enum calibrate_status status;
	uint64_t count;		/* the count of the last try */
	uint64_t done;		/* units it did */
	uint64_t elapsed_ns;	/* and the time they took */
	unsigned int tries;
};

/* Returns 0 with *res filled, or -1 with errno when work() failed. */
int calibrate(const struct calibrate *c, struct calibrate_result *res);

#endif
