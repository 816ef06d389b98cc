// SPDX-License-Identifier: GPL-2.0
#include "retry.h"
#include "util.h"

#include <errno.h>
#include <time.h>

int retry_refused(int (*try)(void *arg), void *arg, uint32_t wait_ms)
{
	const struct timespec pause = { 0, 100 * 1000000L };
	uint64_t deadline = now_ns() + (uint64_t)wait_ms * 1000000;
	int ret;

	while ((ret = try(arg)) && errno == ECONNREFUSED &&
	       now_ns() < deadline)
		nanosleep(&pause, NULL);
	return ret;
}
