// SPDX-License-Identifier: GPL-2.0
#include "report.h"
#include "csvout.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct cell {
	char *text;		/* formatted for text/CSV; NULL = no value */
	bool numeric;
};

struct report {
	char *title;
	enum report_format fmt;
	FILE *out;
	char **col_names;
	char **col_units;
	size_t ncols;
	char **note_keys;
	char **note_vals;
	size_t nnotes;
	struct cell *cells;	/* row-major */
	size_t ncells;
	size_t cap;
};

struct report *report_new(const char *title, enum report_format fmt,
			  FILE *out)
{
	struct report *r = xcalloc(1, sizeof(*r));

	r->title = xstrdup(title ? title : "");
	r->fmt = fmt;
	r->out = out;
	return r;
}

void report_column(struct report *r, const char *name, const char *unit)
{
	r->col_names = xreallocarray(r->col_names, r->ncols + 1,
				     sizeof(char *));
	r->col_units = xreallocarray(r->col_units, r->ncols + 1,
				     sizeof(char *));
	r->col_names[r->ncols] = xstrdup(name);
	r->col_units[r->ncols] = unit ? xstrdup(unit) : NULL;
	r->ncols++;
}

void report_column_range(struct report *r, const char *name,
			 const char *unit)
{
	char n[64];

	report_column(r, name, unit);
	snprintf(n, sizeof(n), "%s_min", name);
	report_column(r, n, unit);
	snprintf(n, sizeof(n), "%s_max", name);
	report_column(r, n, unit);
}

void report_note(struct report *r, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *val;

	va_start(ap, fmt);
	val = xvasprintf(fmt, ap);
	va_end(ap);
	r->note_keys = xreallocarray(r->note_keys, r->nnotes + 1,
				     sizeof(char *));
	r->note_vals = xreallocarray(r->note_vals, r->nnotes + 1,
				     sizeof(char *));
	r->note_keys[r->nnotes] = xstrdup(key);
	r->note_vals[r->nnotes] = val;
	r->nnotes++;
}

static void add_cell(struct report *r, char *text, bool numeric)
{
	if (r->ncells == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->cells = xreallocarray(r->cells, r->cap, sizeof(*r->cells));
	}
	r->cells[r->ncells].text = text;
	r->cells[r->ncells].numeric = numeric;
	r->ncells++;
}

void report_str(struct report *r, const char *value)
{
	add_cell(r, xstrdup(value ? value : ""), false);
}

void report_num(struct report *r, double v)
{
	char buf[64];

	if (!isfinite(v)) {
		report_none(r);
		return;
	}
	/* Integers print exactly; other values with 4 significant digits
	 * for people (whole numbers from 1000 up: 20395, not 2.04e+04) and
	 * full precision for machines.
	 */
	if ((v == floor(v) || (r->fmt == REPORT_TEXT && fabs(v) >= 1000)) &&
	    fabs(v) < 1e15)
		snprintf(buf, sizeof(buf), "%.0f", v);
	else if (r->fmt == REPORT_TEXT)
		snprintf(buf, sizeof(buf), "%.4g", v);
	else
		snprintf(buf, sizeof(buf), "%.9g", v);
	add_cell(r, xstrdup(buf), true);
}

void report_none(struct report *r)
{
	add_cell(r, NULL, true);
}

static char *header_text(const struct report *r, size_t c)
{
	if (!r->col_units[c])
		return xstrdup(r->col_names[c]);
	return xasprintf("%s (%s)", r->col_names[c], r->col_units[c]);
}

static void print_text(const struct report *r)
{
	size_t *width = xcalloc(r->ncols, sizeof(*width));
	size_t i, c;

	for (i = 0; i < r->nnotes; i++)
		fprintf(r->out, "# %s: %s\n", r->note_keys[i], r->note_vals[i]);
	for (c = 0; c < r->ncols; c++) {
		char *h = header_text(r, c);

		width[c] = strlen(h);
		free(h);
	}
	for (i = 0; i < r->ncells; i++) {
		const char *t = r->cells[i].text ? r->cells[i].text : "-";

		if (strlen(t) > width[i % r->ncols])
			width[i % r->ncols] = strlen(t);
	}
	for (c = 0; c < r->ncols; c++) {
		char *h = header_text(r, c);

		fprintf(r->out, "%s%-*s", c ? "  " : "",
			c + 1 < r->ncols ? (int)width[c] : 0, h);
		free(h);
	}
	fputc('\n', r->out);
	for (i = 0; i < r->ncells; i++) {
		const struct cell *cell = &r->cells[i];
		const char *t = cell->text ? cell->text : "-";
		int w = (int)width[i % r->ncols];

		c = i % r->ncols;
		if (c)
			fputs("  ", r->out);
		if (cell->numeric)
			fprintf(r->out, "%*s", w, t);
		else
			fprintf(r->out, "%-*s", c + 1 < r->ncols ? w : 0, t);
		if (c + 1 == r->ncols)
			fputc('\n', r->out);
	}
	free(width);
}

/* The sink of CSV tables' metadata (report_meta_begin), and its count. */
static FILE *meta_out;
static unsigned meta_tables;

/* "title", "notes" and "columns" of r onto f, without the braces. */
static void json_head(const struct report *r, FILE *f)
{
	size_t i, c;

	fputs("\"title\":", f);
	json_put_string(f, r->title);
	fputs(",\"notes\":{", f);
	for (i = 0; i < r->nnotes; i++) {
		if (i)
			fputc(',', f);
		json_put_string(f, r->note_keys[i]);
		fputc(':', f);
		json_put_string(f, r->note_vals[i]);
	}
	fputs("},\"columns\":[", f);
	for (c = 0; c < r->ncols; c++) {
		fprintf(f, "%s{\"name\":", c ? "," : "");
		json_put_string(f, r->col_names[c]);
		fputs(",\"unit\":", f);
		if (r->col_units[c])
			json_put_string(f, r->col_units[c]);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fputc(']', f);
}

void report_meta_begin(FILE *meta)
{
	meta_out = meta;
	meta_tables = 0;
	fprintf(meta, "{\"format_version\":%d,\"tables\":[",
		REPORT_FORMAT_VERSION);
}

void report_meta_end(void)
{
	if (!meta_out)
		return;
	fputs("]}\n", meta_out);
	meta_out = NULL;
}

/*
 * A CSV table's notes: into the metadata document when one is open, else
 * onto stderr for the person who ran it (stdout holds only the table).
 */
static void print_meta(const struct report *r)
{
	size_t i;

	if (!meta_out) {
		fflush(r->out);
		for (i = 0; i < r->nnotes; i++)
			fprintf(stderr, "# %s: %s\n", r->note_keys[i],
				r->note_vals[i]);
		return;
	}
	fputs(meta_tables++ ? ",\n{" : "\n{", meta_out);
	json_head(r, meta_out);
	fputc('}', meta_out);
}

static void print_json(const struct report *r)
{
	size_t i, c;

	fprintf(r->out, "{\"format_version\":%d,", REPORT_FORMAT_VERSION);
	json_head(r, r->out);
	fputs(",\"rows\":[", r->out);
	for (i = 0; i < r->ncells; i++) {
		const struct cell *cell = &r->cells[i];

		c = i % r->ncols;
		if (c == 0)
			fputs(i ? ",{" : "{", r->out);
		else
			fputc(',', r->out);
		json_put_string(r->out, r->col_names[c]);
		fputc(':', r->out);
		if (!cell->text)
			fputs("null", r->out);
		else if (cell->numeric)
			fputs(cell->text, r->out);
		else
			json_put_string(r->out, cell->text);
		if (c + 1 == r->ncols)
			fputc('}', r->out);
	}
	fputs("]}\n", r->out);
}

static void print_csv(const struct report *r)
{
	size_t i, c;

	print_meta(r);
	for (c = 0; c < r->ncols; c++) {
		char *h = r->col_units[c] ?
			  xasprintf("%s_%s", r->col_names[c],
				    r->col_units[c]) :
			  xstrdup(r->col_names[c]);

		if (c)
			fputc(',', r->out);
		csv_put(r->out, h);
		free(h);
	}
	fputc('\n', r->out);
	for (i = 0; i < r->ncells; i++) {
		if (i % r->ncols)
			fputc(',', r->out);
		if (r->cells[i].text)
			csv_put(r->out, r->cells[i].text);
		if (i % r->ncols + 1 == r->ncols)
			fputc('\n', r->out);
	}
}

int report_end(struct report *r)
{
	int ret;

	if (r->ncols && r->ncells % r->ncols)
		die(EXIT_FAIL, "report %s: incomplete row", r->title);
	if (r->fmt == REPORT_CSV)
		print_csv(r);
	else if (r->fmt == REPORT_JSON)
		print_json(r);
	else
		print_text(r);
	ret = fflush(r->out) ? -1 : 0;
	ret = ferror(r->out) ? -1 : ret;
	report_free(r);
	return ret;
}

void report_free(struct report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->ncells; i++)
		free(r->cells[i].text);
	for (i = 0; i < r->ncols; i++) {
		free(r->col_names[i]);
		free(r->col_units[i]);
	}
	for (i = 0; i < r->nnotes; i++) {
		free(r->note_keys[i]);
		free(r->note_vals[i]);
	}
	free(r->cells);
	free(r->col_names);
	free(r->col_units);
	free(r->note_keys);
	free(r->note_vals);
	free(r->title);
	free(r);
}
