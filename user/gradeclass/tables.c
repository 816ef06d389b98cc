// SPDX-License-Identifier: GPL-2.0
/*
 * The class's CSV files: summary.csv, results.csv, failures.csv and
 * cases.csv (columns in docs/grading.md, "Read the results"), and
 * summary.csv's table as summary.json.
 */
#include "class.h"
#include "json.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Open dir/name for writing; NULL after a message. */
static FILE *create(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	if (!f)
		msg("%s: %s", path, strerror(errno));
	free(path);
	return f;
}

/* Close f, saying so when what was written did not all arrive. */
static int finish(FILE *f, const char *dir, const char *name)
{
	int bad = ferror(f);

	if (fclose(f) || bad)
		return fail("%s/%s: write failed: %s", dir, name,
			    strerror(errno ? errno : EIO));
	return 0;
}

/* The columns of summary.csv before the times, in their order. */
#define NBASE 13

static void write_summary(FILE *f, const struct class *c)
{
	static const char *const base[NBASE] = {
		"student", "cases", "passed", "failed", "not_run", "bytes",
		"exits", "time_line", "pages", "kernel_log", "score", "result",
		"first_failure" };
	char num[4][24], secs[NTIMES][24];
	const char *row[NBASE + NTIMES];
	size_t i;
	int k;

	memcpy(row, base, sizeof(base));
	memcpy(row + NBASE, time_columns, sizeof(time_columns));
	csv_row(f, row, NBASE + NTIMES);
	for (i = 0; i < c->nstudents; i++) {
		const struct student *s = &c->students[i];

		snprintf(num[0], sizeof(num[0]), "%zu", s->cases);
		snprintf(num[1], sizeof(num[1]), "%zu", s->passed);
		snprintf(num[2], sizeof(num[2]), "%zu", s->failed);
		snprintf(num[3], sizeof(num[3]), "%zu", s->not_run);
		row[0] = s->name;
		for (k = 0; k < 4; k++)
			row[1 + k] = num[k];
		for (k = 0; k < NCRIT; k++)
			row[5 + k] = s->crit[k];
		row[10] = s->score;
		row[11] = s->result;
		row[12] = s->first_failure;
		for (k = 0; k < NTIMES; k++)
			row[NBASE + k] = times_cell(&s->times, k, secs[k]);
		csv_row(f, row, NBASE + NTIMES);
	}
}

/* One student's summary.csv row as a JSON object: numbers, or null. */
static void json_student(FILE *f, const struct student *s)
{
	char secs[24];
	int k;

	fputs("{\"student\":", f);
	json_put_string(f, s->name);
	fprintf(f, ",\"cases\":%zu,\"passed\":%zu,\"failed\":%zu,\"not_run\":%zu",
		s->cases, s->passed, s->failed, s->not_run);
	for (k = 0; k < NCRIT; k++) {
		fprintf(f, ",\"%s\":", criteria[k]);
		json_put_number_or_null(f, s->crit[k]);
	}
	fputs(",\"score\":", f);
	json_put_number_or_null(f, s->score);
	fputs(",\"result\":", f);
	json_put_string(f, s->result);
	fputs(",\"first_failure\":", f);
	json_put_string_or_null(f, s->first_failure);
	for (k = 0; k < NTIMES; k++) {
		fprintf(f, ",\"%s\":", time_columns[k]);
		json_put_number_or_null(f, times_cell(&s->times, k, secs));
	}
	fputc('}', f);
}

/* {"format_version":N, "students":[{the summary.csv row}, ...]} */
static void write_summary_json(FILE *f, const struct class *c)
{
	size_t i;

	fprintf(f, "{\"format_version\":%d,\"students\":[",
		GRADECLASS_FORMAT_VERSION);
	for (i = 0; i < c->nstudents; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_student(f, &c->students[i]);
	}
	fputs("\n]}\n", f);
}

/* recs under head: each record's cell of each column ("" if it has none). */
static void write_recs(FILE *f, const struct recs *rs, char *const *head,
		       size_t ncols)
{
	const char **row = xcalloc(ncols + 1, sizeof(*row));
	size_t i, j;

	csv_row(f, (const char *const *)head, ncols);
	for (i = 0; i < rs->n; i++) {
		for (j = 0; j < ncols; j++)
			row[j] = rec_get_or(&rs->v[i], head[j], "");
		csv_row(f, row, ncols);
	}
	free(row);
}

static void write_cases(FILE *f, const struct class *c)
{
	size_t i;
	int k;

	fputs("vms,case,students,passed,failed,not_run", f);
	for (k = 0; k < NCRIT; k++)
		fprintf(f, ",%s_failed", criteria[k]);
	fputc('\n', f);
	for (i = 0; i < c->ntotals; i++) {
		const struct case_total *t = &c->totals[i];

		csv_cell(f, t->vms);
		fputc(',', f);
		csv_cell(f, t->name);
		fprintf(f, ",%zu,%zu,%zu,%zu", t->students, t->passed,
			t->failed, t->not_run);
		for (k = 0; k < NCRIT; k++)
			fprintf(f, ",%zu", t->crit_failed[k]);
		fputc('\n', f);
	}
}

int write_file(const struct class *c, const char *dir, const char *name,
		     void (*fn)(FILE *, const struct class *))
{
	FILE *f = create(dir, name);

	if (!f)
		return -1;
	fn(f, c);
	return finish(f, dir, name);
}

static void write_results(FILE *f, const struct class *c)
{
	static char *const none[] = { "student" };

	if (c->results.n)
		write_recs(f, &c->results, c->results.v[0].t->head,
			   c->results.v[0].t->ncols);
	else
		write_recs(f, &c->results, none, 1);
}

static void write_failures(FILE *f, const struct class *c)
{
	static char *const head[] = { "student", "kind", "cases",
				      "first_case", "first_message" };

	write_recs(f, &c->failures, head, 5);
}

int write_tables_summary(const struct class *c, const char *dir)
{
	if (write_file(c, dir, "summary.csv", write_summary) ||
	    write_file(c, dir, "summary.json", write_summary_json))
		return -1;
	return 0;
}

int write_tables(const struct class *c, const char *dir)
{
	if (write_tables_summary(c, dir) ||
	    write_file(c, dir, "results.csv", write_results) ||
	    write_file(c, dir, "failures.csv", write_failures) ||
	    write_file(c, dir, "cases.csv", write_cases))
		return -1;
	return 0;
}
