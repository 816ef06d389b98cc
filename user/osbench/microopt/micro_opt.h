/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osbench micro-opt in three parts: micro_opt.c (the command),
 * micro_opt_fig.c (one build's figures, and the --this-build table) and
 * micro_opt_cmp.c (running the -O0 build beside this one and the
 * side-by-side table).
 */
#ifndef OSBENCH_MICRO_OPT_H
#define OSBENCH_MICRO_OPT_H

#include "experiment.h"
#include "report.h"
#include "runner.h"
#include "report/figures.h"

#include <stdbool.h>

/* Run experiment name in this program, its figures into s (table dropped). */
int mo_measure_here(const struct ctx *c, const char *name,
		    struct summary *s, struct tally *t);

/*
 * Figure f of s as cells: n, median, median_lo, median_hi; "-" where it
 * is not measured or has no samples.
 */
void mo_stat_cells(struct report *r, const struct summary *s, enum figure f);

/* Figure f is one micro-opt compares: measured, and micro/'s own code. */
bool mo_compared(const struct summary *s, enum figure f);

/*
 * --this-build: every experiment of experiments (comma-separated) here,
 * one row per figure on c->out.  The exit code.
 */
int mo_this_build(const struct ctx *c, const char *experiments);

/* PATH of file in this program's directory (malloc'd), or NULL. */
char *mo_beside_self(const char *file);

/*
 * Every experiment of list (comma-separated) here, then in the -O0 build
 * o0 (o0_name in the table's notes); the side-by-side table on c->out.
 * The exit code.
 */
int mo_compare(const struct ctx *c, const char *list, const char *o0,
	       const char *o0_name);

#endif
