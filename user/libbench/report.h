/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One place that turns results into output: an aligned text table for
 * people, CSV or JSON for machines.  Experiments only add columns, rows and
 * notes (the conditions of the measurement); they never print tables.
 *
 *	struct report *r = report_new("sweep", fmt, stdout);
 *	report_column(r, "block_bytes", NULL);
 *	report_column(r, "rate", "MiB/s");
 *	report_note(r, "file", "%s", path);
 *	report_num(r, 4096); report_num(r, 812.5);	   (one row)
 *	report_end(r);					   (prints, frees)
 *
 * Text: notes as "# key: value" lines, then the table.
 * CSV: a header (a column's unit after its name: rate_MiB/s), then rows;
 *      nothing else, so that any tool reads it.  The notes, the title and
 *      the units go to the metadata file when one is open
 *      (report_meta_begin); else the notes go to stderr as "# key: value"
 *      lines (and all of it is in the JSON output).
 * JSON: {"format_version":1, "title":…, "notes":{…}, "columns":[…],
 *       "rows":[{…}, …]}.
 * Every JSON document starts with its format_version
 * (REPORT_FORMAT_VERSION), so that a reader (osbench report reads its
 * folder back) refuses a document of another layout instead of
 * misreading it.
 */
#ifndef SYNCDEV_REPORT_H
#define SYNCDEV_REPORT_H

#include <stdio.h>

enum report_format { REPORT_TEXT, REPORT_CSV, REPORT_JSON };

/* The layout of the JSON documents; a change of layout changes it. */
#define REPORT_FORMAT_VERSION 1

struct report;

struct report *report_new(const char *title, enum report_format fmt,
			  FILE *out);
/* Columns must all be declared before the first cell; unit may be NULL. */
void report_column(struct report *r, const char *name, const char *unit);
/* A median and its range: the columns name, name_min and name_max. */
void report_column_range(struct report *r, const char *name,
			 const char *unit);
void report_note(struct report *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Cells fill rows left to right; a row ends after its last column. */
void report_str(struct report *r, const char *value);
void report_num(struct report *r, double value);
/* A number that could not be measured (printed as "-", CSV empty, null). */
void report_none(struct report *r);
/* Print everything and free the report. Returns 0, or -1 on write error. */
int report_end(struct report *r);
/* Free without printing: the measurement failed (NULL: a no-op). */
void report_free(struct report *r);

/*
 * The metadata of the CSV tables printed from now on go to meta (beside
 * NAME.csv: NAME.meta.json), one JSON document:
 * {"format_version":1, "tables":[{"title":…, "notes":{…}, "columns":[…]},
 * …]}.
 * report_meta_end closes the document (the caller closes the file).
 */
void report_meta_begin(FILE *meta);
void report_meta_end(void);

#endif
