// SPDX-License-Identifier: GPL-2.0
/* run2's doubling search, driven by a simulated clock. */
#include "calibrate.h"
#include "check.h"

#include <errno.h>
#include <stdint.h>

#define SEC 1000000000ull

/* A simulated device: each unit costs ns_fast, or ns_slow past knee. */
struct sim {
	uint64_t now;
	uint64_t ns_fast, ns_slow, knee;
	uint64_t units;		/* the input's length; 0 = endless */
	uint64_t counts[64];	/* the counts tried, in order */
	unsigned int ntries;
	int fail;
};

static uint64_t sim_clock(void *ctx)
{
	return ((struct sim *)ctx)->now;
}

static int sim_work(void *ctx, uint64_t count, uint64_t *done)
{
	struct sim *s = ctx;
	uint64_t n = s->units && count > s->units ? s->units : count;

	if (s->fail) {
		errno = EIO;
		return -1;
	}
	if (s->ntries < 64)
		s->counts[s->ntries++] = count;
	if (s->knee && n > s->knee)
		s->now += s->knee * s->ns_fast + (n - s->knee) * s->ns_slow;
	else
		s->now += n * s->ns_fast;
	*done = n;
	return 0;
}

static int search(struct sim *s, uint64_t max, struct calibrate_result *r)
{
	struct calibrate c = {
		.work = sim_work, .clock = sim_clock, .ctx = s,
		.lo_ns = 5 * SEC, .hi_ns = 15 * SEC, .max_count = max,
	};

	return calibrate(&c, r);
}

static void test_doubling(void)
{
	/* 1 ms a block: 1, 2, 4, ... 8192 blocks = 8.192 s. */
	struct sim s = { .ns_fast = 1000000 };
	struct calibrate_result r;

	CHECK(search(&s, 0, &r) == 0 && r.status == CALIBRATE_FOUND,
	      "calibrate finds a count");
	CHECK(r.count == 8192 && r.done == 8192 && r.elapsed_ns == 8192000000ull,
	      "calibrate: first power of two past 5 s (got %llu)",
	      (unsigned long long)r.count);
	CHECK(r.tries == 14 && s.counts[0] == 1 && s.counts[13] == 8192,
	      "calibrate doubles from 1 (%u tries)", r.tries);
}

static void test_exact_lower_bound(void)
{
	/* Around 5 s at 4096 blocks: the lower bound is inclusive. */
	struct sim s;
	struct calibrate_result r;

	s = (struct sim){ .ns_fast = 1220703 };	/* 4096 * this = 4.99999949 s */
	CHECK(search(&s, 0, &r) == 0 && r.count == 8192,
	      "calibrate: just under 5 s keeps doubling");
	s = (struct sim){ .ns_fast = 1220704 };	/* 4096 * this = 5.000003584 s */
	CHECK(search(&s, 0, &r) == 0 && r.count == 4096 &&
	      r.status == CALIBRATE_FOUND, "calibrate: 5 s is in the window");
}

static void test_short_input(void)
{
	struct sim s = { .ns_fast = 1000, .units = 1000 };
	struct calibrate_result r;

	CHECK(search(&s, 0, &r) == 0 && r.status == CALIBRATE_SHORT_INPUT,
	      "calibrate reports an input too short to reach 5 s");
	CHECK(r.count == 1024 && r.done == 1000 && r.elapsed_ns == 1000000,
	      "calibrate: short input reports what was read");
}

static void test_limit(void)
{
	struct sim s = { .ns_fast = 1000 };
	struct calibrate_result r;

	CHECK(search(&s, 100, &r) == 0 && r.status == CALIBRATE_LIMIT &&
	      r.count == 100 && s.counts[r.tries - 2] == 64,
	      "calibrate stops at max_count (last tries 64, 100)");
}

static void test_overshoot_bisects(void)
{
	/*
	 * 1 ms a block up to 4096 blocks (4.096 s), then 10 ms a block:
	 * 8192 blocks take 45 s.  Bisection must land inside 5..15 s.
	 */
	struct sim s = { .ns_fast = 1000000, .ns_slow = 10000000,
			 .knee = 4096 };
	struct calibrate_result r;

	CHECK(search(&s, 0, &r) == 0 && r.status == CALIBRATE_FOUND,
	      "calibrate bisects after an overshoot");
	CHECK(r.count > 4096 && r.count < 8192 && r.elapsed_ns >= 5 * SEC &&
	      r.elapsed_ns <= 15 * SEC, "calibrate: bisected count %llu in window",
	      (unsigned long long)r.count);
}

static void test_too_slow(void)
{
	/* One block takes 20 s: nothing fits, report that block. */
	struct sim s = { .ns_fast = 20 * SEC };
	struct calibrate_result r;

	CHECK(search(&s, 0, &r) == 0 && r.status == CALIBRATE_SLOW &&
	      r.count == 1 && r.elapsed_ns == 20 * SEC,
	      "calibrate: a single block over 15 s is reported as such");
}

static void test_error(void)
{
	struct sim s = { .ns_fast = 1, .fail = 1 };
	struct calibrate_result r;

	CHECK(search(&s, 0, &r) == -1 && errno == EIO,
	      "calibrate passes work errors on");
}

int main(void)
{
	test_doubling();
	test_exact_lower_bound();
	test_short_input();
	test_limit();
	test_overshoot_bisects();
	test_too_slow();
	test_error();
	return check_done();
}
