/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading back CSV tables that csvout.h wrote: RFC 4180 quoting (a quote
 * opens a quoted field only at the start of a field, quotes doubled
 * inside, a quoted field may hold a comma or a line break), a header row
 * naming the columns, "\n" or "\r\n" line ends.
 *
 *	struct table t;
 *	struct rec r;
 *	if (csv_read("class.csv", &t) == 0 && t.nrows) {
 *		r = (struct rec){ &t, t.rows[0] };
 *		puts(rec_get_or(&r, "student", "?"));
 *	}
 *	csv_free(&t);
 */
#ifndef SYNCDEV_CSVIN_H
#define SYNCDEV_CSVIN_H

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

/* How csv_parse_as reads (flags, or'ed). */
enum csv_flags {
	/* Stop at the first blank line after the header: one table of a
	 * text that holds several (a report's tables one after the other). */
	CSV_FIRST_TABLE = 1,
	/* Keep the quote csv_put sets before a formula: the cell as the
	 * file has it, not as it was written. */
	CSV_KEEP_QUOTE = 2,
};

/*
 * Parse text (len bytes) into *t: the first record is the header; blank
 * lines are skipped, cells past the header's are dropped.  The quote
 * csv_put sets before a formula is dropped: a cell reads back as it was
 * written.  Returns 0, or -1 when the text has no header row.
 */
int csv_parse(const char *text, size_t len, struct table *t);
/* csv_parse, as flags say (enum csv_flags). */
int csv_parse_as(const char *text, size_t len, struct table *t,
		 unsigned int flags);
/*
 * csv_parse_as of the rest of f: 0, or -1 when it has no header row, or
 * with errno EIO when it cannot be read.
 */
int csv_fread(FILE *f, struct table *t, unsigned int flags);
/*
 * csv_parse of a whole file; -1 with errno when it cannot be read (an
 * empty file is a table without columns).
 */
int csv_read(const char *path, struct table *t);
void csv_free(struct table *t);

/* The cell of column key in r, or NULL when its table has no such column. */
const char *rec_get(const struct rec *r, const char *key);
/* rec_get, or def when the column is missing. */
const char *rec_get_or(const struct rec *r, const char *key, const char *def);

#endif
