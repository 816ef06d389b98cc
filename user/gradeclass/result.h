/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A side's result file (results/VMS/CASE.SIDE.res, written by the guest's
 * harness): "key=value" lines, the last one "end=1" (docs/grading.md,
 * "Result files").  The parser is strict: a file that is not exactly that
 * is malformed, never half-read.
 */
#ifndef GRADECLASS_RESULT_H
#define GRADECLASS_RESULT_H

#include "rubric.h"

#include <stddef.h>
#include <stdint.h>

/* The longest line a result file may have, its newline excluded. */
#define RESULT_LINE_MAX 1000
/* The bytes of a result file the host reads at most. */
#define RESULT_FILE_MAX 65536

/* A value as the reports show it; "" when absent. */
#define RESULT_VALUE_MAX 201

struct result {
	enum { RES_MISSING, RES_MALFORMED, RES_OK } state;
	char why[128];			/* RES_MALFORMED: what is wrong */
	unsigned int checks;		/* bit i: criteria[i] was checked */
	char *reasons;			/* "a; b", "" when none */
	char *whys[NCRIT];		/* the first why.CRITERION, or NULL */
	char rc[RESULT_VALUE_MAX], secs[RESULT_VALUE_MAX];
	char pages[RESULT_VALUE_MAX], status[RESULT_VALUE_MAX];
	uint64_t bytes, files, device_bytes;
	int has_device_bytes;
};

/*
 * Parse text (len bytes) into *r: RES_OK, or RES_MALFORMED with r->why
 * ("line 3: unknown key 'x'", "no end=1 line", "empty").  Never fails
 * otherwise; free with result_free.
 */
void result_parse(const char *text, size_t len, struct result *r);
/* result_parse of a file; RES_MISSING when there is none. */
void result_load(const char *path, struct result *r);
void result_free(struct result *r);

/* The criterion named by s (its index in criteria[]), or -1. */
int criterion_index(const char *s);

#endif
