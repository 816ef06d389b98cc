// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the micro-benchmark machinery: the cache-boundary detector
 * on synthetic curves, statistics scaling, the trust rule of measurements
 * and the common option parser.
 */
#include "benchopt.h"
#include "cachedetect.h"
#include "check.h"
#include "measure.h"
#include "optable.h"
#include "stats.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPTS 36

/* Sizes 4 KiB .. 512 MiB, two per octave (as memlat measures them). */
static size_t sizes(double *x)
{
	size_t n = 0;
	double s;

	for (s = 4096; n < NPTS; s *= 2) {
		x[n++] = s;
		x[n++] = s * 1.5;
	}
	return n;
}

/* A latency with three cache levels: 48K, 2M and 32M. */
static double step_latency(double size)
{
	if (size <= 48 * 1024)
		return 1.5;
	if (size <= 2 * 1048576)
		return 5;
	if (size <= 32 * 1048576)
		return 30;
	return 110;
}

/* Deterministic noise in [-amp, +amp] (a small LCG, no rand()). */
static double noise(unsigned *state, double amp)
{
	*state = *state * 1103515245u + 12345u;
	return amp * (((*state >> 16) & 0x7fff) / 16383.5 - 1);
}

static void test_clean_steps(void)
{
	double x[NPTS], y[NPTS], beyond = 0;
	struct cache_level lv[8];
	size_t n = sizes(x), i;
	int k;

	for (i = 0; i < n; i++)
		y[i] = step_latency(x[i]);
	k = cache_detect(x, y, n, 0.3, lv, 8, &beyond);
	CHECK(k == 3, "clean steps: three levels (got %d)", k);
	CHECK(k == 3 && lv[0].size == 48 * 1024 && lv[1].size == 2 * 1048576 &&
	      lv[2].size == 32 * 1048576, "clean steps: sizes 48K, 2M, 32M");
	CHECK(k == 3 && lv[0].latency == 1.5 && lv[1].latency == 5 &&
	      lv[2].latency == 30, "clean steps: plateau latencies");
	CHECK(beyond == 110, "clean steps: latency beyond the caches");
}

static void test_noisy_steps(void)
{
	double x[NPTS], y[NPTS];
	struct cache_level lv[8];
	unsigned seed = 7;
	size_t n = sizes(x), i;
	int k;

	for (i = 0; i < n; i++)
		y[i] = step_latency(x[i]) * (1 + noise(&seed, 0.08));
	/* One interrupt-sized spike inside the first plateau. */
	y[3] *= 4;
	k = cache_detect(x, y, n, 0.3, lv, 8, NULL);
	CHECK(k == 3, "noisy steps: three levels despite noise and a spike "
	      "(got %d)", k);
	CHECK(k == 3 && lv[0].size == 48 * 1024 && lv[1].size == 2 * 1048576 &&
	      lv[2].size == 32 * 1048576, "noisy steps: sizes 48K, 2M, 32M");
	CHECK(k == 3 && fabs(lv[1].latency - 5) < 0.5,
	      "noisy steps: level 2 latency near 5");
}

static void test_gradual_transition(void)
{
	double x[NPTS], y[NPTS];
	struct cache_level lv[8];
	size_t n = sizes(x), i;
	int k;

	/* L2 to memory rising over four points, as real curves do. */
	for (i = 0; i < n; i++)
		y[i] = x[i] <= 1048576 ? 4 : x[i] >= 8 * 1048576 ? 100 :
		       4 * pow(25, log2(x[i] / 1048576) / 3);
	k = cache_detect(x, y, n, 0.3, lv, 8, NULL);
	CHECK(k == 1 && lv[0].size == 1048576,
	      "gradual rise: one level ending at 1M (got %d)", k);
}

static void test_no_steps(void)
{
	double x[NPTS], y[NPTS], beyond = 0;
	struct cache_level lv[8];
	unsigned seed = 3;
	size_t n = sizes(x), i;
	int k;

	for (i = 0; i < n; i++)
		y[i] = 80 * (1 + noise(&seed, 0.1));
	k = cache_detect(x, y, n, 0.3, lv, 8, &beyond);
	CHECK(k == 0, "flat noisy curve: no level (got %d)", k);
	CHECK(fabs(beyond - 80) < 8, "flat curve: its latency is 'beyond'");
}

static void test_detect_errors(void)
{
	double x[3] = { 1, 2, 3 }, y[3] = { 1, NAN, 3 }, z[3] = { 1, 0, 3 };
	struct cache_level lv[2];

	CHECK(cache_detect(x, y, 0, 0.3, lv, 2, NULL) == -1, "detect: n=0");
	CHECK(cache_detect(x, y, 3, 0.3, lv, 2, NULL) == -1, "detect: NaN");
	CHECK(cache_detect(x, z, 3, 0.3, lv, 2, NULL) == -1, "detect: zero");
}

static void test_stats_scale(void)
{
	const double s[] = { 1000, 2000, 3000 };
	struct stats st;

	stats_compute(s, 3, &st);
	stats_scale(&st, 1e-3);
	CHECK(st.mean == 2 && st.median == 2 && st.min == 1 && st.max == 3 &&
	      st.stddev == 1 && st.n == 3, "stats_scale ns to us");
	CHECK(st.ci_lo == 1 && st.ci_hi == 3 && st.ci_level == 0.75,
	      "stats_scale scales the median's interval, not its level");
}

static void test_distrust(void)
{
	CHECK(measure_distrust(10, 2) == NULL, "trusted: overhead small");
	CHECK(measure_distrust(10, 6) != NULL, "distrust: overhead > effect");
	CHECK(measure_distrust(10, 10) != NULL, "distrust: nothing left");
	CHECK(measure_distrust(10, 12) != NULL, "distrust: negative");
}

static int count_loop(void *arg, uint64_t n)
{
	volatile uint64_t *calls = arg;

	while (n--)
		++*calls;
	return 0;
}

/* Fails on its third call: after sizing has started. */
static int failing_loop(void *arg, uint64_t n)
{
	int *calls = arg;

	(void)n;
	return ++*calls >= 3 ? -1 : 0;
}

static void test_measure_run(void)
{
	struct measure m = { .samples = 5, .warmup = 2, .min_sample_ns = 1e4 };
	struct measure_result res;
	uint64_t calls = 0;
	int fails = 0;

	CHECK(measure_run(&m, count_loop, &calls, &res) == 0 && res.ns &&
	      res.st.n == 5 && res.iters >= 1, "measure_run: 5 samples");
	/* Sizing, warm-up and samples: at least 7 runs of res.iters. */
	CHECK(calls >= 7 * res.iters, "measure_run: ran warm-up and samples");
	CHECK(res.trusted && res.st.min > 0 && isfinite(res.st.max),
	      "measure_run: positive, finite, trusted");
	measure_free(&res);
	m.samples = 0;
	CHECK(measure_run(&m, count_loop, &calls, &res) == -1,
	      "measure_run: zero samples rejected");
	m.samples = 5;
	CHECK(measure_run(&m, failing_loop, &fails, &res) == -1 &&
	      fails == 3 && res.ns == NULL,
	      "measure_run: a failing body ends the measurement");
}

/* The common options alone, every group enabled, as osbench parses them. */
static int parse(struct benchopt *o, int argc, char **argv)
{
	const struct optset set = { benchopt_options, o,
				    BENCHOPT_TABLE | BENCHOPT_PLOT |
				    BENCHOPT_DIR };
	int n;

	memset(o, 0, sizeof(*o));
	n = optable_parse(&set, 1, argc, argv);
	if (n >= 0)
		benchopt_finish(o);
	return n;
}

static void test_benchopt(void)
{
	char *a1[] = { "x", "--csv", "read", "--quick", "--reps", "5",
		       "--dir", "/d", "--plot=p.svg", "rest", NULL };
	char *a2[] = { "x", "--reps", "0", NULL };
	char *a3[] = { "x", "--plot", NULL };
	char *a4[] = { "x", "--json", "--smoke", "-h", NULL };
	struct benchopt o;
	struct measure m;

	CHECK(parse(&o, 10, a1) == 2 && o.fmt == REPORT_CSV &&
	      o.mode == BENCH_QUICK && o.reps == 5 && !strcmp(o.dir, "/d") &&
	      !strcmp(o.plot, "p.svg"),
	      "benchopt: common options");
	CHECK(!strcmp(a1[1], "read") && !strcmp(a1[2], "rest") &&
	      a1[3] == NULL, "benchopt: operands kept in order");
	benchopt_measure(&o, &m);
	CHECK(m.samples == 5 && m.warmup == 1 && m.min_sample_ns == 2e6,
	      "benchopt: --reps overrides the quick mode's samples");
	CHECK(parse(&o, 3, a2) == -1, "benchopt: --reps 0 rejected");
	CHECK(parse(&o, 2, a3) == -1, "benchopt: --plot needs a value");
	CHECK(parse(&o, 4, a4) == OPTABLE_HELP, "benchopt: -h asks for help");
	CHECK(parse(&o, 3, a4) == 0 && o.fmt == REPORT_JSON &&
	      o.mode == BENCH_SMOKE && o.dir[0] == '/',
	      "benchopt: --json --smoke, default --dir");
	benchopt_measure(&o, &m);
	CHECK(m.samples == 3 && !strcmp(benchopt_mode_name(&o), "smoke") &&
	      benchopt_pick(&o, 1, 2, 3) == 3, "benchopt: smoke defaults");
}

struct t_opts {
	bool r, w;
	uint64_t size, count, ns;
	const char *name;
};

static const struct opt t_table[] = {
	{ .letter = 'r', .kind = OPT_FLAG, .off = offsetof(struct t_opts, r),
	  .help = "read" },
	{ .letter = 'w', .kind = OPT_FLAG, .off = offsetof(struct t_opts, w),
	  .help = "write" },
	{ .name = "size", .kind = OPT_SIZE, .arg = "SIZE", .min = 2,
	  .max = 1 << 20, .def = "4K", .off = offsetof(struct t_opts, size),
	  .help = "a size" },
	{ .name = "count", .kind = OPT_UINT, .arg = "N", .min = 1,
	  .off = offsetof(struct t_opts, count), .help = "a count" },
	{ .name = "time", .kind = OPT_SECONDS, .arg = "S",
	  .off = offsetof(struct t_opts, ns), .help = "a time" },
	{ .name = "name", .kind = OPT_STR, .arg = "X", .group = 1,
	  .refused = "%s takes no --name",
	  .off = offsetof(struct t_opts, name), .help = "a name" },
	{ 0 },
};

static int t_parse(struct t_opts *t, unsigned int groups, int argc,
		   char **argv)
{
	const struct optset set = { t_table, t, groups };

	memset(t, 0, sizeof(*t));
	return optable_parse(&set, 1, argc, argv);
}

static void test_optable(void)
{
	char *a1[] = { "x", "f", "-rw", "--size", "1M", "--count=3", "g",
		       "--time", "0.5", "--", "-r", NULL };
	char *a2[] = { "x", "--size", "1G", NULL };
	char *a3[] = { "x", "--name", "n", NULL };
	char *a4[] = { "x", "--bogus", NULL };
	char *a5[] = { "x", "-r=1", NULL };
	char *a6[] = { "x", "--count", "0", NULL };
	struct t_opts t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(t_parse(&t, 0, 11, a1) == 3 && t.r && t.w &&
	      t.size == 1 << 20 && t.count == 3 && t.ns == 500000000,
	      "optable: letters together, --x v, --x=v, seconds");
	CHECK(!strcmp(a1[1], "f") && !strcmp(a1[2], "g") &&
	      !strcmp(a1[3], "-r") && !a1[4],
	      "optable: operands in order, \"--\" ends the options");
	CHECK(t_parse(&t, 0, 1, a1) == 0 && t.size == 4096 && !t.r,
	      "optable: defaults stored first");
	CHECK(t_parse(&t, 0, 3, a2) == -1, "optable: size above max refused");
	CHECK(t_parse(&t, 0, 3, a3) == -1 && t_parse(&t, 1, 3, a3) == 0 &&
	      !strcmp(t.name, "n"), "optable: an option of a group not enabled");
	CHECK(t_parse(&t, 0, 2, a4) == -1, "optable: unknown option");
	CHECK(t_parse(&t, 0, 2, a5) == -1, "optable: a flag takes no value");
	CHECK(t_parse(&t, 0, 3, a6) == -1, "optable: count below min");
	f = open_memstream(&buf, &len);
	optable_help(f, &(struct optset){ t_table, NULL, 0 });
	fclose(f);
	CHECK(buf && strstr(buf, "  -r             read\n") &&
	      strstr(buf, "  --size SIZE    a size (default 4K)\n") &&
	      !strstr(buf, "--name"),
	      "optable: help from the table, groups not enabled left out");
	free(buf);
}

int main(void)
{
	test_clean_steps();
	test_noisy_steps();
	test_gradual_transition();
	test_no_steps();
	test_detect_errors();
	test_stats_scale();
	test_distrust();
	test_measure_run();
	test_benchopt();
	test_optable();
	return check_done();
}
