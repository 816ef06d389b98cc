// SPDX-License-Identifier: GPL-2.0
/*
 * DIR/summary.csv: the report's figures with their spread, and the facts
 * the estimates use as notes, so that a folder can be rendered again
 * ("osbench report --render DIR") without measuring, and so that a test
 * can render fixed, synthetic results.
 */
#include "csvtab.h"
#include "measure.h"
#include "report_parts.h"
#include "util.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

FILE *rep_meta_open(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s.meta.json", dir, name);
	FILE *f = fopen(path, "w");

	if (f)
		report_meta_begin(f);
	else
		msg_errno("create %s", path);
	free(path);
	return f;
}

int rep_meta_close(FILE *meta)
{
	if (!meta)
		return -1;
	report_meta_end();
	if (fclose(meta)) {
		msg_errno("write the metadata of a table");
		return -1;
	}
	return 0;
}

int rep_save(const struct rep *r)
{
	char *path = xasprintf("%s/summary.csv", r->dir);
	FILE *f = fopen(path, "w"), *meta;
	struct report *t;
	int f_, rc;

	if (!f) {
		msg_errno("create %s", path);
		free(path);
		return -1;
	}
	meta = rep_meta_open(r->dir, "summary");
	t = report_new("summary", REPORT_CSV, f);
	report_note(t, "cycle_ns", "%.6g", r->cycle_ns);
	report_note(t, "rotational", "%d", r->rotational);
	report_note(t, "cpus", "%d", r->cpus);
	report_note(t, "mode", "%s", r->mode);
	report_note(t, "peer", "%s", r->peer);
	report_note(t, "remote", "%s", r->remote);
	report_note(t, "local_fs", "%s", r->local_fs);
	report_note(t, "remote_fs", "%s", r->remote_fs);
	report_column(t, "figure", NULL);
	report_column(t, "value", NULL);
	report_column(t, "unit", NULL);
	measure_columns(t);
	for (f_ = 0; f_ < FIG_COUNT; f_++) {
		if (!r->s.set[f_])
			continue;
		report_str(t, rep_figure_name(f_));
		report_num(t, r->s.value[f_]);
		report_str(t, r->s.unit[f_] ? r->s.unit[f_] : "");
		if (r->s.has_st[f_])
			measure_cells(t, &r->s.st[f_], 1);
		else
			measure_cells_none(t);
	}
	rc = report_end(t);
	if (fclose(f) || rc) {
		msg_errno("write %s", path);
		rc = -1;
	}
	if (rep_meta_close(meta))
		rc = -1;
	free(path);
	return rc;
}

/* The unit as a string literal (struct summary keeps literals). */
static const char *unit_literal(const char *u)
{
	static const char *const units[] = { "ns", "us", "ms", "s", "MiB/s" };
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i]))
			return units[i];
	return "";
}

static void note(const struct csvtab *t, const char *key, char *buf,
		 size_t len)
{
	const char *v = csvtab_note(t, key);

	snprintf(buf, len, "%s", v ? v : "");
}

static void load_facts(struct rep *r, const struct csvtab *t)
{
	const char *v;

	v = csvtab_note(t, "cycle_ns");
	r->cycle_ns = v ? strtod(v, NULL) : 0;
	v = csvtab_note(t, "rotational");
	r->rotational = v ? atoi(v) : -1;
	v = csvtab_note(t, "cpus");
	r->cpus = v ? atoi(v) : 0;
	note(t, "mode", r->mode, sizeof(r->mode));
	note(t, "peer", r->peer, sizeof(r->peer));
	note(t, "remote", r->remote, sizeof(r->remote));
	note(t, "local_fs", r->local_fs, sizeof(r->local_fs));
	note(t, "remote_fs", r->remote_fs, sizeof(r->remote_fs));
}

/* One row's figure into r->s. */
static void load_row(struct rep *r, const struct csvtab *t, size_t i)
{
	static const char *const cols[] = {
		"mean", "median", "stddev", "min", "max", "median_lo", "median_hi",
	};
	const char *name = csvtab_cell(t, i, csvtab_col(t, "figure"));
	double v[7];
	size_t k, lo, hi;
	int f;

	for (f = 0; f < FIG_COUNT && strcmp(rep_figure_name(f), name); f++)
		;
	if (f == FIG_COUNT)
		return;
	r->s.set[f] = true;
	r->s.value[f] = strtod(csvtab_cell(t, i, csvtab_col(t, "value")), NULL);
	r->s.unit[f] = unit_literal(csvtab_cell(t, i, csvtab_col(t, "unit")));
	for (k = 0; k < 7; k++) {
		const char *c = csvtab_cell(t, i, csvtab_col(t, cols[k]));

		if (!*c)
			return;
		v[k] = strtod(c, NULL);
	}
	r->s.has_st[f] = true;
	r->s.st[f] = (struct stats){
		.n = (size_t)atoi(csvtab_cell(t, i, csvtab_col(t, "n"))),
		.mean = v[0], .median = v[1], .stddev = v[2], .min = v[3],
		.max = v[4], .ci_lo = v[5], .ci_hi = v[6],
	};
	stats_median_ranks(r->s.st[f].n, &lo, &hi, &r->s.st[f].ci_level);
}

/*
 * Every NAME.meta.json file of dir in the layout this program reads (its
 * format_version); 0, or -1 after a message.  What is not a plain file
 * is left to the reading, which finds no notes in it.
 */
static int check_versions(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	size_t n;
	char *path;
	int rc = 0;

	/* Unreadable: rep_load says why when it reads summary.csv. */
	if (!d)
		return 0;
	while (rc == 0 && (e = readdir(d))) {
		n = strlen(e->d_name);
		if (n <= 10 || strcmp(e->d_name + n - 10, ".meta.json") ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		rc = csvtab_meta_check(path);
		free(path);
	}
	closedir(d);
	return rc;
}

int rep_load(struct rep *r)
{
	char *path;
	struct csvtab *t;
	size_t i;

	if (check_versions(r->dir))
		return -1;
	path = xasprintf("%s/summary.csv", r->dir);
	t = csvtab_load(path);
	if (!t) {
		msg("cannot read the results %s (osbench report writes it)",
		    path);
		free(path);
		return -1;
	}
	free(path);
	memset(&r->s, 0, sizeof(r->s));
	load_facts(r, t);
	for (i = 0; i < t->tab.nrows; i++)
		load_row(r, t, i);
	csvtab_free(t);
	return 0;
}
