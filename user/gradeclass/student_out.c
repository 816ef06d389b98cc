// SPDX-License-Identifier: GPL-2.0
/*
 * gradeclass student STAGE DIR: a student's verdicts into DIR/results.csv,
 * DIR/failures.csv and DIR/report.md, and STAGE/counts ("cases passed
 * failed not_run") and STAGE/first (the first failure, one clean line)
 * for the grader's progress line.
 */
#include "student.h"
#include "csv.h"
#include "slurp.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char *const results_head[] = {
	"student", "vms", "case", "data", "files", "bytes", "master_method",
	"slave_method", "result", "reason", "master_exit", "slave_exit", "master_ms",
	"slave_ms", "master_secs", "slave_secs", "output_sha256", "expected_sha256",
	"bytes_ok", "exits_ok", "time_line_ok", "pages_ok", "kernel_log_ok",
};
#define NRESULTS (sizeof(results_head) / sizeof(results_head[0]))

/* The figures and first message of each kind of failure. */
struct kinds {
	size_t n[NCRIT + 1];
	char *first_case[NCRIT + 1], *first[NCRIT + 1];
};

static void results_row(FILE *f, const struct run *r, const struct verdict *v)
{
	char files[24], bytes[24], mm[16], sm[16];
	const char *cells[NRESULTS];
	const char *dash = strchr(v->pair, '-');
	size_t i = 0, c;

	snprintf(files, sizeof(files), "%zu", v->ds.n);
	snprintf(bytes, sizeof(bytes), "%llu", (unsigned long long)v->ds.total);
	snprintf(mm, sizeof(mm), "%.*s", dash ? (int)(dash - v->pair) : 0, v->pair);
	snprintf(sm, sizeof(sm), "%s", dash ? dash + 1 : "");
	cells[i++] = r->name;
	cells[i++] = !strcmp(v->vms, "1vm") ? "1" : "2";
	cells[i++] = v->name, cells[i++] = v->set, cells[i++] = files;
	cells[i++] = bytes, cells[i++] = mm, cells[i++] = sm;
	cells[i++] = v->result, cells[i++] = v->reason ? v->reason : "";
	cells[i++] = v->res[0].rc, cells[i++] = v->res[1].rc;
	cells[i++] = v->time[0].ms, cells[i++] = v->time[1].ms;
	cells[i++] = v->res[0].secs, cells[i++] = v->res[1].secs;
	cells[i++] = v->got_sum, cells[i++] = v->want_sum;
	for (c = 0; c < NCRIT; c++)
		cells[i++] = v->crit[c];
	csv_row(f, cells, NRESULTS);
}

static void count(struct kinds *k, const struct verdict *v)
{
	char where[96];
	size_t c;

	snprintf(where, sizeof(where), "%s %s", v->vms, v->name);
	for (c = 0; c <= NCRIT; c++) {
		const char *why = c < NCRIT ? v->why[c] : v->reason;

		if (c < NCRIT ? strcmp(v->crit[c], "fail") : strcmp(v->result, "not-run"))
			continue;
		if (c < NCRIT && !strcmp(v->result, "not-run"))
			continue;
		if (!k->n[c]++) {
			k->first_case[c] = xstrdup(where);
			k->first[c] = xstrdup(why ? why : "");
		}
	}
}

static int write_failures(const struct run *r, struct kinds *k)
{
	const char *head[] = { "student", "kind", "cases", "first_case", "first_message" };
	char path[4096], n[24];
	size_t c;
	FILE *f;

	snprintf(path, sizeof(path), "%s/failures.csv", r->dir);
	f = fopen(path, "we");
	if (!f)
		return fail("%s: %s", path, strerror(errno));
	csv_row(f, head, 5);
	for (c = 0; c <= NCRIT; c++) {
		const char *cells[5] = { r->name, c < NCRIT ? criteria[c] : "not-run", n,
					 k->first_case[c], k->first[c] };

		if (!k->n[c])
			continue;
		snprintf(n, sizeof(n), "%zu", k->n[c]);
		csv_row(f, cells, 5);
		free(k->first_case[c]);
		free(k->first[c]);
	}
	return fclose(f) ? fail("%s: %s", path, strerror(errno)) : 0;
}

/* Every case of every boot, in the host's order; how many. */
static size_t judge_all(const struct run *r, struct verdict **out)
{
	struct verdict *v = xcalloc(r->nvms * r->ndata * r->nmethods + 1, sizeof(*v));
	size_t n = 0, b, d, m;
	struct boot boot;

	for (b = 0; b < r->nvms; b++) {
		if (boot_load(r, r->vms[b], &boot)) {
			free(v);
			return (size_t)-1;
		}
		for (d = 0; d < r->ndata; d++)
			for (m = 0; m < r->nmethods; m++, n++)
				verdict_make(r, &boot, d * r->nmethods + m + 1, r->data[d],
					     r->methods[m], &v[n]);
		boot_free(&boot);
	}
	*out = v;
	return n;
}

/* The score of DIR/results.csv, as the class's summary computes it. */
static void score_of(const struct run *r, const char *path, char out[32])
{
	struct table t;
	double sum = 0;
	size_t i;

	snprintf(out, 32, "0.0");
	if (csv_read(path, &t))
		return;
	for (i = 0; i < t.nrows; i++) {
		struct rec rec = { &t, t.rows[i] };

		sum += case_score(&rec, &r->rubric);
	}
	if (t.nrows)
		snprintf(out, 32, "%.1f", 100 * sum / (double)t.nrows);
	csv_free(&t);
}

static int write_counts(const struct run *r, const struct verdict *v, size_t n)
{
	size_t i, p = 0, f = 0, nr = 0;
	const struct verdict *bad = NULL;
	char path[4096];
	FILE *o;

	for (i = 0; i < n; i++) {
		p += !strcmp(v[i].result, "pass");
		f += !strcmp(v[i].result, "fail");
		nr += !strcmp(v[i].result, "not-run");
		if (!bad && strcmp(v[i].result, "pass"))
			bad = &v[i];
	}
	snprintf(path, sizeof(path), "%s/counts", r->stage);
	o = fopen(path, "we");
	if (!o || fprintf(o, "%zu %zu %zu %zu\n", n, p, f, nr) < 0 || fclose(o))
		return fail("%s: cannot be written", path);
	snprintf(path, sizeof(path), "%s/first", r->stage);
	o = fopen(path, "we");
	if (!o)
		return fail("%s: cannot be written", path);
	if (bad)
		fprintf(o, "%s %s: %s\n", bad->vms, bad->name, bad->reason ? bad->reason : "");
	return fclose(o) ? fail("%s: cannot be written", path) : (p == n ? 0 : 1);
}

static FILE *open_out(const struct run *r, const char *name, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", r->dir, name);
	f = fopen(path, "we");
	if (!f)
		msg("%s: %s", path, strerror(errno));
	return f;
}

static int write_all(const struct run *r, struct verdict *v, size_t n)
{
	struct kinds k = { { 0 }, { NULL }, { NULL } };
	char path[4096], score[32];
	size_t i;
	int rc;
	FILE *f = open_out(r, "results.csv", path, sizeof(path));

	if (!f)
		return -1;
	csv_row(f, results_head, NRESULTS);
	for (i = 0; i < n; i++) {
		results_row(f, r, &v[i]);
		count(&k, &v[i]);
	}
	if (fclose(f) || write_failures(r, &k))
		return fail("%s: cannot be written", path);
	score_of(r, path, score);
	rc = write_counts(r, v, n);
	f = open_out(r, "report.md", path, sizeof(path));
	if (!f)
		return -1;
	student_report(f, r, v, n, score);
	if (fclose(f))
		return fail("%s: cannot be written", path);
	return rc;
}

int student_main(int argc, char **argv)
{
	struct verdict *v;
	struct run r;
	size_t n, i;
	int rc;

	if (argc != 3) {
		msg("usage: gradeclass student STAGE DIR");
		return EXIT_USAGE;
	}
	if (run_load(&r, argv[1], argv[2]))
		return EXIT_USAGE;
	n = judge_all(&r, &v);
	if (n == (size_t)-1)
		return EXIT_USAGE;
	rc = write_all(&r, v, n);
	for (i = 0; i < n; i++)
		verdict_free(&v[i]);
	free(v);
	return rc < 0 ? EXIT_USAGE : rc;
}
