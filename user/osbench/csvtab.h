/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading back a table that report.h wrote as CSV: its notes ("# key:
 * value" lines), its header and its rows, the fields unquoted.  The
 * report of osbench reads the experiments' tables this way, so that it
 * can render them again (Markdown, HTML) and look for anomalies in them.
 *
 *	struct csvtab *t = csvtab_load("rep/fileaccess.csv");
 *	int op = csvtab_col(t, "op");
 *	for (i = 0; i < t->nrows; i++)
 *		puts(csvtab_cell(t, i, op));
 *	csvtab_free(t);
 */
#ifndef SYNCDEV_CSVTAB_H
#define SYNCDEV_CSVTAB_H

#include <stddef.h>
#include <stdio.h>

struct csvtab {
	size_t nnotes;
	char **note_keys, **note_vals;
	size_t ncols;
	char **cols;
	size_t nrows;
	char **cells;		/* nrows * ncols, row after row */
};

/*
 * The first table of f (notes, header, rows up to a blank line, a new
 * note or the end), or NULL when there is none (no header line).
 */
struct csvtab *csvtab_read(FILE *f);
/* csvtab_read of a file; NULL when it cannot be opened or has no table. */
struct csvtab *csvtab_load(const char *path);
void csvtab_free(struct csvtab *t);

/* The column's index, or -1. */
int csvtab_col(const struct csvtab *t, const char *name);
/* A cell's text ("" for an empty one); col -1 gives "". */
const char *csvtab_cell(const struct csvtab *t, size_t row, int col);
/* A note's value, or NULL. */
const char *csvtab_note(const struct csvtab *t, const char *key);

#endif
