// SPDX-License-Identifier: GPL-2.0
#include "times.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

const char *const time_columns[NTIMES] = {
	"staging_s", "boot_s", "cases_1vm_s", "cases_2vm_s", "checks_s",
	"total_s",
};

/* The grader's phases and the column each adds to. */
static const struct {
	const char *phase;
	int col;
} phases[] = {
	{ "staging", T_STAGING },
	{ "boot_1vm", T_BOOT },
	{ "boot_2vm", T_BOOT },
	{ "cases_1vm", T_CASES_1VM },
	{ "cases_2vm", T_CASES_2VM },
	{ "checks", T_CHECKS },
	{ "total", T_TOTAL },
};
#define NPHASES (sizeof(phases) / sizeof(phases[0]))

/* The index in phases of name, or -1. */
static int phase_index(const char *name)
{
	size_t i;

	for (i = 0; i < NPHASES; i++)
		if (!strcmp(phases[i].phase, name))
			return (int)i;
	return -1;
}

/* Row i of t into out unless refused; seen marks the phases taken. */
static int take_row(const struct table *t, size_t i, const char *path,
		    struct times *out, int *seen)
{
	struct rec r = { t, t->rows[i] };
	const char *phase = rec_get(&r, "phase"), *secs = rec_get(&r, "seconds");
	int p = phase_index(phase);
	uint64_t v;

	if (p < 0) {
		msg("%s: unknown phase '%.40s', left out", path, phase);
		return -1;
	}
	if (seen[p]) {
		msg("%s: phase %s given twice, left out", path, phase);
		return -1;
	}
	if (parse_uint(secs, 0, TIMES_MAX, &v)) {
		msg("%s: %s: seconds '%.40s' are not a whole number up to %llu, left out",
		    path, phase, secs, TIMES_MAX);
		return -1;
	}
	seen[p] = 1;
	out->secs[phases[p].col] += v;
	out->has[phases[p].col] = 1;
	return 0;
}

/* Whether t has a column called name. */
static int has_column(const struct table *t, const char *name)
{
	size_t j;

	for (j = 0; j < t->ncols; j++)
		if (!strcmp(t->head[j], name))
			return 1;
	return 0;
}

size_t times_from_table(const struct table *t, const char *path,
			struct times *out)
{
	int seen[NPHASES] = { 0 };
	size_t i, bad = 0;

	memset(out, 0, sizeof(*out));
	if (!has_column(t, "phase") || !has_column(t, "seconds")) {
		msg("%s: no 'phase,seconds' header, left out", path);
		return 1;
	}
	for (i = 0; i < t->nrows; i++)
		bad += take_row(t, i, path, out, seen) ? 1 : 0;
	return bad;
}

size_t times_read(const char *path, struct times *out)
{
	struct table t;
	size_t bad;

	memset(out, 0, sizeof(*out));
	if (csv_read(path, &t)) {
		if (errno == ENOENT)
			return 0;
		msg("%s: %s, left out", path, strerror(errno));
		return 1;
	}
	bad = times_from_table(&t, path, out);
	csv_free(&t);
	return bad;
}

const char *times_cell(const struct times *t, int i, char buf[24])
{
	buf[0] = '\0';
	if (t->has[i])
		snprintf(buf, 24, "%llu", (unsigned long long)t->secs[i]);
	return buf;
}
