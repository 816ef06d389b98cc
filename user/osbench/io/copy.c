// SPDX-License-Identifier: GPL-2.0
/*
 * osbench copy: copying a file with read() and write() against
 * "dd bs=512", at the course's sizes (80 B, 1 MB, 1 GB): the program at
 * dd's 512-byte blocks and at the best block size it finds.  Every copy
 * is compared with its source byte for byte.
 */
#include "bench_io.h"
#include "io.h"
#include "pattern.h"
#include "util.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The block sizes tried for the best: 4 KiB to 4 MiB, x4. */
static const size_t candidates[] = { 4096, 16384, 65536, 262144, 1048576,
				     4194304 };

struct copy_opts {
	const char *sizes;	/* "80,1M" */
};

/* Copy src to dst in blocks of bs with read() and write(); 0 or -1. */
static int copy_file(const char *src, const char *dst, size_t bs, char *buf)
{
	int in = open(src, O_RDONLY | O_CLOEXEC), out;
	ssize_t n = 0;

	if (in < 0)
		return fail_errno("open %s", src);
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return fail_errno("create %s", dst);
	}
	while ((n = read(in, buf, bs)) > 0)
		if (write_full(out, buf, (size_t)n) != n)
			break;
	close(in);
	if (close(out) || n != 0)
		return fail_errno("copy %s to %s", src, dst);
	return 0;
}

/* dst holds exactly the pattern's first size bytes: 0, or -1. */
static int check_copy(const char *dst, uint64_t size, char *buf, char *want)
{
	int fd = open(dst, O_RDONLY | O_CLOEXEC);
	uint64_t off = 0;
	ssize_t n;

	if (fd < 0)
		return fail_errno("open %s", dst);
	while ((n = read_full(fd, buf, 1 << 20)) > 0) {
		pattern_fill(want, (size_t)n, off);
		if (off + (uint64_t)n > size || memcmp(buf, want, (size_t)n))
			break;
		off += (uint64_t)n;
	}
	close(fd);
	if (n != 0 || off != size)
		return fail("%s is not a byte-for-byte copy", dst);
	return 0;
}

/* The source: size bytes of the pattern; 0 or -1. */
static int make_source(const char *path, uint64_t size, char *buf)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	uint64_t off;
	size_t n;

	if (fd < 0)
		return fail_errno("create %s", path);
	for (off = 0; off < size; off += n) {
		n = size - off < (1 << 20) ? (size_t)(size - off) : 1 << 20;
		pattern_fill(buf, n, off);
		if (write_full(fd, buf, n) < 0) {
			close(fd);
			return fail_errno("write %s", path);
		}
	}
	return close(fd) ? fail_errno("close %s", path) : 0;
}

struct copy_run {
	char *src, *dst, *buf, *want;
	uint64_t size;
	unsigned int reps;
};

/*
 * The median seconds of reps copies, each checked: bs 0 runs dd bs=512
 * as a child process (timed from fork to exit), else copy_file.
 */
static int time_copy(struct copy_run *c, size_t bs, double *sec)
{
	char in[4200], out[4200];
	char *dd[] = { "dd", in, out, "bs=512", "status=none", NULL };
	double *t = xcalloc(c->reps, sizeof(*t));
	struct stats st;
	unsigned int i;
	uint64_t t0;
	int rc = 0;

	snprintf(in, sizeof(in), "if=%s", c->src);
	snprintf(out, sizeof(out), "of=%s", c->dst);
	for (i = 0; i < c->reps && !rc; i++) {
		unlink(c->dst);
		t0 = now_ns();
		rc = bs ? copy_file(c->src, c->dst, bs, c->buf) :
			  (bench_spawn("dd", dd, -1, -1) ?
			   fail("dd if=%s of=%s bs=512 failed", c->src,
				c->dst) : 0);
		t[i] = (double)(now_ns() - t0) / 1e9;
		if (!rc)
			rc = check_copy(c->dst, c->size, c->buf, c->want);
	}
	if (!rc)
		stats_compute(t, c->reps, &st);
	*sec = rc ? 0 : st.median;
	free(t);
	return rc;
}

static void row(struct report *r, const struct copy_run *c, const char *tool,
		size_t bs, double sec)
{
	report_num(r, (double)c->size);
	report_str(r, tool);
	report_num(r, (double)bs);
	report_num(r, sec);
	report_num(r, (double)c->size / (1 << 20) / sec);
}

/* The three rows of one size: dd, 512-byte blocks, the best block. */
static int copy_size(struct report *r, struct copy_run *c)
{
	double sec, best = 0;
	size_t i, bs = 512;

	if (make_source(c->src, c->size, c->buf) || time_copy(c, 0, &sec))
		return -1;
	row(r, c, "dd bs=512", 512, sec);
	if (time_copy(c, 512, &sec))
		return -1;
	row(r, c, "copy bs=512", 512, sec);
	for (i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		if (time_copy(c, candidates[i], &sec))
			return -1;
		if (!best || sec < best) {
			best = sec;
			bs = candidates[i];
		}
	}
	row(r, c, "copy best block", bs, best);
	return 0;
}

static const struct opt copy_options[] = {
	{ .name = "sizes", .kind = OPT_STR, .arg = "LIST", .def = "80,1M",
	  .off = offsetof(struct copy_opts, sizes),
	  .help = "file sizes, comma-separated (the course's: 80,1M,1G)" },
	{ 0 },
};

static const char usage[] =
	"usage: osbench copy [--sizes LIST] [--dir DIR] [options]\n\n"
	"For each size (default 80 B and 1 MiB; the course's table adds 1G),\n"
	"write a pattern file in DIR and copy it: with \"dd bs=512\" (a child\n"
	"process, timed from fork to exit: its start-up included), with\n"
	"read() and write() of 512 bytes, and with the best block size of\n"
	"4K..4M (x4), timed in the process.  Median of --reps copies; every\n"
	"copy is compared with its source byte for byte.  Rates in MiB/s.\n";

static struct report *copy_table(const struct ctx *c, const char *dir)
{
	struct report *r = report_new("copy", c->o.fmt, c->out);

	report_column(r, "size", "bytes");
	report_column(r, "tool", NULL);
	report_column(r, "block", "bytes");
	report_column(r, "time", "s");
	report_column(r, "rate", "MiB/s");
	report_note(r, "method", "median of %u copies each, every copy "
		    "checked byte for byte; dd is a child process (its "
		    "fork+exec included), the copies run in this process",
		    (unsigned int)c->o.reps);
	report_note(r, "dir", "%s", dir);
	return r;
}

/*
 * Every size of list, copied when r is not NULL, else only checked: 0,
 * -1 after a message, -2 after one about a bad size.
 */
static int copy_sizes(struct report *r, struct copy_run *c, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *tok;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		if (parse_size(tok, &c->size) || !c->size) {
			msg("bad size '%s' in --sizes (e.g. 80,1M,1G)", tok);
			rc = -2;
		} else if (r) {
			rc = copy_size(r, c);
		}
	}
	free(copy);
	return rc;
}

static int copy_run(const struct ctx *c, const void *opts)
{
	const struct copy_opts *o = opts;
	struct copy_run run = { .reps = (unsigned int)c->o.reps };
	struct report *r;
	int rc;

	if (copy_sizes(NULL, &run, o->sizes))
		return EXIT_USAGE;
	run.src = xasprintf("%s/osbench-copy-src.%d", c->o.dir, (int)getpid());
	run.dst = xasprintf("%s/osbench-copy-dst.%d", c->o.dir, (int)getpid());
	run.buf = xmalloc(4194304);
	run.want = xmalloc(1 << 20);
	r = copy_table(c, c->o.dir);
	rc = copy_sizes(r, &run, o->sizes);
	unlink(run.src);
	unlink(run.dst);
	if (rc)
		report_free(r);
	else if (report_end(r))
		rc = fail_errno("cannot write the table");
	free(run.src);
	free(run.dst);
	free(run.buf);
	free(run.want);
	return rc == -2 ? EXIT_USAGE : rc ? EXIT_FAIL : EXIT_OK;
}

OSBENCH_COMMAND(copy, "copy", CMD_TABLE | CMD_SCRATCH,
		"copy a file: read()/write() against dd bs=512",
		COMMAND_OPTIONS(copy_options, struct copy_opts),
		.max_args = 0, .max_reps = 100, .reps = { 5, 3, 3 });
