// SPDX-License-Identifier: GPL-2.0
#include "csv.h"
#include "csvout.h"

void csv_cell(FILE *f, const char *s)
{
	csv_put(f, s);
}

void csv_row(FILE *f, const char *const *cells, size_t n)
{
	size_t j;

	/* A row of one empty cell is written "", or it would read as blank. */
	if (n == 1 && !cells[0][0]) {
		fputs("\"\"\n", f);
		return;
	}
	for (j = 0; j < n; j++) {
		if (j)
			fputc(',', f);
		csv_cell(f, cells[j]);
	}
	fputc('\n', f);
}
