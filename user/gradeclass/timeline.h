/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time-line criterion, judged on the host from what a program
 * printed (results/VMS/CASE.SIDE.out): the course's sentence
 * "Transmission time: T ms, File size: B bytes", once with the total or
 * once per file adding up to it, or a "Total transmission time: T ms,
 * Total file size: B bytes" summary; other lines are ignored.  Unless
 * strict, text around the sentence and the starter code's size (the
 * bytes / 8, of the total, of each file, or of the last file when the
 * program runs once per file) pass too (docs/grading.md, "The time line").
 */
#ifndef GRADECLASS_TIMELINE_H
#define GRADECLASS_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

/* What the time line is judged against. */
struct timeline_want {
	const uint64_t *sizes;	/* each file's size, in the data set's order */
	size_t nfiles;
	int strict;		/* the rubric's strict_time_line */
	int per_file_runs;	/* the command line takes one file a run */
};

struct timeline {
	int pass;
	char why[256];		/* when it did not pass */
	char line[201];		/* the last time line seen, cleaned */
	char ms[32];		/* its milliseconds, "" when none */
	const char *form;	/* strict, prefixed, size/8, prefixed+size/8 */
};

/* Judge the len bytes of out (a program's output). */
void timeline_judge(const char *out, size_t len,
		    const struct timeline_want *w, struct timeline *t);

#endif
