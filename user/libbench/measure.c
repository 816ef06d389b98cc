// SPDX-License-Identifier: GPL-2.0
#include "measure.h"
#include "timing.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>

int measure_once(measure_fn fn, void *arg, uint64_t iters, double *ns)
{
	uint64_t t0 = now_ns();

	if (fn(arg, iters))
		return -1;
	*ns = (double)(now_ns() - t0);
	return 0;
}

/*
 * Smallest count whose run lasts min_ns, growing geometrically from 1:
 * 0 with *out, or -1 when fn failed.
 */
static int size_iters(const struct measure *m, measure_fn fn, void *arg,
		      uint64_t *out)
{
	uint64_t iters = 1;
	double t;

	for (;;) {
		*out = iters;
		if (measure_once(fn, arg, iters, &t))
			return -1;
		if (t >= m->min_sample_ns)
			return 0;
		if (m->max_iters && iters >= m->max_iters)
			return 0;
		/* A body that does no work per iteration never gets long. */
		if (iters >= (1ull << 40))
			return 0;
		/* Aim 20% past the target but never grow more than 16x at
		 * once: the first, cold runs are slow and would undershoot.
		 */
		if (t < m->min_sample_ns / 16)
			iters *= 16;
		else
			iters = (uint64_t)((double)iters * 1.2 *
					   m->min_sample_ns / t) + 1;
		if (m->max_iters && iters > m->max_iters)
			iters = m->max_iters;
	}
}

const char *measure_distrust(double raw, double overhead)
{
	if (raw - overhead <= 0)
		return "overhead larger than the measured time";
	if (overhead > raw - overhead)
		return "overhead larger than the effect";
	return NULL;
}

/* Warm-up and samples: raw[] and res->ns[] per op.  0, or -1 (fn failed). */
static int sample(const struct measure *m, measure_fn fn, void *arg,
		  struct measure_result *res, double *raw)
{
	double ops = m->ops_per_iter > 0 ? m->ops_per_iter : 1, t;
	unsigned i;

	if (size_iters(m, fn, arg, &res->iters))
		return -1;
	for (i = 0; i < m->warmup; i++)
		if (measure_once(fn, arg, res->iters, &t))
			return -1;
	for (i = 0; i < m->samples; i++) {
		if (measure_once(fn, arg, res->iters, &t))
			return -1;
		t /= (double)res->iters;
		raw[i] = t / ops;
		res->ns[i] = (t - m->overhead_ns) / ops;
	}
	return 0;
}

int measure_run(const struct measure *m, measure_fn fn, void *arg,
		struct measure_result *res)
{
	double ops = m->ops_per_iter > 0 ? m->ops_per_iter : 1;
	double *raw;
	struct stats rs;

	res->ns = NULL;
	if (m->samples == 0) {
		msg("measure: no samples asked for");
		return -1;
	}
	raw = xcalloc(m->samples, sizeof(*raw));
	res->ns = xcalloc(m->samples, sizeof(*res->ns));
	if (sample(m, fn, arg, res, raw)) {
		free(raw);
		measure_free(res);
		return -1;
	}
	stats_compute(raw, m->samples, &rs);
	stats_compute(res->ns, m->samples, &res->st);
	res->raw_median_ns = rs.median;
	res->why = measure_distrust(rs.median * ops, m->overhead_ns);
	/* A sample of fewer than 1000 clock ticks has > 0.1% quantisation. */
	if (!res->why && rs.median * ops * (double)res->iters <
			 1000 * clock_resolution_ns())
		res->why = "samples too short for the clock";
	res->trusted = !res->why;
	free(raw);
	return 0;
}

void measure_free(struct measure_result *res)
{
	free(res->ns);
	res->ns = NULL;
}

int measure_empty_loop(void *arg, uint64_t n)
{
	(void)arg;
	while (n--)
		__asm__ __volatile__("");
	return 0;
}

double measure_loop_overhead(const struct measure *m)
{
	struct measure lm = *m;
	struct measure_result res;
	double ns;

	lm.overhead_ns = 0;
	lm.ops_per_iter = 1;
	lm.max_iters = 0;
	if (measure_run(&lm, measure_empty_loop, NULL, &res))
		return 0;
	ns = res.st.median;
	measure_free(&res);
	return ns;
}

/* The n column and the seven figures of measure_cells(). */
#define MEASURE_NCELLS 8

void measure_columns(struct report *r)
{
	static const char *const names[MEASURE_NCELLS] = {
		"n", "mean", "median", "stddev", "min", "max",
		"median_lo", "median_hi",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		report_column(r, names[i], NULL);
}

void measure_cells(struct report *r, const struct stats *st, int trusted)
{
	const double v[] = {
		st->mean, st->median, st->stddev, st->min, st->max,
		st->ci_lo, st->ci_hi,
	};
	size_t i;

	report_num(r, (double)st->n);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (trusted)
			report_num(r, v[i]);
		else
			report_none(r);
	}
}

void measure_column_why(struct report *r)
{
	report_column(r, "untrusted", NULL);
}

void measure_why(struct report *r, const char *why)
{
	if (why)
		report_str(r, why);
	else
		report_none(r);
}

void measure_cells_none(struct report *r)
{
	size_t i;

	for (i = 0; i < MEASURE_NCELLS; i++)
		report_none(r);
}
