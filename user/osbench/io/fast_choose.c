// SPDX-License-Identifier: GPL-2.0
/*
 * fast's choice, made on the file itself: how much of it is cached
 * (mincore on a sample), then each candidate engine reads a slice from
 * the start of the file in turn, timed, and the fastest reads the rest.
 * The slices are part of the result, so nothing is read twice.  Slices
 * are taken in rounds (A, B, A, B) and each engine keeps its best one:
 * on a shared machine a slice can lose its core for a moment, and the
 * best of two is far less likely to have.  The first round is a screen
 * of a quarter of a slice, and an engine at less than half the best rate
 * sits the second round out (read never does: fast_sits_out): a slow
 * candidate costs its slice at its own speed (a mapped just-written file
 * under bhyve, with full slices, cost a large share of a whole run), and
 * a short look is enough to know it is slow (docs/io.md, "Design choices
 * and the alternatives measured", 9).  Cold files:
 * direct, then read, one
 * round of 32 MiB each, by the wall clock; read is cut short once it has
 * taken as long as direct did (probe_deadline).  Which is faster depends
 * on the storage and on what caches it below this system: on an Intel
 * Xeon under KVM O_DIRECT with 16 requests in flight won at some times
 * and buffered reads at others, within the hour, on the same file; on
 * the AMD EPYC Turin-like guest under bhyve an AIO direct engine lost to
 * read, and the io_uring one wins (docs/io.md, "Design choices and the
 * alternatives measured", 3 and 7).
 */
#include "fast_method.h"
#include "readq.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MIB_B (1ull << 20)

/*
 * Slices: warm ones are over in a millisecond or two, and take two
 * rounds (a screen first).  Cold ones take one round: each slice restarts
 * the read-ahead or drains the queue.  32 MiB: each of two threads fills
 * the direct engine's queue (16 MiB) once; 16 MiB slices told the two
 * engines apart less well than whole runs did, and a close call chose the
 * slow one too often (docs/io.md, "Design choices and the alternatives
 * measured", 5).
 */
#define PROBE_SLICE_WARM (8 * MIB_B)
#define PROBE_SLICE_COLD (32 * MIB_B)
#define PROBE_MIN_SLICE (4 * MIB_B)
/* Probes take at most this fraction of the file. */
#define PROBE_SHARE 4
/*
 * A warm race (fast_run_race) has two rounds, as the probes in turn: a
 * screen of 2 MiB chunks, then 8 MiB chunks for the engines within half
 * of the best screen (read never sits out), each round twice its chunk
 * per engine, one chunk kept for each and the rest to the faster.  The
 * screen keeps a slow engine's cost to one small chunk: a mapped
 * just-written GiB is XORed 8x slower than read under bhyve, and the
 * faster thread waits at the round's end for the slower one's chunk.
 * 8 MiB, a read chunk and a mapping window large enough that mmap's
 * per-call costs do not decide: with 4 MiB chunks, a read-back GiB on an
 * Intel Xeon under KVM went to read in 2 of 60 races (mmap reads it 1.3x
 * faster), with 8 MiB in none.
 */
#define RACE_SCREEN (2 * MIB_B)
#define RACE_CHUNK (8 * MIB_B)

const struct fast_engine *fast_engine(enum fast_method m)
{
	switch (m) {
	case FAST_READ:
		return &fast_engine_read;
	case FAST_MMAP:
		return &fast_engine_mmap;
	case FAST_DIRECT:
		return &fast_engine_direct;
	default:
		return NULL;
	}
}

/* An engine that cannot work on this file, rather than an I/O error. */
static bool unsupported(enum fast_method m, int err)
{
	if (m == FAST_DIRECT)
		return err == EINVAL || err == EOPNOTSUPP || err == ENOSYS ||
		       err == EAGAIN;
	if (m == FAST_MMAP)
		return err == ENODEV || err == EINVAL || err == EACCES;
	return false;
}

static int engine_open(enum fast_method m, struct fast_file *f)
{
	const struct fast_engine *e = fast_engine(m);

	return e->open ? e->open(f) : 0;
}

static void engine_close(enum fast_method m, struct fast_file *f)
{
	const struct fast_engine *e = fast_engine(m);

	if (e->close)
		e->close(f);
}

/*
 * The probe plan for the candidates in *mask: *slice bytes per engine per
 * round, *rounds rounds; false when the file is too small to measure.
 */
static bool probe_plan(const struct fast_file *f, unsigned int mask,
		       uint64_t *slice, unsigned int *rounds)
{
	unsigned int n = (unsigned int)__builtin_popcount(mask);
	uint64_t most;

	*rounds = f->cold ? 1 : 2;
	*slice = f->cold ? PROBE_SLICE_COLD : PROBE_SLICE_WARM;
	if (n < 2)
		return false;
	most = f->size / PROBE_SHARE / n / *rounds / FAST_ALIGN * FAST_ALIGN;
	if (*slice > most)
		*slice = most;
	return *slice >= PROBE_MIN_SLICE;
}

/* Add a step to c's timeline: it began at t0 and took cpu_ns of CPU. */
static void step_add(struct fast_choice *c, const struct fast_file *f,
		     const char *what, enum fast_method m, uint64_t bytes,
		     uint64_t t0, uint64_t cpu_ns)
{
	if (c->nsteps < FAST_MAX_STEPS)
		c->steps[c->nsteps++] = (struct fast_step){
			.what = what, .method = m, .bytes = bytes,
			.wall_ns = now_ns() - t0, .cpu_ns = cpu_ns,
			.threads = bytes ? f->ran : 0 };
}

/*
 * Time e on [*off, *off + slice); 0 with the rate, -1 with errno.
 * Cached, reading is all CPU work, so the rate is the slice over the
 * CPU time of the threads that ran, shared among them: other processes
 * that take a core for a moment (a shared machine) then do not decide
 * the choice.  A warm slice is no larger than one chunk, so one thread
 * runs it, and the rate is one thread's: the run's threads together do
 * not reach that rate times their number where they share the machine's
 * memory or cores (docs/io.md).  Cold, the time is spent waiting for
 * the disk, so the wall clock is the rate.
 */
static int probe_one(enum fast_method m, struct fast_file *f,
		     struct fast_choice *c, uint64_t *off, uint64_t slice,
		     uint32_t *xor, double *mib_s, struct fast_left *left)
{
	uint64_t t0 = now_ns(), dt, cpu = 0, bytes;
	uint32_t x;
	int ret;

	ret = fast_run_timed(fast_engine(m), f, *off, *off + slice, &x, &cpu,
			     left);
	f->deadline = 0;
	if (ret)
		return -1;
	dt = now_ns() - t0;
	if (!f->cold && cpu)
		dt = cpu / (f->ran ? f->ran : 1);
	bytes = slice - fast_left_bytes(left);
	step_add(c, f, "probe", m, bytes, t0, cpu);
	*xor ^= x;
	*off += slice;
	*mib_s = (double)bytes / (double)MIB_B / ((double)(dt ? dt : 1) / 1e9);
	return 0;
}

/*
 * Cold, an engine probed after the first gets until the best so far
 * would have read the same slice: past that it has lost, and the rest
 * of its slice would be read at the loser's speed.  Cut short, it leaves
 * the parts of the slice it did not read to the winner.  (Cold probes
 * take one round, so at most one probe is cut: its gaps are the only
 * ones.)  Warm probes run whole: they take a millisecond or two, rated
 * by CPU time, which a wall-clock deadline would not match.
 */
static void probe_deadline(struct fast_file *f, const struct fast_choice *c,
			   uint64_t slice, double top)
{
	if (!f->cold || top <= 0 || c->cut != FAST_AUTO)
		return;
	f->deadline = now_ns() +
		      (uint64_t)((double)slice / (double)MIB_B / top * 1e9);
}

/*
 * Run the probes from offset 0; *off gets where they stopped and *mask
 * loses the engines that cannot read this file.  0, or -1 with errno.
 */
static int probe(struct fast_file *f, unsigned int *mask, uint64_t slice,
		 unsigned int rounds, struct fast_choice *c, uint64_t *off,
		 uint32_t *xor)
{
	/*
	 * Cold, direct first: where it wins (AMD EPYC under bhyve) the read
	 * probe after it is cut short, which saved 6 % of a cold GiB; where
	 * read wins, read runs its whole slice either way.
	 */
	static const enum fast_method warm_order[FAST_NMETHODS - 1] = {
		FAST_READ, FAST_DIRECT, FAST_MMAP
	};
	static const enum fast_method cold_order[FAST_NMETHODS - 1] = {
		FAST_DIRECT, FAST_READ, FAST_MMAP
	};
	const enum fast_method *order = f->cold ? cold_order : warm_order;
	uint64_t screen = slice / 4 / FAST_ALIGN * FAST_ALIGN, len;
	struct fast_left left;
	unsigned int r, i;
	double v, top = 0;

	if (screen < FAST_ALIGN)
		screen = FAST_ALIGN;
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < FAST_NMETHODS - 1; i++) {
			enum fast_method m = order[i];

			if (!(*mask & (1u << m)) ||
			    (r && fast_sits_out(m, c->probe_mib_s[m], top)))
				continue;
			len = r + 1 < rounds ? screen : slice;
			probe_deadline(f, c, len, top);
			if (probe_one(m, f, c, off, len, xor, &v, &left)) {
				if (!unsupported(m, errno))
					return -1;
				*mask &= ~(1u << m);
				continue;
			}
			if (left.n) {
				c->cut = m;
				c->cut_slice = len;
				c->cut_done = len - fast_left_bytes(&left);
				c->left = left;
			}
			if (v > c->probe_mib_s[m])
				c->probe_mib_s[m] = v;
			if (v > top)
				top = v;
		}
	}
	c->probe_bytes = *off;
	return 0;
}

/*
 * Warm, with a thread for each candidate: each round of probes is a race
 * of the candidates side by side (fast_run_race) on the next stretch of
 * the file, each engine rated by the bytes its threads XORed over their
 * CPU time and keeping its better round, so no core idles while another
 * engine is timed and a thread that loses its core for a moment loses no
 * rate.  The rounds take at most a quarter of the file; race_fits() is
 * false where none can be run: cold, fewer threads than candidates, a
 * file too small.  An engine this file refuses (mmap on some file
 * systems) fails its round: it is dropped from *mask and nothing that
 * round read counts.
 */
static bool race_fits(const struct fast_file *f, unsigned int mask)
{
	unsigned int n = (unsigned int)__builtin_popcount(mask);

	return !f->cold && n >= 2 && f->threads >= n &&
	       f->size / PROBE_SHARE >= (uint64_t)n * RACE_CHUNK;
}

/* One round: the engines of mask race over [*off, *off + len). */
static int race_round(struct fast_file *f, unsigned int mask, uint64_t len,
		      size_t chunk, struct fast_choice *c, uint64_t *off,
		      uint32_t *xor)
{
	const struct fast_engine *e[FAST_NMETHODS];
	struct fast_lap lap[FAST_NMETHODS];
	uint64_t t0 = now_ns(), wall;
	unsigned int ne = 0, k;
	double v;
	uint32_t x;
	int m;

	for (m = FAST_READ; m < FAST_NMETHODS; m++)
		if (mask & (1u << m))
			e[ne++] = fast_engine(m);
	if (fast_run_race(e, ne, f, *off, *off + len, chunk, &x, lap))
		return -1;
	wall = now_ns() - t0;
	for (k = 0; k < ne && c->nsteps < FAST_MAX_STEPS; k++) {
		m = e[k]->method;
		c->steps[c->nsteps++] = (struct fast_step){
			.what = "probe", .method = m, .bytes = lap[k].bytes,
			.wall_ns = wall, .cpu_ns = lap[k].cpu_ns,
			.threads = lap[k].threads, .beside = k > 0 };
		v = lap[k].cpu_ns ? (double)lap[k].bytes / (double)MIB_B /
				    ((double)lap[k].cpu_ns / 1e9) : 0;
		if (v > c->probe_mib_s[m])
			c->probe_mib_s[m] = v;
	}
	*xor ^= x;
	*off += len;
	return 0;
}

/*
 * The rounds; 0 raced, 1 not (a thread could not be started, or an
 * engine refused the file: the probes in turn take over from *off), -1
 * with errno.
 */
static int race(struct fast_file *f, unsigned int *mask,
		struct fast_choice *c, uint64_t *off, uint32_t *xor)
{
	static const size_t chunk[2] = { RACE_SCREEN, RACE_CHUNK };
	uint64_t budget = f->size / PROBE_SHARE, len;
	unsigned int r, n, round;
	double top = 0;
	int m;

	for (r = 0; r < 2; r++) {
		round = 0;
		for (m = FAST_READ; m < FAST_NMETHODS; m++)
			if ((*mask & (1u << m)) &&
			    !(r && fast_sits_out(m, c->probe_mib_s[m], top)))
				round |= 1u << m;
		n = (unsigned int)__builtin_popcount(round);
		/* Twice a chunk each, or what room is left: one at least. */
		len = (budget - *off) / (n * chunk[r]) * (n * chunk[r]);
		if (len > 2ull * n * chunk[r])
			len = 2ull * n * chunk[r];
		if (n < 2 || len == 0)
			break;	/* the rest decides nothing, or no room */
		if (race_round(f, round, len, chunk[r], c, off, xor)) {
			if (errno == EAGAIN)
				return 1;
			if (!unsupported(FAST_MMAP, errno) ||
			    !(*mask & 1u << FAST_MMAP))
				return -1;
			*mask &= ~(1u << FAST_MMAP);
			c->measured = true;	/* read is left */
			return 1;
		}
		c->measured = c->raced = true;
		for (m = FAST_READ; m < FAST_NMETHODS; m++)
			if (c->probe_mib_s[m] > top)
				top = c->probe_mib_s[m];
	}
	c->probe_bytes = *off;
	return c->raced ? 0 : 1;
}

/*
 * Open every engine in *mask and make its threads' states, dropping the
 * engines this file refuses.
 */
static int open_all(struct fast_file *f, unsigned int *mask)
{
	int m, k;

	for (m = FAST_READ; m < FAST_NMETHODS; m++) {
		if (!(*mask & (1u << m)))
			continue;
		if (engine_open(m, f) == 0) {
			if (fast_prepare(fast_engine(m), f) == 0)
				continue;
			engine_close(m, f);
		}
		if (unsupported(m, errno)) {
			*mask &= ~(1u << m);
			continue;
		}
		fast_release(f);
		for (k = FAST_READ; k < m; k++)
			if (*mask & (1u << k))
				engine_close(k, f);
		return -1;
	}
	return 0;
}

static void close_all(struct fast_file *f, unsigned int mask)
{
	int m;

	fast_release(f);
	for (m = FAST_READ; m < FAST_NMETHODS; m++)
		if (mask & (1u << m))
			engine_close(m, f);
}

/* e over what a cut probe left, then over [off, size), timed into c. */
static int run_span(const struct fast_engine *e, struct fast_file *f,
		    struct fast_choice *c, uint64_t off, uint32_t *xor)
{
	uint64_t t0 = now_ns(), cpu = 0;
	unsigned int i;
	uint32_t x;

	*xor = 0;
	for (i = 0; i < c->left.n; i++) {
		if (fast_run_timed(e, f, c->left.gap[i].start,
				   c->left.gap[i].end, &x, &cpu, NULL))
			return -1;
		*xor ^= x;
	}
	if (fast_run_timed(e, f, off, f->size, &x, &cpu, NULL))
		return -1;
	*xor ^= x;
	step_add(c, f, "rest", e->method,
		 f->size - off + fast_left_bytes(&c->left), t0, cpu);
	return 0;
}

/* The winner reads the rest; read() when it cannot after all. */
static int run_rest(struct fast_file *f, struct fast_choice *c,
		    unsigned int mask, uint64_t off, uint32_t *xor)
{
	uint32_t x;

	if (!(mask & (1u << c->method))) {
		snprintf(c->fallback, sizeof(c->fallback),
			 "%s cannot read this file", fast_method_name(c->method));
		c->method = FAST_READ;
	}
	if (run_span(fast_engine(c->method), f, c, off, &x)) {
		if (c->method == FAST_READ || !unsupported(c->method, errno))
			return -1;
		snprintf(c->fallback, sizeof(c->fallback), "%s failed: %s",
			 fast_method_name(c->method), strerror(errno));
		c->method = FAST_READ;
		if (run_span(&fast_engine_read, f, c, off, &x))
			return -1;
	}
	*xor ^= x;
	return 0;
}

int fast_xor_file(struct fast_file *f, enum fast_method m,
		  struct fast_choice *c, uint32_t *xor)
{
	unsigned int mask, rounds;
	uint64_t off = 0, slice, t0 = now_ns();
	int ret = -1, raced;

	memset(c, 0, sizeof(*c));
	c->cut = FAST_AUTO;
	*xor = 0;
	c->cached = fast_residency(f->fd, f->size);
	step_add(c, f, "residency", FAST_AUTO, 0, t0, 0);
	/* Unknown (mmap refused) counts as cold, as in fast_candidates(). */
	f->cold = c->cached < 0.5;
	c->forced = m != FAST_AUTO;
	/* read() is every engine's fallback, so it is always open. */
	mask = (c->forced ? 1u << m : fast_candidates(c->cached)) |
	       1u << FAST_READ;
	t0 = now_ns();
	if (open_all(f, &mask))
		return -1;
	step_add(c, f, "open", FAST_AUTO, 0, t0, 0);
	raced = !c->forced && race_fits(f, mask) ? race(f, &mask, c, &off, xor) : 1;
	if (raced < 0)
		goto out;
	if (raced && !c->forced && probe_plan(f, mask, &slice, &rounds)) {
		c->measured = true;
		if (probe(f, &mask, slice, rounds, c, &off, xor))
			goto out;
	}
	if (c->forced)
		c->method = m;
	else if (c->measured)
		c->method = fast_pick(c->probe_mib_s, mask, FAST_AUTO);
	else
		c->method = fast_rule(c->cached, f->size);
	ret = run_rest(f, c, mask, off, xor);
	fast_choice_reason(f, c);
out:
	t0 = now_ns();
	close_all(f, mask);
	step_add(c, f, "close", FAST_AUTO, 0, t0, 0);
	return ret;
}

void fast_choice_describe(const struct fast_file *f,
			  const struct fast_choice *c, char *buf, size_t len)
{
	size_t block = f->cold ? f->cold_block : f->block;
	size_t n;
	int m;

	if (c->method == FAST_MMAP)
		n = (size_t)snprintf(buf, len, "mmap, threads: %u, window: %zu KiB",
				     f->threads, f->window >> 10);
	else if (c->method == FAST_DIRECT)
		n = (size_t)snprintf(buf, len, "direct, threads: %u, %u x %zu KiB in flight each (%s)",
				     f->threads, f->depth, f->request >> 10,
				     readq_kind_name((enum readq_kind)f->queue));
	else
		n = (size_t)snprintf(buf, len, "read, threads: %u, block: %zu KiB",
				     f->threads, block >> 10);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "; %s, %.0f%% cached",
				      c->forced ? "forced" :
				      !c->measured ? "rule" :
				      f->cold ? "measured (wall clock)" :
				      "measured (CPU time)",
				      c->cached * 100);
	for (m = FAST_READ; m < FAST_NMETHODS && n < len; m++) {
		if (c->probe_mib_s[m] > 0 || m == (int)c->cut)
			n += (size_t)snprintf(buf + n, len - n, ", %s %.0f MiB/s",
					      fast_method_name(m),
					      c->probe_mib_s[m]);
		if (m == (int)c->cut && n < len)
			n += (size_t)snprintf(buf + n, len - n,
					      " (cut short: %llu of %llu MiB)",
					      (unsigned long long)(c->cut_done >> 20),
					      (unsigned long long)(c->cut_slice >> 20));
	}
	if (c->fallback[0] && n < len)
		snprintf(buf + n, len - n, "; %s: read() instead", c->fallback);
}
