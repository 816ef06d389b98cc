/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The operating-system micro-benchmarks (docs/microbench.md): one
 * experiment per file, each an osbench command (command_table.h), and the
 * helpers they share.
 */
#ifndef OSBENCH_MICRO_H
#define OSBENCH_MICRO_H

#include "benchopt.h"
#include "experiment.h"
#include "measure.h"
#include "report.h"

#include <stdbool.h>
#include <stdio.h>

/* One loop an experiment times: its row's name, its summary figure
 * (FIG_COUNT: none) and the loop. */
struct mb_loop {
	const char *name;
	enum figure fig;
	measure_fn fn;
};

/* A report on c->out with the conditions every experiment states. */
struct report *mb_report_new(const struct ctx *c, const char *title,
			     const struct measure *m);

/*
 * Progress line on stderr for long experiments; a no-op in smoke mode.
 */
void mb_progress(const struct benchopt *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * True when this program's micro-benchmarks were compiled with
 * optimisation (osbench), false without (osbench-O0: micro-opt).
 */
bool micro_optimised(void);

#endif
