/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options every experiment shares, as an option table (optable.h):
 *
 *	--csv | --json   output format (text by default)
 *	--quick          fewer, shorter samples and smaller sizes
 *	--smoke          tiny sizes and counts: checks that it runs, not how fast
 *	--reps N         samples per figure (each command says its default)
 *	--plot FILE      draw the curve (experiments that have one)
 *	--dir DIR        where scratch files go (default $TMPDIR or /var/tmp)
 *
 * Each belongs to a group that a command enables or not: a table printer
 * takes the first four, --plot only a command that draws, --dir only one
 * that writes scratch files.
 */
#ifndef SYNCDEV_BENCHOPT_H
#define SYNCDEV_BENCHOPT_H

#include "measure.h"
#include "optable.h"
#include "report.h"

#include <stdint.h>
#include <stdio.h>

enum bench_mode { BENCH_FULL, BENCH_QUICK, BENCH_SMOKE };

/* The groups of benchopt_options (optable.h "group"). */
enum benchopt_group {
	BENCHOPT_TABLE = 1,	/* --csv --json --quick --smoke --reps */
	BENCHOPT_PLOT = 2,	/* --plot */
	BENCHOPT_DIR = 4,	/* --dir */
};

struct benchopt {
	enum report_format fmt;
	enum bench_mode mode;
	uint64_t reps;		/* 0: the mode's default */
	const char *plot;	/* NULL: no plot */
	const char *dir;	/* scratch directory */
};

/* The table, for an optset whose dst is a struct benchopt. */
extern const struct opt benchopt_options[];

/* After parsing: the default --dir when none was given. */
void benchopt_finish(struct benchopt *o);

/* Samples per figure without --reps: full, --quick, --smoke. */
extern const unsigned int benchopt_reps[3];

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
