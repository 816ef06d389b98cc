/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The criteria of a case and the rubric that weighs them
 * (scripts/grade/grade.rubric; docs/grading.md, "Criteria and the rubric").
 */
#ifndef GRADECLASS_RUBRIC_H
#define GRADECLASS_RUBRIC_H

#include "csv.h"

#include <stdio.h>

/* The criteria, in the order of the reports' columns. */
enum { NCRIT = 5 };
extern const char *const criteria[NCRIT];

/* A rubric: its lines in the file's order. */
struct rubric {
	struct rubric_line {
		int crit;		/* index in criteria[] */
		unsigned long weight;
		int required;
	} line[NCRIT];
	int n;
	/*
	 * "strict_time_line yes": only the course's exact time line with the
	 * bytes passes time_line (no text around it, no size / 8).
	 */
	int strict_time_line;
	/*
	 * "legacy_send_result zero": the legacy SEND number returns 0 in the
	 * guests (syncdev's module parameter); "bytes", the default: the
	 * bytes sent, as most of the course's public modules did.
	 */
	int legacy_send_zero;
	/*
	 * "legacy_read starter": a legacy slave's read() takes one 512-byte
	 * unit of the stream, as the 2020 course's starter module; "fill",
	 * the default: the count (syncdev's module parameter legacy_read).
	 */
	int legacy_read_starter;
};

/*
 * Parse a rubric from f (name for messages): "CRITERION WEIGHT
 * required|optional" lines, "strict_time_line yes|no",
 * "legacy_send_result bytes|zero", "legacy_read fill|starter", # comments.  Returns 0, or -1 after saying
 * what is wrong (msg: the file, the line and why).
 */
int rubric_parse(FILE *f, const char *name, struct rubric *r);
/* rubric_parse of a file; -1 with a message when it cannot be read. */
int rubric_read(const char *path, struct rubric *r);

/*
 * A case's score, 0..1: 0 when a required criterion did not pass, else
 * the weighted share of the criteria that apply and passed (1 when none
 * applies).  The case's "<criterion>_ok" cells are pass, fail, n/a or
 * not-run.
 */
double case_score(const struct rec *row, const struct rubric *r);

/* "bytes 50 (required), exits 10, ...": the rubric for the reports. */
void rubric_describe(FILE *f, const struct rubric *r);

#endif
