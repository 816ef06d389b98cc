/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CSV tables as the grader writes and reads them: RFC 4180 quoting
 * (a field with a comma, a quote or a line break is quoted, quotes
 * doubled), a cell that would run as a formula neutralised, a header row
 * naming the columns, "\n" line ends.  The reader is user/common's
 * (csvin.h).
 */
#ifndef GRADECLASS_CSV_H
#define GRADECLASS_CSV_H

#include "csvin.h"

#include <stddef.h>
#include <stdio.h>

/*
 * One cell, quoted when it needs it, a formula neutralised (csv_put of
 * user/common/csvout.h; no separator).
 */
void csv_cell(FILE *f, const char *s);
/* A row of n cells with separators and the line end. */
void csv_row(FILE *f, const char *const *cells, size_t n);

#endif
