// SPDX-License-Identifier: GPL-2.0
#include "benchopt.h"
#include "plot.h"
#include "util.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* --plot: refuse a bad name before minutes of measuring. */
static int plot_value(const char *what, const char *v, void *dst)
{
	(void)what;
	if (plot_check_path(v))
		return -1;
	*(const char **)dst = v;
	return 0;
}

#define BO(field) offsetof(struct benchopt, field)

const struct opt benchopt_options[] = {
	{ .name = "csv", .kind = OPT_SETINT, .off = BO(fmt),
	  .min = REPORT_CSV, .group = BENCHOPT_TABLE,
	  .help = "CSV for machines (default: a table for people)" },
	{ .name = "json", .kind = OPT_SETINT, .off = BO(fmt),
	  .min = REPORT_JSON, .group = BENCHOPT_TABLE,
	  .help = "JSON for machines" },
	{ .name = "quick", .kind = OPT_SETINT, .off = BO(mode),
	  .min = BENCH_QUICK, .group = BENCHOPT_TABLE,
	  .help = "fewer and shorter runs, smaller sizes" },
	{ .name = "smoke", .kind = OPT_SETINT, .off = BO(mode),
	  .min = BENCH_SMOKE, .group = BENCHOPT_TABLE,
	  .help = "tiny sizes and counts: checks it runs, not how fast" },
	{ .name = "reps", .kind = OPT_UINT, .off = BO(reps), .arg = "N",
	  .min = 1, .max = 100000, .group = BENCHOPT_TABLE,
	  .help = "samples (timed runs) per figure" },
	{ .name = "plot", .kind = OPT_CALL, .off = BO(plot), .arg = "FILE",
	  .parse = plot_value, .group = BENCHOPT_PLOT,
	  .refused = "%s has no curve to --plot",
	  .help = "draw the curve with gnuplot (.svg, .png, .txt);\n"
		  "FILE.dat and FILE.gp are written beside it" },
	{ .name = "dir", .kind = OPT_STR, .off = BO(dir), .arg = "DIR",
	  .group = BENCHOPT_DIR,
	  .refused = "%s writes no scratch files: no --dir",
	  .help = "scratch files (default $TMPDIR or /var/tmp)" },
	{ 0 },
};

void benchopt_finish(struct benchopt *o)
{
	const char *tmp = getenv("TMPDIR");

	if (!o->dir)
		o->dir = tmp && *tmp ? tmp : "/var/tmp";
}

const unsigned int benchopt_reps[3] = { 11, 7, 3 };

void benchopt_measure(const struct benchopt *o, struct measure *m)
{
	static const unsigned int warmup[3] = { 2, 1, 1 };
	static const double min_sample_ns[3] = { 10e6, 2e6, 50e3 };

	memset(m, 0, sizeof(*m));
	m->samples = o->reps ? o->reps : benchopt_reps[o->mode];
	m->warmup = warmup[o->mode];
	m->min_sample_ns = min_sample_ns[o->mode];
}

const char *benchopt_mode_name(const struct benchopt *o)
{
	static const char *const names[] = { "full", "quick", "smoke" };

	return names[o->mode];
}
