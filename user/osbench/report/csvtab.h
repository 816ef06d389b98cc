/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading back a table that report.h wrote as CSV: its header and its
 * rows as user/common's reader gives them (csvin.h: the fields unquoted,
 * a formula's neutralising quote kept), and its notes from the metadata
 * beside it (NAME.meta.json, csvmeta.c).  The
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

#include "csvin.h"

#include <stddef.h>
#include <stdio.h>

struct csvtab {
	size_t nnotes;
	char **note_keys, **note_vals;
	struct table tab;	/* the header and the rows */
};

/*
 * The first table of the rest of f (header, rows up to a blank line or
 * the end), or NULL when there is none (no header line).  No notes.
 */
struct csvtab *csvtab_read(FILE *f);
/*
 * csvtab_read of a file, with the notes of PATH.meta.json for PATH.csv
 * when it is there; NULL when the file cannot be opened or has no table.
 */
struct csvtab *csvtab_load(const char *path);
/*
 * The notes of the first table of a metadata document (report.h's
 * report_meta_begin) added to t: from its text, or from the file beside
 * csv_path.  0, or -1 when there is none, it cannot be read or its
 * format_version is not REPORT_FORMAT_VERSION.
 */
int csvtab_meta_parse(struct csvtab *t, const char *json);
int csvtab_meta_load(struct csvtab *t, const char *csv_path);
/*
 * 0 when the metadata document at path has REPORT_FORMAT_VERSION, else
 * -1 after a message that says what it has instead.
 */
int csvtab_meta_check(const char *path);
void csvtab_free(struct csvtab *t);

/* The column's index, or -1. */
int csvtab_col(const struct csvtab *t, const char *name);
/* A cell's text ("" for an empty one); col -1 gives "". */
const char *csvtab_cell(const struct csvtab *t, size_t row, int col);
/* A note's value, or NULL. */
const char *csvtab_note(const struct csvtab *t, const char *key);

#endif
