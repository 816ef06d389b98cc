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

static void loop_rdtsc(void *arg, uint64_t n)
{
	uint64_t acc = 0;

	(void)arg;
	while (n--)
		acc += tsc_read();
	sink = acc;
}

static void loop_rdtsc_fenced(void *arg, uint64_t n)
{
	uint64_t acc = 0;

	(void)arg;
	while (n--)
		acc += tsc_read_fenced();
	sink = acc;
}

static void loop_rdtscp(void *arg, uint64_t n)
{
	uint64_t acc = 0;

	(void)arg;
	while (n--)
		acc += tsc_read_p();
	sink = acc;
}

static void loop_clock_gettime(void *arg, uint64_t n)
{
	struct timespec ts;
	uint64_t acc = 0;

	(void)arg;
	while (n--) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		acc += (uint64_t)ts.tv_nsec;
	}
	sink = acc;
}

static const struct {
	const char *name;
	const char *key;
	measure_fn fn;
} clocks[] = {
	{ "rdtsc", "rdtsc", loop_rdtsc },
	{ "lfence;rdtsc", "rdtsc_fenced", loop_rdtsc_fenced },
	{ "rdtscp", "rdtscp", loop_rdtscp },
	{ "clock_gettime(MONOTONIC)", "clock_gettime", loop_clock_gettime },
};

static const char usage[] =
	"usage: osbench overhead [options]\n\n"
	"Cost of one empty loop iteration and of reading the clock with\n"
	"rdtsc, lfence;rdtsc, rdtscp and clock_gettime(CLOCK_MONOTONIC), in\n"
	"ns and TSC cycles.  The loop cost is subtracted from the clocks.\n\n";

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
}

int mb_overhead(int argc, char **argv)
{
	struct benchopt o;
	struct measure m;
	struct measure_result res;
	struct report *r;
	double loop;
	size_t i;
	int rc = mb_begin_noargs(&o, argc, argv, usage);

	if (rc != MB_GO)
		return rc;
	benchopt_measure(&o, &m);
	if (!TIMING_HAVE_TSC)
		msg("no TSC on this architecture: the rdtsc rows read "
		    "CLOCK_MONOTONIC");

	r = mb_report_new("overhead", &o, &m);
	report_note(r, "subtracted", "one empty loop iteration from each "
		    "clock read");
	report_column(r, "test", NULL);
	measure_columns(r);
	report_column(r, "unit", NULL);
	report_column(r, "cycles", NULL);

	/* The empty loop itself, with nothing subtracted. */
	if (measure_run(&m, measure_empty_loop, NULL, &res))
		die_errno("measure");
	loop = res.st.median;
	row(r, "loop iteration", &res);
	measure_free(&res);
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		m.overhead_ns = loop;
		if (measure_run(&m, clocks[i].fn, NULL, &res))
			die_errno("measure %s", clocks[i].name);
		row(r, clocks[i].name, &res);
		if (res.trusted)
			mb_summary(clocks[i].key, res.st.median, "ns");
		measure_free(&res);
	}
	mb_summary("loop", loop, "ns");
	report_note(r, "loop_iteration", "%.3g ns = %.3g cycles (empty "
		    "counted loop, median)", loop, loop * tsc_ghz());
	return report_end(r) ? EXIT_FAIL : EXIT_OK;
}
