/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Performance targets in a report: a row that compares with a target
 * ends in two cells, the target (">= 1.5") and the verdict ("met" or
 * "missed"); a row without one leaves both empty.  Benchmarks print
 * targets; tests never assert them (a timing is not a test).
 *
 *	target_columns(r);			(after the other columns)
 *	...cells of the row...; target_cells(r, 2.1, 1.5);	("met")
 *	...cells of another row...; target_cells(r, 0.9, 0);	(no target)
 */
#ifndef SYNCDEV_TARGET_H
#define SYNCDEV_TARGET_H

#include "report.h"

#include <stdbool.h>

/* Declare the two columns "target" and "verdict". */
void target_columns(struct report *r);
/*
 * The two cells: want > 0 is a target that ratio must reach; a ratio
 * that is not a finite number (nothing measured) is neither met nor
 * missed ("-").  Returns whether the target was met (false without one).
 */
bool target_cells(struct report *r, double ratio, double want);

#endif
