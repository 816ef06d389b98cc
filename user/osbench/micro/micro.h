/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The operating-system micro-benchmarks (docs/microbench.md): one
 * experiment per mb_*.c file, each an osbench subcommand, and the helpers
 * they share inside osbench.
 */
#ifndef OSBENCH_MICRO_H
#define OSBENCH_MICRO_H

#include "benchopt.h"
#include "measure.h"
#include "report.h"

#include <stdio.h>

int mb_overhead(int argc, char **argv);
int mb_call(int argc, char **argv);
int mb_syscall(int argc, char **argv);
int mb_spawn(int argc, char **argv);
int mb_ctxsw(int argc, char **argv);
int mb_memlat(int argc, char **argv);
int mb_membw(int argc, char **argv);
int mb_pagefault(int argc, char **argv);
int mb_fileaccess(int argc, char **argv);
int mb_machine(int argc, char **argv);
int mb_all(int argc, char **argv);
int mb_report(int argc, char **argv);

/* Every experiment, in the order "all" and "report" run them. */
struct mb_experiment {
	const char *name;
	int (*run)(int argc, char **argv);
};
extern const struct mb_experiment mb_experiments[];	/* NULL-ended */

/*
 * Run one experiment as "osbench NAME" with the given common options
 * (mode, format, samples, scratch dir) and extra arguments (NULL-ended).
 */
int mb_run_experiment(const struct mb_experiment *e,
		      const struct benchopt *o, const char *const *extra);

/* mb_begin() result that means "go on and run the experiment". */
#define MB_GO (-1)

/*
 * Parse the common options (benchopt.h).  On --help prints usage and the
 * common options; returns the exit code to return at once, or MB_GO.
 */
int mb_begin(struct benchopt *o, int *argc, char **argv, const char *usage);

/* mb_begin for an experiment without arguments of its own. */
int mb_begin_noargs(struct benchopt *o, int argc, char **argv,
		    const char *usage);

/* Usage error about an argument of this experiment: message, EXIT_USAGE. */
int mb_bad_arg(const char *arg);

/* A report on mb_out() with the conditions every experiment states. */
struct report *mb_report_new(const char *title, const struct benchopt *o,
			     const struct measure *m);

/* Where experiments print (stdout unless "osbench report" redirects). */
FILE *mb_out(void);
void mb_set_out(FILE *f);

/*
 * Headline figures for "osbench report": experiments record them here and
 * the report turns them into its summary table.  Recording is off (a no-op)
 * unless mb_summary_enable() was called.
 */
struct mb_figure {
	char key[32];
	double value;
	char unit[16];
};
void mb_summary_enable(void);
void mb_summary(const char *key, double value, const char *unit);
/* The recorded figure for key, or NULL. */
const struct mb_figure *mb_summary_get(const char *key);

/* Progress line on stderr for long experiments, unless output is a pipe
 * nobody reads; a no-op in smoke mode.
 */
void mb_progress(const struct benchopt *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
