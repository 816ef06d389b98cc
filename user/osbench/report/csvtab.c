// SPDX-License-Identifier: GPL-2.0
#include "csvtab.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct csvtab *csvtab_read(FILE *f)
{
	struct csvtab *t = xcalloc(1, sizeof(*t));

	if (csv_fread(f, &t->tab, CSV_FIRST_TABLE | CSV_KEEP_QUOTE)) {
		csvtab_free(t);
		return NULL;
	}
	return t;
}

struct csvtab *csvtab_load(const char *path)
{
	FILE *f = fopen(path, "r");
	struct csvtab *t;

	if (!f)
		return NULL;
	t = csvtab_read(f);
	fclose(f);
	if (t)
		csvtab_meta_load(t, path);
	return t;
}

void csvtab_free(struct csvtab *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nnotes; i++) {
		free(t->note_keys[i]);
		free(t->note_vals[i]);
	}
	csv_free(&t->tab);
	free(t->note_keys);
	free(t->note_vals);
	free(t);
}

int csvtab_col(const struct csvtab *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->tab.ncols; i++)
		if (!strcmp(t->tab.head[i], name))
			return (int)i;
	return -1;
}

const char *csvtab_cell(const struct csvtab *t, size_t row, int col)
{
	if (col < 0 || (size_t)col >= t->tab.ncols || row >= t->tab.nrows)
		return "";
	return t->tab.rows[row][col];
}

const char *csvtab_note(const struct csvtab *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->nnotes; i++)
		if (!strcmp(t->note_keys[i], key))
			return t->note_vals[i];
	return NULL;
}
