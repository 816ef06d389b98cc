// SPDX-License-Identifier: GPL-2.0
/*
 * osbench overhead: what measuring costs.  Every other experiment times
 * loops, so the cost of one loop iteration and of reading each clock is
 * the floor under all of their figures and what they subtract.
 *
 * Each clock is read back to back in a counted loop; the per-read figure
 * is the loop's time divided by the reads, less one empty iteration (the
 * lmbench method).  That is the cost a benchmark pays per reading, not the
 * latency from one instruction to the next.
 */
#include "micro.h"
#include "timing.h"
#include "util.h"

#include <time.h>

static volatile uint64_t sink;

static int loop_rdtsc(void *arg, uint64_t n)
{
	uint64_t acc = 0;

	(void)arg;
	while (n--)
		acc += tsc_read();
	sink = acc;
	return 0;
}

static int loop_rdtsc_fenced(void *arg, uint64_t n)
{
	uint64_t acc = 0;

	(void)arg;
	while (n--)
		acc += tsc_read_fenced();
	sink = acc;
	return 0;
}

static int loop_rdtscp(void *arg, uint64_t n)
{
	uint64_t acc = 0;

	(void)arg;
	while (n--)
		acc += tsc_read_p();
	sink = acc;
	return 0;
}

static int loop_clock_gettime(void *arg, uint64_t n)
{
	struct timespec ts;
	uint64_t acc = 0;

	(void)arg;
	while (n--) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		acc += (uint64_t)ts.tv_nsec;
	}
	sink = acc;
	return 0;
}

static const struct mb_loop clocks[] = {
	{ "rdtsc", FIG_RDTSC, loop_rdtsc },
	{ "lfence;rdtsc", FIG_RDTSC_FENCED, loop_rdtsc_fenced },
	{ "rdtscp", FIG_RDTSCP, loop_rdtscp },
	{ "clock_gettime(MONOTONIC)", FIG_CLOCK_GETTIME, loop_clock_gettime },
};

static void row(struct report *r, const char *name,
		const struct measure_result *res)
{
	report_str(r, name);
	measure_cells(r, &res->st, res->trusted);
	report_str(r, "ns");
	if (res->trusted)
		report_num(r, res->st.median * tsc_ghz());
	else
		report_none(r);
	measure_why(r, res->why);
}

/* A clock this CPU has not: a row without figures, and a note. */
static void row_absent(struct report *r, const char *name)
{
	report_str(r, name);
	measure_cells_none(r);
	report_str(r, "ns");
	report_none(r);
	measure_why(r, "not measured: this CPU does not run it (SIGILL)");
}

static const char usage[] =
	"usage: osbench overhead [options]\n\n"
	"Cost of one empty loop iteration and of reading the clock with\n"
	"rdtsc, lfence;rdtsc, rdtscp and clock_gettime(CLOCK_MONOTONIC), in\n"
	"ns and TSC cycles.  The loop cost is subtracted from the clocks.\n";

static int overhead_run(const struct ctx *c, const void *opts)
{
	struct measure m;
	struct measure_result res;
	struct report *r;
	double loop;
	size_t i;

	(void)opts;
	benchopt_measure(&c->o, &m);
	if (!TIMING_HAVE_TSC)
		msg("no TSC on this architecture: the rdtsc rows read "
		    "CLOCK_MONOTONIC");

	r = mb_report_new(c, "overhead", &m);
	report_note(r, "subtracted", "one empty loop iteration from each "
		    "clock read");
	report_column(r, "test", NULL);
	measure_columns(r);
	report_column(r, "unit", NULL);
	report_column(r, "cycles", NULL);
	measure_column_why(r);

	/* The empty loop itself, with nothing subtracted. */
	if (measure_run(&m, measure_empty_loop, NULL, &res)) {
		report_free(r);
		return EXIT_FAIL;
	}
	loop = res.st.median;
	row(r, "loop iteration", &res);
	measure_free(&res);
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		m.overhead_ns = loop;
		if (clocks[i].fn == loop_rdtscp && !tsc_have_rdtscp()) {
			row_absent(r, clocks[i].name);
			continue;
		}
		if (measure_run(&m, clocks[i].fn, NULL, &res)) {
			report_free(r);
			return EXIT_FAIL;
		}
		row(r, clocks[i].name, &res);
		if (res.trusted)
			ctx_figure_st(c, clocks[i].fig, &res.st, "ns");
		measure_free(&res);
	}
	ctx_figure(c, FIG_LOOP, loop, "ns");
	report_note(r, "loop_iteration", "%.3g ns = %.3g cycles (empty "
		    "counted loop, median)", loop, loop * tsc_ghz());
	return report_end(r) ? EXIT_FAIL : EXIT_OK;
}

OSBENCH_COMMAND(overhead, "overhead", CMD_TABLE | CMD_ALL,
		"cost of a loop iteration and of reading the clock");
