// SPDX-License-Identifier: GPL-2.0
/*
 * osbench transfer --files N: the cost of a file.  The same bytes moved
 * as one file and as N files, by master -> slave in the four method
 * combinations (durable, and two of them with --no-sync) and by the
 * "tar | nc" baseline (tcpcopy --tar: one connection, a header per file,
 * each file written with open, write and close).  The per-file cost is
 * (t_N - t_1) / N, with t the receiver's Transmission time; rounds
 * interleave the rows, in a new order each round, as in osbench transfer.
 */
#include "benchopt.h"
#include "experiment.h"
#include "pattern.h"
#include "report.h"
#include "runorder.h"
#include "stats.h"
#include "sysinfo.h"
#include "util.h"
#include "xferrun.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TCP_PORT	"2326"
#define WAIT_MS		"20000"

enum { BASE, BASE_RENAME, FF, FM, MF, MM, FF_NOSYNC, MM_NOSYNC, NROW };

static const struct row {
	const char *name, *kind, *send, *recv;
	int nosync;
	int sync_of;		/* the --no-sync row of this one, or -1 */
	int rename;		/* tcpcopy recv --rename */
} rows[NROW] = {
	[BASE] = { "tcpcopy --tar", "baseline: userspace TCP, open/write/close, no flush",
		   .sync_of = -1 },
	[BASE_RENAME] = { "tcpcopy --tar --rename",
			  "baseline + the slave's temporary names and renames",
			  .sync_of = -1, .rename = 1 },
	[FF] = { "fcntl -> fcntl", "syncdev, durable", "fcntl", "fcntl",
		 .sync_of = FF_NOSYNC },
	[FM] = { "fcntl -> mmap", "syncdev, durable", "fcntl", "mmap",
		 .sync_of = -1 },
	[MF] = { "mmap -> fcntl", "syncdev, durable", "mmap", "fcntl",
		 .sync_of = -1 },
	[MM] = { "mmap -> mmap", "syncdev, durable", "mmap", "mmap",
		 .sync_of = MM_NOSYNC },
	[FF_NOSYNC] = { "fcntl -> fcntl --no-sync", "syncdev, not flushed",
			"fcntl", "fcntl", .nosync = 1, .sync_of = -1 },
	[MM_NOSYNC] = { "mmap -> mmap --no-sync", "syncdev, not flushed",
			"mmap", "mmap", .nosync = 1, .sync_of = -1 },
};

/* The course's ten small files, in bytes. */
static const uint64_t course_sizes[] = { 32, 859, 1343, 1663, 2042, 3065,
					 2808, 4056, 3659, 4619 };

struct files {
	char bindir[PATH_MAX];
	char indir[PATH_MAX], outdir[PATH_MAX];
	unsigned int n, reps;
	uint64_t total;
	char **in, **out;	/* n names each, then the one file's */
	double *t1[NROW], *tn[NROW];	/* ms per round */
};

static char *name_in(const char *dir, const char *base, unsigned int i)
{
	char buf[PATH_MAX + 32];

	snprintf(buf, sizeof(buf), "%s/%s%05u", dir, base, i);
	return xstrdup(buf);
}

/* Write the n inputs and the one file of their bytes: 0 or -1. */
static int make_inputs(struct files *f, uint64_t size, int course)
{
	unsigned char *buf;
	uint64_t sz, off = 0;
	unsigned int i;
	int one, fd, rc = 0;

	if (mkdir(f->indir, 0755) || mkdir(f->outdir, 0755))
		return fail_errno("cannot create %s or %s", f->indir, f->outdir);
	one = open(f->in[f->n], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (one < 0)
		return fail_errno("cannot create %s", f->in[f->n]);
	buf = xmalloc(course ? 4096 + 1024 : size);
	for (i = 0; i < f->n && !rc; i++) {
		sz = course ? course_sizes[i % 10] : size;
		pattern_fill(buf, (size_t)sz, off);
		off += sz;
		fd = open(f->in[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write_full(fd, buf, (size_t)sz) < 0 ||
		    write_full(one, buf, (size_t)sz) < 0)
			rc = fail_errno("writing %s", f->in[i]);
		if (fd >= 0)
			close(fd);
	}
	f->total = off;
	if (close(one) && !rc)
		rc = fail_errno("writing %s", f->in[f->n]);
	free(buf);
	return rc;
}

/* Whether files a and b have the same bytes. */
static bool same_file(const char *a, const char *b)
{
	int fa = open(a, O_RDONLY), fb = open(b, O_RDONLY);
	unsigned char x[65536], y[65536];
	ssize_t na, nb;
	bool same = fa >= 0 && fb >= 0;

	while (same) {
		na = read_full(fa, x, sizeof(x));
		nb = read_full(fb, y, sizeof(y));
		same = na == nb && na >= 0 && !memcmp(x, y, (size_t)na);
		if (na <= 0)
			break;
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

/* One transfer of count files (names from first); the receiver's ms. */
static double run_one(const struct files *f, const struct row *r,
		      unsigned int first, unsigned int count)
{
	size_t cap = 2 * (size_t)count + 16;
	char **sa = xcalloc(cap, sizeof(char *)), **ra = xcalloc(cap, sizeof(char *));
	char num[16];
	unsigned int i, s = 0, d = 0;
	double ms;

	snprintf(num, sizeof(num), "%u", count);
	sa[s++] = r->send ? "master" : "tcpcopy";
	ra[d++] = r->send ? "slave" : "tcpcopy";
	if (r->send) {
		sa[s++] = num;
		ra[d++] = num;
	} else {
		sa[s++] = "send";
		ra[d++] = "recv";
		ra[d++] = "127.0.0.1:" TCP_PORT;
	}
	for (i = 0; i < count; i++) {
		sa[s++] = f->in[first + i];
		ra[d++] = f->out[first + i];
	}
	if (r->send) {
		sa[s++] = (char *)r->send;
		ra[d++] = (char *)r->recv;
		ra[d++] = "127.0.0.1";
		if (r->nosync)
			ra[d++] = "--no-sync";
	} else {
		sa[s++] = "--tar";
		sa[s++] = "--port";
		sa[s++] = TCP_PORT;
		ra[d++] = "--tar";
		if (r->rename)
			ra[d++] = "--rename";
	}
	ra[d++] = "--wait";
	ra[d++] = WAIT_MS;
	ms = xferrun_pair(f->bindir, sa, ra, r->name);
	free(sa);
	free(ra);
	return ms;
}

/* Check (round 0) and remove the outputs first..first+count-1: 0 or -1. */
static int check_outputs(const struct files *f, const struct row *r,
			 unsigned int first, unsigned int count, bool check)
{
	unsigned int i;
	int rc = 0;

	for (i = first; i < first + count; i++) {
		if (check && !rc && !same_file(f->in[i], f->out[i]))
			rc = fail("%s: %s differs from %s", r->name, f->out[i],
				  f->in[i]);
		unlink(f->out[i]);
	}
	return rc;
}

static int rounds(struct files *f)
{
	unsigned int round, k, i, order[NROW];
	double a, b;

	for (round = 0; round <= f->reps; round++) {
		run_order(order, NROW, round);
		for (k = 0; k < NROW; k++) {
			i = order[k];
			a = run_one(f, &rows[i], f->n, 1);
			if (a < 0 || check_outputs(f, &rows[i], f->n, 1, !round))
				return EXIT_FAIL;
			b = run_one(f, &rows[i], 0, f->n);
			if (b < 0 || check_outputs(f, &rows[i], 0, f->n, !round))
				return EXIT_FAIL;
			if (round) {
				f->t1[i][round - 1] = a;
				f->tn[i][round - 1] = b;
			}
		}
		msg("round %u of %u done", round, f->reps);
	}
	return EXIT_OK;
}

/* The median over the rounds of x[k] op y[k] (op: '/' or the per-file '-'). */
static double paired(const struct files *f, const double *x, const double *y,
		     char op)
{
	double *q = xcalloc(f->reps, sizeof(double)), v;
	struct stats st;
	unsigned int k;

	for (k = 0; k < f->reps; k++)
		q[k] = op == '/' ? x[k] / y[k] : (x[k] - y[k]) / f->n;
	stats_compute(q, f->reps, &st);
	v = st.median;
	free(q);
	return v;
}

static double median(const struct files *f, const double *x)
{
	struct stats st;

	stats_compute(x, f->reps, &st);
	return st.median;
}

/* A verdict cell: met when ratio <= limit; "-" without a target. */
static unsigned int verdict(struct report *r, double ratio, double limit)
{
	if (!(limit > 0)) {
		report_none(r);
		return 0;
	}
	report_str(r, ratio <= limit ? "met" : "missed");
	return ratio <= limit;
}

/* The cells of row i; the count of targets met into *met. */
static void row_cells(struct report *r, const struct files *f, int i,
		      unsigned int *met)
{
	const struct row *w = &rows[i];
	bool pair = w->send && !w->nosync;
	double ratio = paired(f, f->tn[i], f->t1[i], '/');
	double base = paired(f, f->tn[i], f->tn[BASE], '/');
	double sync = w->sync_of >= 0 ?
		      paired(f, f->tn[i], f->tn[w->sync_of], '/') : 0;

	report_str(r, w->name);
	report_str(r, w->kind);
	report_num(r, f->n);
	report_num(r, (double)f->total);
	report_num(r, median(f, f->t1[i]));
	report_num(r, median(f, f->tn[i]));
	report_num(r, ratio);
	report_num(r, paired(f, f->tn[i], f->t1[i], '-'));
	report_num(r, base);
	if (w->sync_of >= 0)
		report_num(r, sync);
	else
		report_none(r);
	*met += verdict(r, ratio, pair ? 4.0 : 0);
	*met += verdict(r, base, pair ? 1.0 : 0);
	*met += verdict(r, sync, w->sync_of >= 0 ? 1.5 : 0);
}

static int report_files(const struct ctx *c, const struct files *f,
			int course)
{
	struct report *r = report_new("transfer-files", c->o.fmt, c->out);
	unsigned int met = 0;
	int i;

	report_column(r, "transfer", NULL);
	report_column(r, "kind", NULL);
	report_column(r, "files", NULL);
	report_column(r, "bytes", NULL);
	report_column(r, "one_file", "ms");
	report_column(r, "n_files", "ms");
	report_column(r, "n_over_one", NULL);
	report_column(r, "per_file", "ms");
	report_column(r, "vs_baseline", NULL);
	report_column(r, "sync_cost", NULL);
	report_column(r, "within_4x_one_file", NULL);
	report_column(r, "as_fast_as_baseline", NULL);
	report_column(r, "sync_within_1.5x", NULL);
	for (i = 0; i < NROW; i++)
		row_cells(r, f, i, &met);
	sysinfo_note(r);
	report_note(r, "files", "%u files %s, %llu bytes in all, on %s; the one-file run moves the same bytes as one file",
		    f->n, course ? "with the sizes of the course's ten small files in turn (32 859 1343 1663 2042 3065 2808 4056 3659 4619)" :
		    "of the same size", (unsigned long long)f->total, c->o.dir);
	report_note(r, "method", "one_file and n_files: median over %u rounds of the receiver's Transmission time (connection established to the last file in place, before its answer), rows interleaved, in a new order each round (runorder.h), after an untimed round that checks every output byte for byte; n_over_one = t_N / t_1, per_file = (t_N - t_1) / N, vs_baseline = t_N / the baseline's t_N, sync_cost = t_N / t_N of the same row with --no-sync: each the median of the ratio within a round",
		    f->reps);
	report_note(r, "rows", "tcpcopy --tar is ours, the \"tar | nc\" baseline: one plain TCP connection, a size header per file, each file written with open, write, close under its final name, no temporary file, no flush; tcpcopy --tar --rename writes them as the slave does, unnamed (O_TMPFILE) or under temporary names, put in place after the last (what never showing a partial file costs), still without CRC or flush; master -> slave: the same files, CRC32C, and (durable) one syncfs before they are put in place and a flush of their directories after");
	report_note(r, "module", "buf_size %llu bytes",
		    xferrun_module_param("buf_size"));
	report_note(r, "targets", "%u met (durable method pairs: n_over_one <= 4 and vs_baseline <= 1; sync_cost <= 1.5, meant for the course's ten files on a disk)",
		    met);
	if (report_end(r)) {
		msg_errno("cannot write the report");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static void free_files(struct files *f)
{
	unsigned int i;

	for (i = 0; i <= f->n; i++) {
		if (f->in[i])
			unlink(f->in[i]);
		if (f->out[i])
			unlink(f->out[i]);
		free(f->in[i]);
		free(f->out[i]);
	}
	rmdir(f->indir);
	rmdir(f->outdir);
	free(f->in);
	free(f->out);
	for (i = 0; i < NROW; i++) {
		free(f->t1[i]);
		free(f->tn[i]);
	}
	free(f);
}

int transfer_files(const struct ctx *c, unsigned int n, uint64_t size,
		   int course)
{
	struct files *f = xcalloc(1, sizeof(*f));
	unsigned int i;
	int rc;

	f->n = n;
	f->reps = c->o.reps;
	snprintf(f->indir, sizeof(f->indir), "%s/syncdev-files-in.%d",
		 c->o.dir, getpid());
	snprintf(f->outdir, sizeof(f->outdir), "%s/syncdev-files-out.%d",
		 c->o.dir, getpid());
	f->in = xcalloc(n + 1, sizeof(char *));
	f->out = xcalloc(n + 1, sizeof(char *));
	for (i = 0; i <= n; i++) {
		f->in[i] = name_in(f->indir, i < n ? "f" : "one", i);
		f->out[i] = name_in(f->outdir, i < n ? "f" : "one", i);
	}
	for (i = 0; i < NROW; i++) {
		f->t1[i] = xcalloc(f->reps, sizeof(double));
		f->tn[i] = xcalloc(f->reps, sizeof(double));
	}
	rc = xferrun_find_programs(f->bindir) || make_inputs(f, size, course) ?
	     EXIT_FAIL : rounds(f);
	if (rc == EXIT_OK)
		rc = report_files(c, f, course);
	free_files(f);
	return rc;
}
