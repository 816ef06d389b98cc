/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A class as the reports see it: each student's summary row (from their
 * results.csv and times.csv), their failures by kind (failures.csv), and
 * the totals per case across the class.
 */
#ifndef GRADECLASS_CLASS_H
#define GRADECLASS_CLASS_H

#include "csv.h"
#include "options.h"
#include "rubric.h"
#include "times.h"

#include <stddef.h>
#include <stdio.h>

/*
 * The version summary.json opens with; a reader (merge) refuses another.
 * A change of its fields' names or meanings takes the next number.
 */
#define GRADECLASS_FORMAT_VERSION 1

/* A student's row of summary.csv. */
struct student {
	char *name;
	size_t cases, passed, failed, not_run;
	char crit[NCRIT][8];	/* percent of the cases it applies to, or "" */
	char score[32];		/* the weighted score in percent, "%.1f" */
	const char *result;	/* pass, fail or not-graded */
	char *first_failure;
	struct times times;	/* from their times.csv */
};

/* A case's totals across the class (a row of cases.csv). */
struct case_total {
	const char *vms, *name;
	size_t students, passed, failed, not_run;
	size_t crit_failed[NCRIT];
};

/* A growing array of records. */
struct recs {
	struct rec *v;
	size_t n, cap;
};

struct class {
	struct options opts;
	struct rubric rubric;
	struct student *students;
	size_t nstudents;
	struct table **tables;	/* every file read, kept for the records */
	size_t ntables;
	struct recs results, failures;
	struct case_total *totals;	/* in the order cases first appear */
	size_t ntotals;
};

/* s from a student's results rows[0..n). */
void student_summary(struct student *s, const char *name,
		     const struct rec *rows, size_t n, const struct rubric *r);
/* c->totals from c->results. */
void class_totals(struct class *c);
/* The indexes of c->totals, most failed (failed + not run) first. */
size_t *totals_order(const struct class *c);
/*
 * The names in a students file, one a line (blank lines skipped),
 * NULL-terminated; NULL after a message when it cannot be read.
 */
char **read_names(const char *path);
/* Add the rows of a table to recs. */
void recs_add(struct recs *rs, const struct table *t);

/* dir/name written by fn(f, c); -1 after a message when it fails. */
int write_file(const struct class *c, const char *dir, const char *name,
	       void (*fn)(FILE *, const struct class *));
/* summary.csv and .json, results.csv, failures.csv and cases.csv into dir. */
int write_tables(const struct class *c, const char *dir);
/* summary.csv and summary.json alone. */
int write_tables_summary(const struct class *c, const char *dir);
/* The class's report.md and report.html. */
void report_md(FILE *f, const struct class *c);
void report_html(FILE *f, const struct class *c);
/*
 * The batch's description lines (kernel, cases, accelerator, time, ...),
 * on both reports; free each.
 */
#define NDESCRIBE 7
size_t class_describe(const struct class *c, char *lines[NDESCRIBE]);
/*
 * "time: T s for the N students timed, a mean of M s each" (T the sum of
 * their total_s, M rounded), with how many were not timed, or "time: not
 * recorded".  Free it.
 */
char *class_time(const struct class *c);

/*
 * The subcommands; each returns the exit status: 0 every case of every
 * student passed, 1 one did not, 2 bad input (said on stderr).
 */
int summarize(const char *out);
int summarize_single(const char *out);
/* Print the score of the cases of a results.csv, weighed by a rubric. */
int score(const char *rubric, const char *results);
int diff_options(const char *a, const char *b);
int merge(const char *out, char **dirs, int ndirs);
/*
 * Check a rubric; print one setting when asked (print: 1 strict_time_line
 * as 1 or 0, 2 legacy_send_result, 3 legacy_read).
 */
int check_rubric(const char *path, int print);

#endif
