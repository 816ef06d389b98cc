/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit-test harness.  Each CHECK prints one "PASS name" or
 * "FAIL name: why" line; tests/run counts those lines.  A test program
 * exits non-zero when any check failed.
 *
 *	int main(void)
 *	{
 *		CHECK(parse_size("4K", &v) == 0 && v == 4096, "parse 4K");
 *		return check_done();
 *	}
 */
#ifndef SYNCDEV_CHECK_H
#define SYNCDEV_CHECK_H

#include <stdio.h>

static int check_failures;

#define CHECK(cond, ...)						\
	do {								\
		int check_ok_ = !!(cond);				\
									\
		printf(check_ok_ ? "PASS " : "FAIL ");			\
		printf(__VA_ARGS__);					\
		if (!check_ok_) {					\
			printf(": %s (%s:%d)", #cond, __FILE__, __LINE__); \
			check_failures++;				\
		}							\
		putchar('\n');						\
	} while (0)

static inline int check_done(void)
{
	fflush(stdout);
	return check_failures ? 1 : 0;
}

#endif
