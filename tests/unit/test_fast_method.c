// SPDX-License-Identifier: GPL-2.0
/*
 * fast's method choice (user/osbench/io/fast_method.c) on synthetic
 * timings: the fastest candidate wins, --method overrides, and the
 * residency probe tells a cached file from a dropped one.
 */
#include "check.h"
#include "fast_method.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const unsigned int ALL = 1u << FAST_READ | 1u << FAST_MMAP |
				1u << FAST_DIRECT;

static void test_pick(void)
{
	double r[FAST_NMETHODS] = { 0 };

	r[FAST_READ] = 29000;
	r[FAST_MMAP] = 4100;
	r[FAST_DIRECT] = 1500;
	CHECK(fast_pick(r, ALL, FAST_AUTO) == FAST_READ,
	      "pick: read fastest (written file on the second machine)");
	r[FAST_MMAP] = 31000;
	CHECK(fast_pick(r, ALL, FAST_AUTO) == FAST_MMAP,
	      "pick: mmap fastest (read-ahead folios)");
	CHECK(fast_pick(r, 1u << FAST_READ | 1u << FAST_DIRECT, FAST_AUTO) ==
	      FAST_READ, "pick: only among the candidates");
	r[FAST_DIRECT] = 40000;
	CHECK(fast_pick(r, ALL, FAST_AUTO) == FAST_DIRECT,
	      "pick: direct fastest (cold file)");
	CHECK(fast_pick(r, ALL, FAST_MMAP) == FAST_MMAP,
	      "pick: --method mmap overrides faster direct");
	CHECK(fast_pick(r, ALL, FAST_READ) == FAST_READ,
	      "pick: --method read overrides");
	CHECK(fast_pick(r, 0, FAST_DIRECT) == FAST_DIRECT,
	      "pick: --method direct even with no candidate measured");
	memset(r, 0, sizeof(r));
	CHECK(fast_pick(r, ALL, FAST_AUTO) == FAST_READ,
	      "pick: nothing measured gives read");
	r[FAST_MMAP] = 1;
	CHECK(fast_pick(r, ALL, FAST_AUTO) == FAST_MMAP,
	      "pick: the only measured one");
	r[FAST_READ] = 1;
	CHECK(fast_pick(r, ALL, FAST_AUTO) == FAST_READ,
	      "pick: a tie keeps the earlier (read)");
}

static void test_names(void)
{
	CHECK(fast_method_parse("auto") == FAST_AUTO &&
	      fast_method_parse("read") == FAST_READ &&
	      fast_method_parse("mmap") == FAST_MMAP &&
	      fast_method_parse("direct") == FAST_DIRECT,
	      "method names parse");
	CHECK(fast_method_parse("Direct") == -1 &&
	      fast_method_parse("") == -1 && fast_method_parse("aio") == -1,
	      "unknown method names are refused");
	CHECK(!strcmp(fast_method_name(FAST_MMAP), "mmap"),
	      "method name round trip");
}

static void test_candidates(void)
{
	CHECK(fast_candidates(1.0) == (1u << FAST_READ | 1u << FAST_MMAP),
	      "cached file: read and mmap are measured");
	CHECK(fast_candidates(0.0) == (1u << FAST_READ | 1u << FAST_DIRECT),
	      "cold file: read and direct are measured");
	CHECK(fast_candidates(-1) == fast_candidates(0.0),
	      "residency unknown: treated as cold");
	CHECK(fast_rule(1.0, 1 << 20) == FAST_READ &&
	      fast_rule(0.0, 1 << 20) == FAST_READ,
	      "files too small to measure: read by rule");
}

static void test_block(void)
{
	CHECK(fast_block_for_l2(1u << 20) == 512u << 10,
	      "block: half of a 1 MiB L2");
	CHECK(fast_block_for_l2(2u << 20) == 1u << 20,
	      "block: half of a 2 MiB L2");
	CHECK(fast_block_for_l2(0) == 256u << 10, "block: unknown L2");
	CHECK(fast_block_for_l2(96u << 10) == 64u << 10,
	      "block: at least 64 KiB");
	CHECK(fast_block_for_l2(32u << 20) == 1u << 20, "block: at most 1 MiB");
	CHECK(fast_block_for_l2(1280u << 10) == 640u << 10 &&
	      fast_block_for_l2(1000000) % 4096 == 0,
	      "block: a page multiple");
}

/* A written file is in the page cache; after DONTNEED it is not. */
static void test_residency(void)
{
	/* In build/ (tests run from the top): on disk, where /tmp may not be. */
	char path[] = "build/test_fast_method.XXXXXX";
	static char buf[1 << 20];
	double warm, cold;
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
		CHECK(0, "residency: scratch file");
		return;
	}
	warm = fast_residency(fd, sizeof(buf));
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	cold = fast_residency(fd, sizeof(buf));
	CHECK(warm == 1.0, "residency: a file just written is cached (%.2f)",
	      warm);
	CHECK(cold < 0.5, "residency: after DONTNEED it is not (%.2f)", cold);
	CHECK(fast_residency(fd, 0) == 1.0, "residency: empty file");
	close(fd);
	unlink(path);
}

/* A fake engine that counts its thread states and XORs the offsets. */
static int fake_starts, fake_stops;
static int fake_token;

static size_t fake_chunk(const struct fast_file *f, uint64_t len)
{
	(void)f;
	(void)len;
	return 1u << 20;
}

static void *fake_start(struct fast_file *f)
{
	(void)f;
	__atomic_add_fetch(&fake_starts, 1, __ATOMIC_RELAXED);
	return &fake_token;
}

static int fake_xor(void *ts, struct fast_file *f, uint64_t off, size_t len,
		    uint32_t *xor)
{
	(void)f;
	*xor ^= (uint32_t)(off >> 20) * 2654435761u ^ (uint32_t)len;
	return ts == &fake_token ? 0 : -1;
}

static void fake_stop(void *ts)
{
	(void)ts;
	fake_stops++;
}

static const struct fast_engine fake_engine = {
	.name = "fake",
	.method = FAST_MMAP,
	.chunk = fake_chunk,
	.thread_start = fake_start,
	.xor_chunk = fake_xor,
	.thread_stop = fake_stop,
};

/*
 * Thread states are made once per thread and kept from phase to phase
 * (the probes and the rest), and stopped once at the end; the phases'
 * XORs combine to that of one run over the whole range.
 */
static void test_kept_state(void)
{
	struct fast_file f;
	uint32_t whole = 0, parts = 0, x;
	int ok = 1;

	fast_file_init(&f, -1, 64u << 20);
	f.threads = 2;
	ok &= fast_run_range(&fake_engine, &f, 0, 64u << 20, &whole) == 0;
	fast_release(&f);
	CHECK(ok && fake_starts == 2 && fake_stops == 2,
	      "one phase: %d states made, %d stopped (want 2, 2)",
	      fake_starts, fake_stops);
	fake_starts = fake_stops = 0;
	ok &= fast_prepare(&fake_engine, &f) == 0;
	ok &= fast_run_range(&fake_engine, &f, 0, 2u << 20, &x) == 0;
	parts ^= x;
	ok &= fast_run_range(&fake_engine, &f, 2u << 20, 10u << 20, &x) == 0;
	parts ^= x;
	ok &= fast_run_range(&fake_engine, &f, 10u << 20, 64u << 20, &x) == 0;
	parts ^= x;
	CHECK(ok && fake_starts == 2 && fake_stops == 0,
	      "prepared, three phases: %d states made, %d stopped (want 2, 0)",
	      fake_starts, fake_stops);
	fast_release(&f);
	CHECK(fake_stops == 2, "released: %d stopped (want 2)", fake_stops);
	CHECK(parts == whole, "three phases XOR to one run's: %08x, %08x",
	      parts, whole);
}

int main(void)
{
	test_pick();
	test_names();
	test_candidates();
	test_block();
	test_residency();
	test_kept_state();
	return check_done();
}
