// SPDX-License-Identifier: GPL-2.0
/*
 * The side-by-side view of fileaccess: one row per operation and chunk
 * size, one column of medians per target (the local directories, the
 * remote one, the syncdev stream), and, when a remote directory was
 * measured, the ratio local / remote of the first local directory.  The
 * long table (one row per target) stays the machine-readable output; this
 * one is printed after it in text mode.
 */
#include "fileaccess.h"
#include "report.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIDE_MAX_TARGETS 8
#define SIDE_MAX_CHUNKS 32

struct fa_side {
	size_t ntargets;
	char name[SIDE_MAX_TARGETS][96];	/* "where (fs)" */
	double med[SIDE_MAX_TARGETS][F_NOPS][SIDE_MAX_CHUNKS];	/* NAN: - */
	int remote;		/* the remote target's index, or -1 */
};

struct fa_side *fa_side_new(void)
{
	struct fa_side *s = xcalloc(1, sizeof(*s));

	s->remote = -1;
	return s;
}

/* The target's column, added when it is new; -1 when there is no room. */
static int target(struct fa_side *s, const char *where, const char *fs)
{
	char name[96];
	size_t i, f, k;

	snprintf(name, sizeof(name), "%s (%s)", where, fs);
	for (i = 0; i < s->ntargets; i++)
		if (!strcmp(s->name[i], name))
			return (int)i;
	if (s->ntargets == SIDE_MAX_TARGETS)
		return -1;
	snprintf(s->name[i], sizeof(s->name[i]), "%s", name);
	for (f = 0; f < F_NOPS; f++)
		for (k = 0; k < SIDE_MAX_CHUNKS; k++)
			s->med[i][f][k] = NAN;
	s->ntargets++;
	return (int)i;
}

void fa_side_record(struct fa_side *s, const struct fa_run *run,
		    const char *where, const char *fs, enum fop f,
		    uint64_t chunk, const struct stats *st)
{
	uint64_t c;
	size_t k = 0;
	int t;

	if (!s)
		return;
	t = target(s, where, fs);
	for (c = run->minc; c < chunk; c *= 4)
		k++;
	if (t < 0 || k >= SIDE_MAX_CHUNKS)
		return;
	if (run->remote && !strcmp(where, run->remote))
		s->remote = t;
	s->med[t][f][k] = st ? st->median : NAN;
}

static void cell(struct report *r, double v)
{
	if (isnan(v))
		report_none(r);
	else
		report_num(r, v);
}

void fa_side_free(struct fa_side *s)
{
	free(s);
}

int fa_side_print(struct fa_side *s, const struct fa_run *run, FILE *out)
{
	struct report *r;
	uint64_t chunk;
	size_t i, k;
	int f, ratio = s->remote > 0;

	fputc('\n', out);
	r = report_new("fileaccess side by side", REPORT_TEXT, out);

	report_note(r, "figures", "median MiB/s of the rows above%s",
		    ratio ? "; ratio = first local directory / remote" : "");
	report_column(r, "op", NULL);
	report_column(r, "chunk_bytes", NULL);
	for (i = 0; i < s->ntargets; i++)
		report_column(r, s->name[i], "MiB/s");
	if (ratio)
		report_column(r, "local/remote", NULL);
	for (f = 0; f < F_NOPS; f++) {
		for (chunk = run->minc, k = 0; chunk <= run->maxc &&
		     k < SIDE_MAX_CHUNKS; chunk *= 4, k++) {
			report_str(r, fop_name(f));
			report_num(r, (double)chunk);
			for (i = 0; i < s->ntargets; i++)
				cell(r, s->med[i][f][k]);
			if (ratio)
				cell(r, s->med[0][f][k] /
				     s->med[s->remote][f][k]);
		}
	}
	fa_side_free(s);
	return report_end(r);
}
