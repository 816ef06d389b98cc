/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measurement loop every micro-benchmark shares (the ideas of lmbench's
 * lib_timing.c without its globals):
 *
 *  - the iteration count is sized so that one sample lasts at least
 *    min_sample_ns, far above the clock's resolution and read cost;
 *  - the sizing runs and `warmup` further samples are discarded, so caches,
 *    TLBs, branch predictors and the CPU frequency have settled;
 *  - `samples` samples are kept and summarised with stats.h;
 *  - a measured per-iteration overhead (the loop, the pipe, ...) is
 *    subtracted, and the result is marked untrusted when that overhead is
 *    not small against what is left.
 *
 *	static int body(void *arg, uint64_t n)
 *	{
 *		while (n--)
 *			if (work(arg))
 *				return -1;	   (after a message)
 *		return 0;
 *	}
 *	struct measure m = { .samples = 11, .warmup = 2, .min_sample_ns = 1e7 };
 *	struct measure_result res;
 *	if (measure_run(&m, body, arg, &res))	 (res.st.median: ns per op)
 *		return EXIT_FAIL;		 (after a message)
 *	measure_free(&res);
 */
#ifndef SYNCDEV_MEASURE_H
#define SYNCDEV_MEASURE_H

#include "report.h"
#include "stats.h"

#include <stdint.h>

struct measure {
	unsigned samples;	/* samples kept (>= 1) */
	unsigned warmup;	/* samples run and thrown away first */
	double min_sample_ns;	/* each sample lasts at least this long */
	uint64_t max_iters;	/* cap on iterations per sample; 0 = none */
	double overhead_ns;	/* cost per iteration to subtract */
	double ops_per_iter;	/* operations in one iteration; 0 means 1 */
};

struct measure_result {
	double *ns;		/* per-op samples, overhead subtracted */
	struct stats st;	/* summary of ns[] */
	double raw_median_ns;	/* per-op median before the subtraction */
	uint64_t iters;		/* iterations per sample */
	int trusted;		/* 0: see why */
	const char *why;	/* NULL when trusted */
};

/*
 * Runs iters iterations of the work being measured: 0, or -1 after a
 * message saying what failed (the measurement stops there).
 */
typedef int (*measure_fn)(void *arg, uint64_t iters);

/* Wall time of one call fn(arg, iters) in *ns (CLOCK_MONOTONIC); 0 or -1. */
int measure_once(measure_fn fn, void *arg, uint64_t iters, double *ns);

/*
 * Size, warm up and sample fn.  Returns 0, or -1 after a message (fn
 * failed, or samples == 0).  Free the result with measure_free().
 */
int measure_run(const struct measure *m, measure_fn fn, void *arg,
		struct measure_result *res);
void measure_free(struct measure_result *res);

/*
 * Decide whether a net figure can be printed: the subtracted overhead
 * must be less than the effect left after it, and the effect positive.
 * Returns NULL when it can, else the reason.
 */
const char *measure_distrust(double raw, double overhead);

/* An empty counted loop, as a measure_fn (the loop overhead's body). */
int measure_empty_loop(void *arg, uint64_t iters);
/* Median cost of one iteration of that loop, in ns. */
double measure_loop_overhead(const struct measure *m);

/*
 * The summary columns every experiment prints after its own leading
 * columns (n, mean, median, stddev, min, max, median_lo, median_hi:
 * the interval of the median, stats.h), and one
 * row's cells for them: numbers, or "-" for an untrusted figure.
 */
void measure_columns(struct report *r);
void measure_cells(struct report *r, const struct stats *st, int trusted);
/* The same cells, all empty, for a figure that does not apply at all. */
void measure_cells_none(struct report *r);
/*
 * The last column of a table whose rows may be untrusted, "untrusted":
 * why a row's figures are empty (measure_why()), empty when they are not.
 */
void measure_column_why(struct report *r);
void measure_why(struct report *r, const char *why);

#endif
