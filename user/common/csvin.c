// SPDX-License-Identifier: GPL-2.0
#include "csvin.h"
#include "csvout.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* A growing array of strings (the cells of the record being read). */
struct strs {
	char **v;
	size_t n, cap;
};

static void strs_push(struct strs *s, char *str)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = xreallocarray(s->v, s->cap, sizeof(*s->v));
	}
	s->v[s->n++] = str;
}

/*
 * One field starting at text[*pos] into a new string; *pos is left on
 * the separator or line end that ended it (or at len).
 */
static char *read_field(const char *text, size_t len, size_t *pos,
			unsigned int flags)
{
	char *out = xmalloc(len - *pos + 1);
	size_t start = *pos, i = start, o = 0;
	int quoted = i < len && text[i] == '"';

	if (quoted)
		i++;
	while (i < len) {
		char c = text[i];

		if (quoted && c == '"') {
			if (i + 1 < len && text[i + 1] == '"') {
				out[o++] = '"';
				i += 2;
				continue;
			}
			quoted = 0;
			i++;
			continue;
		}
		if (!quoted && (c == ',' || c == '\n' || c == '\r'))
			break;
		out[o++] = c;
		i++;
	}
	out[o] = '\0';
	*pos = i;
	/* The quote csv_put set before a formula is not part of the text. */
	if (!(flags & CSV_KEEP_QUOTE) && start < len && text[start] == '"' &&
	    out[0] == '\'' && csv_neutralised(out + 1))
		memmove(out, out + 1, o);
	return out;
}

/* One record from text[*pos]; *pos past its line end. */
static void read_record(const char *text, size_t len, size_t *pos,
			struct strs *cells, unsigned int flags)
{
	cells->n = 0;
	if (*pos < len && (text[*pos] == '\n' || text[*pos] == '\r')) {
		/* a blank line: no record */
	} else {
		for (;;) {
			strs_push(cells, read_field(text, len, pos, flags));
			if (*pos < len && text[*pos] == ',') {
				(*pos)++;
				continue;
			}
			break;
		}
	}
	if (*pos < len && text[*pos] == '\r')
		(*pos)++;
	if (*pos < len && text[*pos] == '\n')
		(*pos)++;
}

/* A data record as a row of exactly ncols cells. */
static char **to_row(struct strs *cells, size_t ncols)
{
	char **row = xcalloc(ncols ? ncols : 1, sizeof(*row));
	size_t j;

	for (j = 0; j < cells->n; j++) {
		if (j < ncols)
			row[j] = cells->v[j];
		else
			free(cells->v[j]);
	}
	for (j = cells->n; j < ncols; j++)
		row[j] = xstrdup("");
	return row;
}

int csv_parse_as(const char *text, size_t len, struct table *t,
		 unsigned int flags)
{
	struct strs cells = { 0 };
	size_t pos = 0, cap = 0;

	memset(t, 0, sizeof(*t));
	while (pos < len) {
		read_record(text, len, &pos, &cells, flags);
		if (!cells.n && t->head && (flags & CSV_FIRST_TABLE))
			break;
		if (!cells.n)
			continue;
		if (!t->head) {
			t->head = xreallocarray(NULL, cells.n, sizeof(char *));
			memcpy(t->head, cells.v, cells.n * sizeof(char *));
			t->ncols = cells.n;
			continue;
		}
		if (t->nrows == cap) {
			cap = cap ? 2 * cap : 64;
			t->rows = xreallocarray(t->rows, cap, sizeof(*t->rows));
		}
		t->rows[t->nrows++] = to_row(&cells, t->ncols);
	}
	free(cells.v);
	return t->head ? 0 : -1;
}

int csv_parse(const char *text, size_t len, struct table *t)
{
	return csv_parse_as(text, len, t, 0);
}

/* The rest of f into *text (free it), *len bytes; -1 with errno EIO. */
static int slurp(FILE *f, char **text, size_t *len)
{
	size_t cap = 0, n;

	*text = NULL;
	*len = 0;
	do {
		if (cap - *len < 65536) {
			cap = cap ? 2 * cap : 65536;
			*text = xreallocarray(*text, cap, 1);
		}
		n = fread(*text + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	if (ferror(f)) {
		free(*text);
		*text = NULL;
		errno = EIO;
		return -1;
	}
	return 0;
}

int csv_fread(FILE *f, struct table *t, unsigned int flags)
{
	char *text;
	size_t len;
	int rc;

	memset(t, 0, sizeof(*t));
	if (slurp(f, &text, &len))
		return -1;
	rc = csv_parse_as(text, len, t, flags);
	free(text);
	return rc;
}

int csv_read(const char *path, struct table *t)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t len;
	int rc;

	memset(t, 0, sizeof(*t));
	if (!f)
		return -1;
	rc = slurp(f, &text, &len);
	fclose(f);
	if (rc) {
		errno = EIO;
		return -1;
	}
	/* An empty file: a table without columns. */
	csv_parse(text, len, t);
	free(text);
	return 0;
}

void csv_free(struct table *t)
{
	size_t i, j;

	for (i = 0; i < t->nrows; i++) {
		for (j = 0; j < t->ncols; j++)
			free(t->rows[i][j]);
		free(t->rows[i]);
	}
	for (j = 0; j < t->ncols; j++)
		free(t->head[j]);
	free(t->rows);
	free(t->head);
	memset(t, 0, sizeof(*t));
}

const char *rec_get(const struct rec *r, const char *key)
{
	size_t j;

	/* The last column of that name, as a name read twice keeps its last. */
	for (j = r->t->ncols; j-- > 0;)
		if (!strcmp(r->t->head[j], key))
			return r->cells[j];
	return NULL;
}

const char *rec_get_or(const struct rec *r, const char *key, const char *def)
{
	const char *v = rec_get(r, key);

	return v ? v : def;
}
