// SPDX-License-Identifier: GPL-2.0
/*
 * Tables of the report from the folder's CSV files: an experiment's
 * table with its notes, and the side-by-side view of local and remote
 * file access (one column of medians per directory, and local / remote).
 */
#include "csvtab.h"
#include "report_parts.h"
#include "sysinfo.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * A number as a reader wants it (CSV keeps 9 digits): a size (a column
 * named ..._bytes) in KiB, MiB or GiB when it is a whole multiple, a
 * large or whole number without an exponent, else 4 significant digits;
 * other text as is.
 */
static const char *short_num(const char *cell, const char *col, char *buf)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB" };
	size_t n = strlen(col);
	char *end;
	double v = strtod(cell, &end);
	int u = 0;

	if (!*cell || *end || end == cell)
		return cell;
	if (n >= 5 && !strcmp(col + n - 5, "bytes") && v == floor(v)) {
		while (u < 3 && v >= 1024 && fmod(v, 1024) == 0) {
			v /= 1024;
			u++;
		}
		snprintf(buf, 32, "%.0f %s", v, unit[u]);
	} else if (fabs(v) >= 1e4 && fabs(v) < 1e15) {
		snprintf(buf, 32, "%.0f", v);
	} else {
		snprintf(buf, 32, "%.4g", v);
	}
	return buf;
}

int rep_csv_table(struct doc *d, const char *dir, const char *file,
		  const char *const *cols)
{
	char *path = xasprintf("%s/%s", dir, file);
	struct csvtab *t = csvtab_load(path);
	const char *cells[64], *head[64];
	char buf[64][32];
	int idx[64];
	size_t i, k, n = 0;

	free(path);
	if (!t)
		return -1;
	/* The report describes the machine once, at its top. */
	for (i = 0; i < t->nnotes; i++)
		if (strcmp(t->note_keys[i], SYSINFO_NOTE))
			doc_item(d, "%s: %s", t->note_keys[i],
				 t->note_vals[i]);
	for (i = 0; n < 64 && (cols ? cols[i] != NULL : i < t->tab.ncols);
	     i++) {
		idx[n] = cols ? csvtab_col(t, cols[i]) : (int)i;
		head[n] = cols ? cols[i] : t->tab.head[i];
		n++;
	}
	doc_table(d, n, head, NULL);
	for (i = 0; i < t->tab.nrows; i++) {
		for (k = 0; k < n; k++)
			cells[k] = short_num(csvtab_cell(t, i, idx[k]),
					     head[k], buf[k]);
		doc_row(d, cells);
	}
	doc_table_end(d);
	csvtab_free(t);
	return 0;
}

/* The directories of fileaccess.csv in order, "dir (fs)", up to max. */
static size_t fa_targets(const struct csvtab *t, char names[][300],
			 char dirs[][256], size_t max)
{
	int cd = csvtab_col(t, "dir"), cf = csvtab_col(t, "fs");
	size_t i, k, n = 0;

	for (i = 0; i < t->tab.nrows; i++) {
		const char *dir = csvtab_cell(t, i, cd);

		for (k = 0; k < n && strcmp(dirs[k], dir); k++)
			;
		if (k < n || n == max)
			continue;
		snprintf(dirs[n], 256, "%s", dir);
		snprintf(names[n], 300, "%s (%s) MiB/s", dir,
			 csvtab_cell(t, i, cf));
		n++;
	}
	return n;
}

/* The median of (dir, op, chunk), or NAN. */
static double fa_median(const struct csvtab *t, const char *dir,
			const char *op, const char *chunk)
{
	int cd = csvtab_col(t, "dir"), co = csvtab_col(t, "op");
	int cc = csvtab_col(t, "chunk_bytes"), cm = csvtab_col(t, "median");
	size_t i;

	for (i = 0; i < t->tab.nrows; i++)
		if (!strcmp(csvtab_cell(t, i, cd), dir) &&
		    !strcmp(csvtab_cell(t, i, co), op) &&
		    !strcmp(csvtab_cell(t, i, cc), chunk))
			return *csvtab_cell(t, i, cm) ?
			       strtod(csvtab_cell(t, i, cm), NULL) : NAN;
	return NAN;
}

static void fa_row(struct doc *d, const struct csvtab *t, size_t row,
		   char dirs[][256], size_t n, int remote)
{
	const char *op = csvtab_cell(t, row, csvtab_col(t, "op"));
	const char *chunk = csvtab_cell(t, row, csvtab_col(t, "chunk_bytes"));
	char buf[10][32];
	const char *cells[12] = { op, chunk };
	double v[10];
	size_t k;

	for (k = 0; k < n; k++) {
		v[k] = fa_median(t, dirs[k], op, chunk);
		snprintf(buf[k], 32, isnan(v[k]) ? "-" : "%.4g", v[k]);
		cells[2 + k] = buf[k];
	}
	if (remote > 0) {
		snprintf(buf[n], 32, isnan(v[0] / v[remote]) ? "-" : "%.3g",
			 v[0] / v[remote]);
		cells[2 + n] = buf[n];
	}
	doc_row(d, cells);
}

int rep_fa_side(struct doc *d, const struct rep *r)
{
	char *path = xasprintf("%s/fileaccess.csv", r->dir);
	struct csvtab *t = csvtab_load(path);
	char names[10][300], dirs[10][256];
	const char *head[12] = { "op", "chunk_bytes" };
	size_t i, k, n;
	int remote = -1;

	free(path);
	if (!t)
		return -1;
	n = fa_targets(t, names, dirs, 9);
	for (k = 0; k < n; k++) {
		head[2 + k] = names[k];
		if (r->remote[0] && !strcmp(dirs[k], r->remote))
			remote = (int)k;
	}
	if (remote > 0)
		head[2 + n] = "local / remote";
	doc_table(d, 2 + n + (remote > 0), head, NULL);
	for (i = 0; i < t->tab.nrows; i++)
		if (!strcmp(csvtab_cell(t, i, csvtab_col(t, "dir")), dirs[0]))
			fa_row(d, t, i, dirs, n, remote);
	doc_table_end(d);
	csvtab_free(t);
	return 0;
}
