// SPDX-License-Identifier: GPL-2.0
/*
 * fast's method choice (user/osbench/io/fast_method.c) on synthetic
 * timings: the fastest candidate wins, --method overrides, and the
 * residency probe tells a cached file from a dropped one.  And the
 * runner (fast_run.c): thread states kept across phases, and a phase cut
 * short at its deadline accounts for every byte, read or left.
 */
#include "check.h"
#include "fast_method.h"
#include "xor32.h"

#include <errno.h>
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
	      "pick: read fastest (a just-written file under bhyve)");
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

static void test_sits_out(void)
{
	CHECK(fast_sits_out(FAST_MMAP, 4000, 30000),
	      "sits out: mmap at under half the best screen");
	CHECK(!fast_sits_out(FAST_MMAP, 20000, 30000),
	      "sits out: not mmap at over half the best screen");
	CHECK(!fast_sits_out(FAST_READ, 2410, 5399),
	      "sits out: never read, even after a screen that lost its core");
	CHECK(!fast_sits_out(FAST_MMAP, 5399, 5399),
	      "sits out: never the best screen");
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
	CHECK(fast_block_for_l2(512u << 10) == 256u << 10,
	      "block: half of a 512 KiB L2");
	CHECK(fast_block_for_l2(2u << 20) == 512u << 10,
	      "block: 512 KiB for a 2 MiB L2, not half of it");
	CHECK(fast_block_for_l2(0) == 256u << 10, "block: unknown L2");
	CHECK(fast_block_for_l2(96u << 10) == 64u << 10,
	      "block: at least 64 KiB");
	CHECK(fast_block_for_l2(32u << 20) == 512u << 10,
	      "block: at most 512 KiB");
	CHECK(fast_block_for_l2(600u << 10) == 300u << 10 &&
	      fast_block_for_l2(700000) % 4096 == 0,
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
		    uint32_t *xor, size_t *done)
{
	(void)f;
	(void)done;
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

/*
 * A fake engine whose XOR adds up over any split at 64 KiB (a hash per
 * 64 KiB unit), and which, while a deadline is set, reads only the
 * first half of every chunk, as an engine cut short does.
 */
#define UNIT (64u << 10)

static uint32_t unit_hash(uint64_t off)
{
	return (uint32_t)(off / UNIT + 1) * 2654435761u;
}

static int halving_xor(void *ts, struct fast_file *f, uint64_t off,
		       size_t len, uint32_t *xor, size_t *done)
{
	size_t n = f->deadline ? len / 2 / UNIT * UNIT : len, i;

	(void)ts;
	for (i = 0; i < n; i += UNIT)
		*xor ^= unit_hash(off + i);
	*done = n;
	return 0;
}

static const struct fast_engine halving_engine = {
	.name = "halving",
	.method = FAST_READ,
	.chunk = fake_chunk,
	.thread_start = fake_start,
	.xor_chunk = halving_xor,
	.thread_stop = fake_stop,
};

/* XOR of [start, end) run whole, and of the gaps of *left. */
static uint32_t whole_xor(struct fast_file *f, uint64_t start, uint64_t end)
{
	uint32_t x = 0;

	if (fast_run_range(&halving_engine, f, start, end, &x))
		CHECK(0, "cut: a whole run failed");
	return x;
}

/*
 * A phase stopped at its deadline: what it read and the gaps it left
 * are the whole range, each byte once, whether it stopped before any
 * chunk (deadline passed) or inside chunks (an engine cut short).
 */
static void test_cut(void)
{
	const uint64_t start = 3u << 20, end = 11u << 20;
	struct fast_left left;
	struct fast_file f;
	uint32_t want, x, gaps;
	unsigned int i;
	int ret;

	fast_file_init(&f, -1, end);
	f.threads = 2;
	want = whole_xor(&f, start, end);

	f.deadline = 1;	/* long past */
	ret = fast_run_timed(&halving_engine, &f, start, end, &x, NULL, &left);
	CHECK(ret == 0 && x == 0 && left.n == 1 && left.gap[0].start == start &&
	      left.gap[0].end == end,
	      "cut: a past deadline reads nothing and leaves the range (%u gaps)",
	      left.n);

	f.deadline = UINT64_MAX;	/* the engine cuts, the clock never */
	ret = fast_run_timed(&halving_engine, &f, start, end, &x, NULL, &left);
	f.deadline = 0;
	gaps = 0;
	for (i = 0; i < left.n; i++)
		gaps ^= whole_xor(&f, left.gap[i].start, left.gap[i].end);
	CHECK(ret == 0 && left.n >= 2 && left.n <= 3,
	      "cut: two threads cut short leave their halves and the untaken chunks (%u gaps)",
	      left.n);
	CHECK(fast_left_bytes(&left) > 0 && fast_left_bytes(&left) < end - start,
	      "cut: some read, some left (%llu of %llu bytes left)",
	      (unsigned long long)fast_left_bytes(&left),
	      (unsigned long long)(end - start));
	CHECK((x ^ gaps) == want,
	      "cut: what was read and the gaps read after XOR to the whole (%08x, %08x)",
	      x ^ gaps, want);

	f.deadline = 5;
	CHECK(fast_run_range(&halving_engine, &f, start, end, &x) == -1 &&
	      errno == EINVAL, "cut: a deadline needs somewhere to put the gaps");
	fast_release(&f);
}

/*
 * The read engine itself, cold, past its deadline: it reads one block
 * (FAST_ALIGN) of its chunk, says so, and XORs just that.
 */
static void test_read_cut(void)
{
	char path[] = "build/test_fast_method.XXXXXX";
	static unsigned char buf[3 << 20];
	struct fast_file f;
	uint32_t x = 0, first;
	size_t i, done = sizeof(buf);
	int fd = mkstemp(path);
	uint32_t seed = 1;
	void *ts;

	for (i = 0; i < sizeof(buf); i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (unsigned char)(seed >> 16);
	}
	if (fd < 0 || write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
		CHECK(0, "read cut: scratch file");
		return;
	}
	fast_file_init(&f, fd, sizeof(buf));
	f.cold = true;
	ts = fast_engine_read.thread_start(&f);
	f.deadline = 1;
	CHECK(ts && fast_engine_read.xor_chunk(ts, &f, 0, sizeof(buf), &x,
					       &done) == 0,
	      "read cut: the engine reads past its deadline without error");
	first = xor32(buf, FAST_ALIGN, 0);
	CHECK(done == FAST_ALIGN && x == first &&
	      first != xor32(buf, sizeof(buf), 0),
	      "read cut: one block read and XORed (%zu bytes, %08x, want %08x)",
	      done, x, first);
	if (ts)
		fast_engine_read.thread_stop(ts);
	close(fd);
	unlink(path);
}

/* An engine whose XOR adds up over any split at UNIT, whole chunks. */
static int unit_xor(void *ts, struct fast_file *f, uint64_t off, size_t len,
		    uint32_t *xor, size_t *done)
{
	size_t i;

	(void)ts;
	(void)f;
	for (i = 0; i < len; i += UNIT)
		*xor ^= unit_hash(off + i);
	*done = len;
	return 0;
}

static const struct fast_engine unit_read = {
	.name = "unit-read", .method = FAST_READ, .chunk = fake_chunk,
	.thread_start = fake_start, .xor_chunk = unit_xor,
	.thread_stop = fake_stop,
};

static const struct fast_engine unit_mmap = {
	.name = "unit-mmap", .method = FAST_MMAP, .chunk = fake_chunk,
	.thread_start = fake_start, .xor_chunk = unit_xor,
	.thread_stop = fake_stop,
};

/*
 * A race: every byte of the range XORed once, by one engine or the
 * other; each engine reads at least one chunk whatever the scheduling,
 * and its lap counts its threads, bytes and CPU time.  Too few threads
 * or chunks for the engines is EINVAL.
 */
static void test_race(void)
{
	const struct fast_engine *e[2] = { &unit_read, &unit_mmap };
	const uint64_t len = 12u << 20;
	struct fast_lap lap[2];
	struct fast_file f;
	uint32_t x, whole = 0;
	unsigned int t;
	int ret;

	fast_file_init(&f, -1, len);
	for (uint64_t off = 0; off < len; off += UNIT)
		whole ^= unit_hash(off);
	for (t = 2; t <= 5; t += 3) {
		f.threads = t;
		ret = fast_run_race(e, 2, &f, 0, len, 1u << 20, &x, lap);
		CHECK(ret == 0 && x == whole,
		      "race, %u threads: the range XORed once (%08x, want %08x)",
		      t, x, whole);
		CHECK(lap[0].bytes + lap[1].bytes == len,
		      "race, %u threads: the laps' bytes add up (%llu + %llu)",
		      t, (unsigned long long)lap[0].bytes,
		      (unsigned long long)lap[1].bytes);
		CHECK(lap[0].bytes >= 1u << 20 && lap[1].bytes >= 1u << 20,
		      "race, %u threads: each engine read a chunk at least", t);
		CHECK(lap[0].threads == (t + 1) / 2 && lap[1].threads == t / 2,
		      "race, %u threads: threads shared out (%u, %u)", t,
		      lap[0].threads, lap[1].threads);
		fast_release(&f);
	}
	f.threads = 1;
	errno = 0;
	ret = fast_run_race(e, 2, &f, 0, len, 1u << 20, &x, lap);
	CHECK(ret == -1 && errno == EINVAL,
	      "race: one thread for two engines is refused");
	f.threads = 2;
	errno = 0;
	ret = fast_run_race(e, 2, &f, 0, 1u << 20, 1u << 20, &x, lap);
	CHECK(ret == -1 && errno == EINVAL,
	      "race: one chunk for two engines is refused");
	fast_release(&f);
}

/* The reason --timeline gives for the engine that read the rest. */
static void test_reason(void)
{
	struct fast_choice c = { .method = FAST_READ, .measured = true,
				 .raced = true };
	struct fast_file f;

	fast_file_init(&f, -1, 1u << 30);
	f.threads = 2;
	f.block = 256u << 10;
	c.probe_mib_s[FAST_READ] = 13000;
	c.probe_mib_s[FAST_MMAP] = 10000;
	fast_choice_reason(&f, &c);
	CHECK(!strcmp(c.reason, "read: 2 threads x 256 KiB, race 1.30x mmap"),
	      "reason: a race won by read ('%s')", c.reason);
	c.method = FAST_MMAP;
	c.raced = false;
	c.probe_mib_s[FAST_MMAP] = 26000;
	fast_choice_reason(&f, &c);
	CHECK(!strcmp(c.reason,
		      "mmap: 2 threads x 64 MiB windows, trial 2.00x read"),
	      "reason: probes won by mmap ('%s')", c.reason);
	c.method = FAST_DIRECT;
	c.forced = true;
	fast_choice_reason(&f, &c);
	CHECK(!strcmp(c.reason,
		      "direct: 2 threads x 16 x 1024 KiB in flight, forced"),
	      "reason: forced ('%s')", c.reason);
	memset(&c, 0, sizeof(c));
	c.method = FAST_READ;
	fast_choice_reason(&f, &c);
	CHECK(!strcmp(c.reason,
		      "read: 2 threads x 256 KiB, rule (too small to measure)"),
	      "reason: the rule ('%s')", c.reason);
	c.measured = true;
	c.probe_mib_s[FAST_READ] = 9000;
	fast_choice_reason(&f, &c);
	CHECK(!strcmp(c.reason,
		      "read: 2 threads x 256 KiB, the only candidate left"),
	      "reason: one engine left ('%s')", c.reason);
}

int main(void)
{
	test_pick();
	test_sits_out();
	test_names();
	test_candidates();
	test_block();
	test_residency();
	test_kept_state();
	test_cut();
	test_read_cut();
	test_race();
	test_reason();
	return check_done();
}
