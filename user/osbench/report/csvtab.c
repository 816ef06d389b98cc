// SPDX-License-Identifier: GPL-2.0
#include "csvtab.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Split one CSV line into fields (quotes as RFC 4180); returns count. */
static size_t split(const char *line, char ***out)
{
	size_t n = 0, len;
	char **f = NULL, *cur;
	const char *p = line;

	for (;;) {
		cur = xmalloc(strlen(p) + 1);
		len = 0;
		if (*p == '"') {
			for (p++; *p; p++) {
				if (*p == '"' && p[1] == '"')
					cur[len++] = *p++;
				else if (*p == '"')
					break;
				else
					cur[len++] = *p;
			}
			if (*p == '"')
				p++;
		}
		while (*p && *p != ',' && *p != '\n' && *p != '\r')
			cur[len++] = *p++;
		cur[len] = 0;
		f = xreallocarray(f, n + 1, sizeof(*f));
		f[n++] = cur;
		if (*p != ',')
			break;
		p++;
	}
	*out = f;
	return n;
}

static void add_row(struct csvtab *t, const char *line)
{
	char **f;
	size_t n = split(line, &f), i;

	t->cells = xreallocarray(t->cells, (t->nrows + 1) * t->ncols,
				 sizeof(char *));
	for (i = 0; i < t->ncols; i++)
		t->cells[t->nrows * t->ncols + i] = i < n ? f[i] : xstrdup("");
	for (; i < n; i++)
		free(f[i]);
	free(f);
	t->nrows++;
}

struct csvtab *csvtab_read(FILE *f)
{
	struct csvtab *t = xcalloc(1, sizeof(*t));
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, f) > 0) {
		int blank = line[0] == '\n' || line[0] == '\r';

		if (blank) {
			if (t->ncols)
				break;
		} else if (!t->ncols) {
			t->ncols = split(line, &t->cols);
		} else {
			add_row(t, line);
		}
	}
	free(line);
	if (!t->ncols) {
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
	for (i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->note_keys);
	free(t->note_vals);
	free(t->cols);
	free(t->cells);
	free(t);
}

int csvtab_col(const struct csvtab *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return (int)i;
	return -1;
}

const char *csvtab_cell(const struct csvtab *t, size_t row, int col)
{
	if (col < 0 || (size_t)col >= t->ncols || row >= t->nrows)
		return "";
	return t->cells[row * t->ncols + (size_t)col];
}

const char *csvtab_note(const struct csvtab *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->nnotes; i++)
		if (!strcmp(t->note_keys[i], key))
			return t->note_vals[i];
	return NULL;
}
