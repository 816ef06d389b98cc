// SPDX-License-Identifier: GPL-2.0
/*
 * The anomalies osbench report flags, each with the figures that show it:
 *  - a curve that goes the wrong way where it cannot: a call's cost
 *    falling as arguments are added, memory latency falling from one
 *    cache level to the next, a file rate falling as the chunk grows;
 *  - physically implausible rates: a file operation faster than memory,
 *    O_SYNC writes more often than a rotational disk turns (each must
 *    wait for the platter), "storage" that is memory (tmpfs);
 *  - a spread too wide for the median to mean much (anomaly.h);
 *  - a memory-latency level the sysfs cache sizes do not back;
 *  - an estimate more than 10x off (report_flag_est.c).
 */
#include "anomaly.h"
#include "csvtab.h"
#include "report_parts.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A 7200 rpm disk turns 120 times a second; allow twice that. */
#define ROTATIONAL_SYNCS_PER_S 250.0

static double fig(const struct rep *r, enum figure f)
{
	return r->s.set[f] ? r->s.value[f] : NAN;
}

static int curves(struct doc *d, const struct rep *r)
{
	double y[8];
	int i, j, n = 0;

	for (i = 0; i < 8; i++)
		y[i] = fig(r, FIG_CALL0 + i);
	i = anomaly_monotonic(y, 8, 1, 0.1, &j);
	if (i > 0 && ++n)
		doc_item(d, "Non-monotonic: a call with %d arguments (%.3g ns) "
			 "is cheaper than one with %d (%.3g ns); more "
			 "arguments cannot cost less: read the difference as "
			 "noise (frequency, alignment), not as a cost", i,
			 y[i], j, y[j]);
	for (i = 0; i < 4; i++)
		y[i] = fig(r, i < 3 ? FIG_MEM_L1 + i : FIG_MEM_MAIN);
	i = anomaly_monotonic(y, 4, 1, 0.05, &j);
	if (i > 0 && ++n)
		doc_item(d, "Non-monotonic: memory latency at level %d (%.3g "
			 "ns) below level %d (%.3g ns)", i + 1, y[i], j + 1,
			 y[j]);
	return n;
}

static int spreads(struct doc *d, const struct rep *r)
{
	char why[200];
	int f, n = 0;

	for (f = 0; f < FIG_COUNT; f++) {
		if (!r->s.set[f] || !r->s.has_st[f] ||
		    !anomaly_spread(&r->s.st[f], why, sizeof(why)))
			continue;
		doc_item(d, "High spread: %s: %s", rep_figure_name(f), why);
		n++;
	}
	return n;
}

/* One fileaccess row's rate against what storage can do. */
static int implausible(struct doc *d, const struct rep *r, const char *dir,
		       const char *fs, const char *op, double chunk,
		       double rate)
{
	double mem = fig(r, FIG_BW_WRITE_1);

	if (!strcmp(fs, "tmpfs") || !strcmp(fs, "ramfs"))
		return 0;	/* said once per directory */
	if (mem > 0 && rate > mem) {
		doc_item(d, "Implausible: %s %s of %.0f B at %.4g MiB/s on %s "
			 "(%s), faster than memory writes (%.4g MiB/s): the "
			 "data cannot have reached storage", op, dir, chunk,
			 rate, dir, fs, mem);
		return 1;
	}
	if (r->rotational == 1 && !strcmp(op, "sync-write") &&
	    strncmp(fs, "nfs", 3) &&
	    rate * MIB / chunk > ROTATIONAL_SYNCS_PER_S) {
		doc_item(d, "Implausible: %.0f O_SYNC writes/s of %.0f B on %s "
			 "(%s) while the machine's disk is described as "
			 "rotational (at most ~%g per second): a write cache "
			 "or the hypervisor acknowledges them", rate * MIB /
			 chunk, chunk, dir, fs, ROTATIONAL_SYNCS_PER_S);
		return 1;
	}
	return 0;
}

/* Per directory and operation: rates by chunk size must grow. */
static int file_curve(struct doc *d, const char *dir, const char *op,
		      const double *y, const double *chunk, size_t n)
{
	int i, j;

	i = anomaly_monotonic(y, n, 1, 0.2, &j);
	if (i < 0)
		return 0;
	doc_item(d, "Non-monotonic: %s %s: %.0f B chunks at %.4g MiB/s, "
		 "below %.0f B chunks at %.4g MiB/s; larger chunks need "
		 "fewer calls per byte", dir, op, chunk[i], y[i], chunk[j],
		 y[j]);
	return 1;
}

/* The rows of one directory and operation (consecutive in the table). */
static size_t group_end(const struct csvtab *t, size_t i, int cd, int co)
{
	size_t k = i;

	while (k < t->tab.nrows &&
	       !strcmp(csvtab_cell(t, k, cd), csvtab_cell(t, i, cd)) &&
	       !strcmp(csvtab_cell(t, k, co), csvtab_cell(t, i, co)))
		k++;
	return k;
}

static int file_group(struct doc *d, const struct rep *r,
		      const struct csvtab *t, size_t i, size_t end)
{
	int cd = csvtab_col(t, "dir"), cf = csvtab_col(t, "fs");
	int co = csvtab_col(t, "op"), cc = csvtab_col(t, "chunk_bytes");
	int cm = csvtab_col(t, "median"), n = 0, bad = 0;
	double y[64], chunk[64];
	size_t k, m = 0;

	for (k = i; k < end && m < 64; k++, m++) {
		const char *v = csvtab_cell(t, k, cm);

		chunk[m] = strtod(csvtab_cell(t, k, cc), NULL);
		y[m] = *v ? strtod(v, NULL) : NAN;
		if (!bad && !isnan(y[m]))
			bad = implausible(d, r, csvtab_cell(t, k, cd),
					  csvtab_cell(t, k, cf),
					  csvtab_cell(t, k, co), chunk[m], y[m]);
	}
	n += bad;
	n += file_curve(d, csvtab_cell(t, i, cd), csvtab_cell(t, i, co), y,
			chunk, m);
	return n;
}

static int file_flags(struct doc *d, const struct rep *r)
{
	char *path = xasprintf("%s/fileaccess.csv", r->dir);
	struct csvtab *t = csvtab_load(path);
	const char *last = "";
	int cd, cf, co, n = 0;
	size_t i, end;

	free(path);
	if (!t)
		return 0;
	cd = csvtab_col(t, "dir");
	cf = csvtab_col(t, "fs");
	co = csvtab_col(t, "op");
	for (i = 0; i < t->tab.nrows; i = end) {
		const char *fs = csvtab_cell(t, i, cf);

		end = group_end(t, i, cd, co);
		if (strcmp(last, csvtab_cell(t, i, cd)) &&
		    (!strcmp(fs, "tmpfs") || !strcmp(fs, "ramfs")) && ++n)
			doc_item(d, "Not a disk: %s is %s (memory): its O_SYNC "
				 "writes and cold reads reach no storage and "
				 "run at memory speed", csvtab_cell(t, i, cd),
				 fs);
		last = csvtab_cell(t, i, cd);
		n += file_group(d, r, t, i, end);
	}
	csvtab_free(t);
	return n;
}

/* memlat's levels that sysfs does not back (its notes, memlat.c). */
static int cache_flags(struct doc *d, const struct rep *r)
{
	char *path = xasprintf("%s/memlat.csv", r->dir);
	struct csvtab *t = csvtab_load(path);
	size_t i;
	int n = 0;

	free(path);
	for (i = 0; t && i < t->nnotes; i++) {
		if (strncmp(t->note_keys[i], "level_", 6) ||
		    (!strstr(t->note_vals[i], "disagrees") &&
		     !strstr(t->note_vals[i], "not a cache level")))
			continue;
		doc_item(d, "Cache level against sysfs: memlat %s: %s",
			 t->note_keys[i], t->note_vals[i]);
		n++;
	}
	csvtab_free(t);
	return n;
}

int rep_flags(struct doc *d, const struct rep *r)
{
	int n = curves(d, r) + spreads(d, r) + file_flags(d, r) +
		cache_flags(d, r) + rep_flag_estimates(d, r);

	if (!n)
		doc_para(d, "None of the checks found an anomaly (monotonic "
			 "curves, plausible rates, spread, estimates within "
			 "10x).");
	return n;
}
