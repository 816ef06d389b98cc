// SPDX-License-Identifier: GPL-2.0
/*
 * osbench membw: memory bandwidth for read, write and copy, with one
 * thread and with every CPU.
 *
 * The buffer is at least four times the last-level cache, so each pass
 * streams from memory, not from a cache.  Each thread owns one contiguous
 * slice; all start a pass together (a barrier) and the pass ends when the
 * last one finishes, so the figure is what the threads achieve together.
 *
 *  - read sums 64-bit words into four accumulators (vectorisable, no
 *    dependency chain) and stores the sum where the compiler must assume
 *    someone reads it;
 *  - write stores a value that changes every pass, and an empty asm that
 *    "reads" the buffer keeps the stores from being dropped;
 *  - copy is memcpy between two buffers, counted as bytes read plus bytes
 *    written, as STREAM counts it.
 */
#include "cpu.h"
#include "micro.h"
#include "sysinfo.h"
#include "timing.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum op { OP_READ, OP_WRITE, OP_COPY, OP_ALL };
static const char *const op_names[] = { "read", "write", "copy" };

struct pool;

struct worker {
	struct pool *pool;
	pthread_t thread;
	uint64_t *src, *dst;	/* this worker's slices */
	size_t words;
};

struct pool {
	pthread_barrier_t start, done;
	pthread_mutex_t gate;	/* held while the threads are created */
	struct worker *w;
	int nthreads;
	enum op op;
	uint64_t passes;
	uint64_t stamp;
	int quit;
};

static volatile uint64_t sink;

static void pass(struct worker *w, enum op op, uint64_t stamp)
{
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
	uint64_t *p = w->src;
	size_t i;

	switch (op) {
	case OP_READ:
		for (i = 0; i + 4 <= w->words; i += 4) {
			a0 += p[i];
			a1 += p[i + 1];
			a2 += p[i + 2];
			a3 += p[i + 3];
		}
		sink = a0 + a1 + a2 + a3;
		break;
	case OP_WRITE:
		for (i = 0; i < w->words; i++)
			p[i] = stamp;
		keep(p);
		break;
	default:
		memcpy(w->dst, w->src, w->words * sizeof(*p));
		keep(w->dst);
		break;
	}
}

static void run_passes(struct worker *w)
{
	struct pool *pl = w->pool;
	uint64_t k;

	for (k = 0; k < pl->passes; k++)
		pass(w, pl->op, pl->stamp + k);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pool *pl = w->pool;

	cpu_pin(cpu_nth((int)(w - pl->w)), NULL, 0);
	/* Wait until every thread exists; quit if one could not start. */
	pthread_mutex_lock(&pl->gate);
	pthread_mutex_unlock(&pl->gate);
	if (pl->quit)
		return NULL;
	for (;;) {
		pthread_barrier_wait(&pl->start);
		if (pl->quit)
			return NULL;
		run_passes(w);
		pthread_barrier_wait(&pl->done);
	}
}

/* measure_fn: every thread does n passes over its slice. */
static int pool_run(void *arg, uint64_t n)
{
	struct pool *pl = arg;

	pl->passes = n;
	pl->stamp += n;
	pthread_barrier_wait(&pl->start);
	run_passes(&pl->w[0]);
	pthread_barrier_wait(&pl->done);
	return 0;
}

static void pool_free(struct pool *pl)
{
	pthread_barrier_destroy(&pl->start);
	pthread_barrier_destroy(&pl->done);
	pthread_mutex_destroy(&pl->gate);
	free(pl->w);
	cpu_unpin();
}

/* Threads 1..n-1 (0 is the caller): 0, or -1 with none left running. */
static int pool_threads(struct pool *pl)
{
	int i, j, err = 0;

	pthread_mutex_lock(&pl->gate);
	for (i = 1; i < pl->nthreads && !err; i++)
		err = pthread_create(&pl->w[i].thread, NULL, worker_main,
				     &pl->w[i]);
	if (err)
		pl->quit = 1;
	pthread_mutex_unlock(&pl->gate);
	if (!err)
		return 0;
	for (j = 1; j < i - 1; j++)
		pthread_join(pl->w[j].thread, NULL);
	errno = err;
	return fail_errno("cannot start thread %d of %d", i - 1,
			  pl->nthreads);
}

static int pool_start(struct pool *pl, int nthreads, uint64_t *a,
		      uint64_t *b, size_t words)
{
	size_t per = words / (size_t)nthreads / 8 * 8;
	int i, err;

	memset(pl, 0, sizeof(*pl));
	pl->nthreads = nthreads;
	err = pthread_barrier_init(&pl->start, NULL, (unsigned)nthreads);
	if (err)
		goto fail;
	err = pthread_barrier_init(&pl->done, NULL, (unsigned)nthreads);
	if (err) {
		pthread_barrier_destroy(&pl->start);
		goto fail;
	}
	pthread_mutex_init(&pl->gate, NULL);
	pl->w = xcalloc((size_t)nthreads, sizeof(*pl->w));
	for (i = 0; i < nthreads; i++) {
		pl->w[i].pool = pl;
		pl->w[i].src = a + (size_t)i * per;
		pl->w[i].dst = b + (size_t)i * per;
		pl->w[i].words = per;
	}
	cpu_pin(cpu_nth(0), NULL, 0);
	if (pool_threads(pl)) {
		pool_free(pl);
		return -1;
	}
	return 0;
fail:
	errno = err;
	return fail_errno("pthread_barrier_init for %d threads", nthreads);
}

static void pool_stop(struct pool *pl)
{
	int i;

	pl->quit = 1;
	pthread_barrier_wait(&pl->start);
	for (i = 1; i < pl->nthreads; i++)
		pthread_join(pl->w[i].thread, NULL);
	pool_free(pl);
}

static uint64_t *alloc_buffer(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		msg_errno("mmap %zu bytes", bytes);
		return NULL;
	}
	madvise(p, bytes, MADV_HUGEPAGE);
	/* Fault every page in now, not during the first sample. */
	memset(p, 1, bytes);
	return p;
}

struct membw_opts {
	int op;
	uint64_t threads;	/* 0: 1 and all CPUs */
	uint64_t size;		/* 0: the default */
};

static int op_value(const char *what, const char *v, void *dst)
{
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(v, op_names[i])) {
			*(int *)dst = i;
			return 0;
		}
	if (!strcmp(v, "all")) {
		*(int *)dst = OP_ALL;
		return 0;
	}
	msg("%s: '%s' is not read, write, copy or all", what, v);
	return -1;
}

static int threads_value(const char *what, const char *v, void *dst)
{
	if (!strcmp(v, "all")) {
		*(uint64_t *)dst = (uint64_t)cpu_count();
		return 0;
	}
	if (!parse_uint(v, 1, 1024, dst))
		return 0;
	msg("%s: '%s' is not a count in 1..1024 or all", what, v);
	return -1;
}

static const struct opt membw_options[] = {
	{ .name = "op", .kind = OPT_CALL, .arg = "read|write|copy|all",
	  .parse = op_value, .def = "all", .off = offsetof(struct membw_opts, op),
	  .help = "what to measure" },
	{ .name = "threads", .kind = OPT_CALL, .arg = "N|all",
	  .parse = threads_value, .off = offsetof(struct membw_opts, threads),
	  .help = "threads (default: 1, then all CPUs)" },
	{ .name = "size", .kind = OPT_SIZE, .arg = "SIZE", .min = 4096,
	  .off = offsetof(struct membw_opts, size),
	  .help = "bytes per buffer (default 4x the last-level cache,\n"
		  "at least 256M)" },
	{ 0 },
};

/* The rows of one thread count; 0, or -1 when a measurement failed. */
static int membw_rows(const struct ctx *ctx, const struct measure *m,
		      struct report *r, struct pool *pl, enum op op, int all)
{
	struct measure_result res;
	double bytes = (double)pl->w[0].words * sizeof(uint64_t) *
		       pl->nthreads;
	unsigned int i;
	enum op k;

	for (k = OP_READ; k <= OP_COPY; k++) {
		if (op != OP_ALL && op != k)
			continue;
		mb_progress(&ctx->o, "%s, %d thread(s)", op_names[k],
			    pl->nthreads);
		pl->op = k;
		if (measure_run(m, pool_run, pl, &res))
			return -1;
		/* ns per pass to MiB/s, sample by sample. */
		for (i = 0; i < m->samples; i++)
			res.ns[i] = bytes * (k == OP_COPY ? 2 : 1) / res.ns[i] *
				    1e9 / (1 << 20);
		stats_compute(res.ns, m->samples, &res.st);
		report_str(r, op_names[k]);
		report_num(r, pl->nthreads);
		report_num(r, bytes * (k == OP_COPY ? 2 : 1));
		measure_cells(r, &res.st, 1);
		report_str(r, "MiB/s");
		ctx_figure_st(ctx, FIG_BW + 2 * k + all, &res.st, "MiB/s");
		measure_free(&res);
	}
	return 0;
}

/* Every thread count asked for (1 and all CPUs by default); 0 or -1. */
static int membw_counts(const struct ctx *ctx, const struct membw_opts *mo,
			struct report *r, uint64_t *a, uint64_t *b,
			uint64_t size)
{
	int counts[2] = { mo->threads ? (int)mo->threads : 1, cpu_count() };
	int n = mo->threads || cpu_count() < 2 ? 1 : 2, c, rc = 0;
	struct measure m;
	struct pool pl;

	benchopt_measure(&ctx->o, &m);
	for (c = 0; c < n && !rc; c++) {
		if (pool_start(&pl, counts[c], a, b, size / sizeof(*a)))
			return -1;
		rc = membw_rows(ctx, &m, r, &pl, (enum op)mo->op, c);
		pool_stop(&pl);
	}
	return rc;
}

static uint64_t default_size(const struct benchopt *o, uint64_t llc)
{
	uint64_t ram = sysinfo_ram();
	uint64_t size = 4 * llc < 256ull << 20 ? 256ull << 20 : 4 * llc;

	if (ram && size > ram / 8)
		size = ram / 8;
	return benchopt_pick(o, size, 256ull << 20, 4ull << 20);
}

static const char usage[] =
	"usage: osbench membw [--op read|write|copy|all] [--threads N|all]\n"
	"                     [--size SIZE] [options]\n\n"
	"Memory bandwidth in MiB/s on a buffer of SIZE bytes (default 4x the\n"
	"last-level cache, at least 256M; copy uses two), with N threads\n"
	"(default: 1 and all CPUs), each pinned to its own CPU and streaming\n"
	"its own slice.  Copy counts bytes read plus bytes written.\n";

static int membw_run(const struct ctx *ctx, const void *opts)
{
	const struct membw_opts *mo = opts;
	uint64_t llc = sysinfo_cache_size(0);
	uint64_t size = mo->size ? mo->size : default_size(&ctx->o, llc);
	uint64_t *a = alloc_buffer(size), *b = a ? alloc_buffer(size) : NULL;
	struct measure m;
	struct report *r;
	int rc = EXIT_FAIL;

	if (!b)
		goto out;
	benchopt_measure(&ctx->o, &m);
	r = mb_report_new(ctx, "membw", &m);
	report_note(r, "buffer", "%llu MiB per buffer; last-level cache "
		    "%llu KiB (sysfs)%s", (unsigned long long)size >> 20,
		    (unsigned long long)llc >> 10,
		    size < 4 * llc ? "; smaller than 4x LLC" : "");
	report_note(r, "copy", "memcpy, bytes read + bytes written");
	report_column(r, "op", NULL);
	report_column(r, "threads", NULL);
	report_column(r, "bytes", NULL);
	measure_columns(r);
	report_column(r, "unit", NULL);
	if (membw_counts(ctx, mo, r, a, b, size))
		report_free(r);
	else
		rc = report_end(r) ? EXIT_FAIL : EXIT_OK;
out:
	if (a)
		munmap(a, size);
	if (b)
		munmap(b, size);
	return rc;
}

OSBENCH_COMMAND(membw, "membw", CMD_TABLE | CMD_ALL,
		"memory bandwidth: read, write, copy",
		COMMAND_OPTIONS(membw_options, struct membw_opts));
