/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a student's grading time went: their times.csv (header
 * "phase,seconds", a row per phase the grader went through, whole
 * seconds) as the columns of summary.csv, and the class's sum of them.
 */
#ifndef GRADECLASS_TIMES_H
#define GRADECLASS_TIMES_H

#include "csv.h"

#include <stdint.h>

/* The columns: staging, both boots, each case group, checks, total. */
enum { T_STAGING, T_BOOT, T_CASES_1VM, T_CASES_2VM, T_CHECKS, T_TOTAL,
       NTIMES };
extern const char *const time_columns[NTIMES];

/* A student's seconds per column; has[i] is 0 where none was recorded. */
struct times {
	uint64_t secs[NTIMES];
	int has[NTIMES];
};

/*
 * *out from a times.csv read into t, path naming it in messages.  A row
 * whose phase is not one of the grader's, whose seconds are not a whole
 * number up to TIMES_MAX or whose phase came before is left out with a
 * message; a table without the phase and seconds columns is left out
 * whole.  Returns how many messages it gave (0: all of it taken).
 */
#define TIMES_MAX 1000000000ULL
size_t times_from_table(const struct table *t, const char *path,
			struct times *out);
/* times_from_table of the file path; no file: nothing recorded, 0. */
size_t times_read(const char *path, struct times *out);
/* Column i as summary.csv's cell: the seconds, or "" (buf: 24 bytes). */
const char *times_cell(const struct times *t, int i, char buf[24]);

#endif
