/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CSV tables as the grader writes and reads them: RFC 4180 quoting
 * (a field with a comma, a quote or a line break is quoted, quotes
 * doubled), a cell that would run as a formula neutralised, a header row
 * naming the columns, "\n" line ends.
 */
#ifndef GRADECLASS_CSV_H
#define GRADECLASS_CSV_H

#include <stddef.h>
#include <stdio.h>

/* A table read back: the header, then rows of ncols cells each. */
struct table {
	char **head;
	size_t ncols;
	char ***rows;		/* rows[i][j]: "" where a row was short */
	size_t nrows;
};

/* One row and the header that names its cells. */
struct rec {
	const struct table *t;
	char **cells;
};

/*
 * Parse text (len bytes) into *t: the first record is the header; blank
 * lines are skipped, cells past the header's are dropped.  A quote opens
 * a quoted field only at the start of a field.  The quote csv_cell puts
 * before a formula is dropped: a cell reads back as it was written.  Returns 0, or -1 when the
 * text has no header row.
 */
int csv_parse(const char *text, size_t len, struct table *t);
/* csv_parse of a whole file; -1 with errno when it cannot be read. */
int csv_read(const char *path, struct table *t);
void csv_free(struct table *t);

/* The cell of column key in r, or NULL when its table has no such column. */
const char *rec_get(const struct rec *r, const char *key);
/* rec_get, or def when the column is missing. */
const char *rec_get_or(const struct rec *r, const char *key, const char *def);

/*
 * One cell, quoted when it needs it, a formula neutralised (csv_put of
 * user/common/csvout.h; no separator).
 */
void csv_cell(FILE *f, const char *s);
/* A row of n cells with separators and the line end. */
void csv_row(FILE *f, const char *const *cells, size_t n);

#endif
