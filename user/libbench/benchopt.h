/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options every experiment accepts, parsed in one place:
 *
 *	--csv | --json   output format (text by default)
 *	--quick          fewer, shorter samples and smaller sizes
 *	--smoke          tiny sizes and counts: checks that it runs, not how fast
 *	--reps N         samples per figure (default 11, quick 7, smoke 3)
 *	--plot FILE      draw the curve (experiments that have one)
 *	--dir DIR        where scratch files go (default $TMPDIR or /var/tmp)
 *	--help, -h
 *
 * benchopt_parse() removes these from argv and leaves the experiment's own
 * arguments, in order, for it to parse.
 */
#ifndef SYNCDEV_BENCHOPT_H
#define SYNCDEV_BENCHOPT_H

#include "measure.h"
#include "report.h"

#include <stdio.h>

enum bench_mode { BENCH_FULL, BENCH_QUICK, BENCH_SMOKE };

struct benchopt {
	enum report_format fmt;
	enum bench_mode mode;
	unsigned reps;		/* 0: the mode's default */
	const char *plot;	/* NULL: no plot */
	const char *dir;	/* scratch directory */
	int dir_given;		/* --dir was given, not the default */
	int help;		/* --help was given */
};

/*
 * Parse and remove the common options.  Returns 0, or -1 after printing
 * what was wrong (the caller exits with EXIT_USAGE).
 */
int benchopt_parse(struct benchopt *o, int *argc, char **argv);

/* The help lines for the common options, for each experiment's --help. */
void benchopt_usage(FILE *f);

/* Sample count, warm-up and sample length for the chosen mode. */
void benchopt_measure(const struct benchopt *o, struct measure *m);

/* "full", "quick" or "smoke". */
const char *benchopt_mode_name(const struct benchopt *o);

/* Pick a size by mode: the full value, the quick one, the smoke one. */
static inline unsigned long long benchopt_pick(const struct benchopt *o,
					       unsigned long long full,
					       unsigned long long quick,
					       unsigned long long smoke)
{
	return o->mode == BENCH_FULL ? full :
	       o->mode == BENCH_QUICK ? quick : smoke;
}

#endif
