// SPDX-License-Identifier: GPL-2.0
#include "calibrate.h"
#include "util.h"

static uint64_t clock_of(const struct calibrate *c)
{
	return c->clock ? c->clock(c->ctx) : now_ns();
}

/* Time one try of count units into *res. */
static int try_count(const struct calibrate *c, uint64_t count,
		     struct calibrate_result *res)
{
	uint64_t t0 = clock_of(c);

	if (c->work(c->ctx, count, &res->done))
		return -1;
	res->elapsed_ns = clock_of(c) - t0;
	res->count = count;
	res->tries++;
	return 0;
}

static int in_window(const struct calibrate *c,
		     const struct calibrate_result *res)
{
	return res->elapsed_ns >= c->lo_ns && res->elapsed_ns <= c->hi_ns;
}

int calibrate(const struct calibrate *c, struct calibrate_result *res)
{
	struct calibrate_result slow;
	uint64_t below = 0, above, count = 1;

	res->tries = 0;
	for (;;) {
		if (try_count(c, count, res))
			return -1;
		if (res->done < count) {
			res->status = CALIBRATE_SHORT_INPUT;
			return 0;
		}
		if (res->elapsed_ns >= c->lo_ns)
			break;
		if (c->max_count && count >= c->max_count) {
			res->status = CALIBRATE_LIMIT;
			return 0;
		}
		below = count;
		count = count > UINT64_MAX / 2 ? UINT64_MAX : 2 * count;
		if (c->max_count && count > c->max_count)
			count = c->max_count;
	}

	/*
	 * Doubling from below lo_ns lands under 2 * lo_ns when time grows
	 * linearly; it overshoots hi_ns only when the rate dropped (the
	 * page cache ran out, say).  Bisect between the last count that
	 * was too fast and the first that was too slow.
	 */
	above = count;
	slow = *res;
	while (!in_window(c, res) && above - below > 1) {
		count = below + (above - below) / 2;
		if (try_count(c, count, res))
			return -1;
		if (res->done < count) {
			res->status = CALIBRATE_SHORT_INPUT;
			return 0;
		}
		if (res->elapsed_ns < c->lo_ns) {
			below = count;
		} else if (res->elapsed_ns > c->hi_ns) {
			above = count;
			slow = *res;
		}
	}
	if (in_window(c, res)) {
		res->status = CALIBRATE_FOUND;
	} else {
		/* Report the fewest units known to reach lo_ns. */
		slow.tries = res->tries;
		*res = slow;
		res->status = CALIBRATE_SLOW;
	}
	return 0;
}
