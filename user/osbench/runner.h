/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running the CMD_ALL experiments one after the other for "all" and
 * "report": each with its defaults and the runner's context, its table
 * into one output, and a failure reported (its last message) rather than
 * ending the run.
 */
#ifndef OSBENCH_RUNNER_H
#define OSBENCH_RUNNER_H

#include "experiment.h"

struct tally {
	unsigned int ran, failed;
	char names[256];	/* the failed ones, ", "-separated */
};

/*
 * Run cmd with base's options (out, format, mode, reps, plot, dir,
 * summary): its table goes to out, or on failure, when it printed none,
 * a table of one note "failed" with the reason; its figures go into
 * base->summary only when it succeeded.  Returns its exit code.
 */
int runner_one(const struct command *cmd, const struct ctx *base,
	       struct tally *t);

/* The figures of an experiment that succeeded, into the report's. */
void keep_figures(struct summary *to, const struct summary *from);

/* EXIT_OK, or after the line "N of M experiments failed (...)" EXIT_FAIL. */
int runner_done(const struct tally *t);

#endif
