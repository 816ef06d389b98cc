// SPDX-License-Identifier: GPL-2.0
/*
 * osbench transfer: MiB/s of one file moved by master -> slave in the four
 * method combinations, next to tcpcopy over the same loopback (plain and
 * through the device, with and without CRC32C), with the ratio of each to
 * tcpcopy and the cost of each step of the ladder below.
 *
 * Every transfer is a sender and a receiver process started by us; the
 * rate is size / the receiver's own "Transmission time" (connection
 * established to last byte written), so process start-up and the
 * connection set-up are excluded the same way for all eight rows.  Runs are
 * interleaved, in a new order each round (runorder.h), so slow drift of
 * the machine and what one run leaves to the next spread over all of them
 * instead of biasing one; a first untimed round warms the page
 * cache, the module's buffers and the TCP stack, and checks every copy
 * byte for byte.
 */
#include "benchopt.h"
#include "crc32c.h"
#include "pattern.h"
#include "report.h"
#include "runorder.h"
#include "stats.h"
#include "sysinfo.h"
#include "experiment.h"
#include "target.h"
#include "util.h"
#include "xferrun.h"

#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define TCP_PORT	"2326"
#define WAIT_MS		"20000"

/*
 * The rows form a ladder: each adds one thing to the row it names as its
 * base, so that the ratio to that row is the cost of that one thing.
 * tcpcopy (plain TCP) -> tcpcopy --device (the same copy through the
 * device: write() on the master side, read() on the slave side) ->
 * tcpcopy --device --crc (+ the CRC32C on every byte, a size before and
 * the CRC after: no frames) -> fcntl -> fcntl (+ master/slave's framing,
 * temporary file and rename) -> the mmap methods.  tcpcopy --crc is the
 * baseline the targets of master and slave are set against: the same
 * integrity work, without the device.
 */
enum { TCPCOPY, TCPCOPY_ZC, TCPCOPY_DEV, TCPCOPY_DEV_ZC, TCPCOPY_DEV_CRC,
       TCPCOPY_CRC,
       FCNTL_FCNTL, FCNTL_COPY, FCNTL_MMAP, MMAP_FCNTL, MMAP_MMAP, NCONF };

struct conf {
	const char *name;
	const char *send;	/* master method, NULL: tcpcopy */
	const char *recv;
	int crc, device, zc;	/* tcpcopy --crc, --device, --zerocopy */
	int copy;		/* master/slave --copy */
	int base;		/* the row this one adds a step to, or -1 */
	const char *step;	/* what the step adds */
	int target_of;		/* the row the target is a ratio to, or -1 */
	double want;		/* the target: at least want x that row */
};

static const struct conf confs[NCONF] = {
	[TCPCOPY] = { "tcpcopy", .base = -1,
		      .target_of = -1 },
	[TCPCOPY_ZC] = { "tcpcopy --zerocopy", .zc = 1, .base = TCPCOPY,
			 .step = "sendfile/splice", .target_of = -1 },
	[TCPCOPY_DEV] = { "tcpcopy --device",
			  .device = 1, .base = TCPCOPY, .step = "device",
			  .target_of = TCPCOPY, .want = 0.95 },
	[TCPCOPY_DEV_ZC] = { "tcpcopy --device --zerocopy", .device = 1,
			     .zc = 1, .base = TCPCOPY_DEV, .step = "sendfile/splice",
			     .target_of = -1 },
	[TCPCOPY_DEV_CRC] = { "tcpcopy --device --crc",
			      .crc = 1, .device = 1, .base = TCPCOPY_DEV,
			      .step = "CRC32C", .target_of = -1 },
	[TCPCOPY_CRC] = { "tcpcopy --crc", .crc = 1,
			  .base = TCPCOPY, .step = "CRC32C", .target_of = -1 },
	[FCNTL_FCNTL] = { "fcntl -> fcntl", "fcntl", "fcntl",
			  .base = TCPCOPY_DEV_CRC, .step = "framing",
			  .target_of = TCPCOPY_CRC, .want = 0.95 },
	[FCNTL_COPY] = { "fcntl -> fcntl --copy", "fcntl", "fcntl", .copy = 1,
			 .base = FCNTL_FCNTL, .step = "read/write",
			 .target_of = -1 },
	[FCNTL_MMAP] = { "fcntl -> mmap", "fcntl", "mmap",
			 .base = FCNTL_FCNTL, .step = "mmap receiver",
			 .target_of = -1 },
	[MMAP_FCNTL] = { "mmap -> fcntl", "mmap", "fcntl",
			 .base = FCNTL_FCNTL, .step = "mmap sender",
			 .target_of = -1 },
	[MMAP_MMAP] = { "mmap -> mmap", "mmap", "mmap", .base = FCNTL_FCNTL,
			.step = "mmap both", .target_of = TCPCOPY_CRC,
			.want = 0.9 },
};

/* One run of the experiment. */
struct transfer {
	char bindir[PATH_MAX];	/* where master, slave and tcpcopy are */
	char in[PATH_MAX], out[PATH_MAX];
	uint64_t size;
	unsigned int reps;
	double *rate[NCONF];	/* MiB/s per run */
};

/* One transfer of in to out; the receiver's time in ms, or -1. */
static double run_once(const struct transfer *t, const struct conf *c)
{
	char *sargv[8], *rargv[10], *in = (char *)t->in, *out = (char *)t->out;

	if (c->send) {
		char *copy = c->copy ? "--copy" : NULL;
		char *sa[] = { "master", "1", in, (char *)c->send, copy, NULL };
		char *ra[] = { "slave", "1", out, (char *)c->recv,
			       "127.0.0.1", "--wait", WAIT_MS, copy, NULL };

		memcpy(sargv, sa, sizeof(sa));
		memcpy(rargv, ra, sizeof(ra));
	} else {
		/* Options after a NULL are dropped: crc before device. */
		char *crc = c->crc ? "--crc" : c->zc ? "--zerocopy" :
			    c->device ? "--device" : NULL;
		char *dev = (c->crc || c->zc) && c->device ? "--device" : NULL;
		char *sa[] = { "tcpcopy", "send", in, "--port", TCP_PORT, crc,
			       dev, NULL };
		char *ra[] = { "tcpcopy", "recv", c->device ? "127.0.0.1" :
			       "127.0.0.1:" TCP_PORT, out, "--wait", WAIT_MS,
			       crc, dev, NULL };

		memcpy(sargv, sa, sizeof(sa));
		memcpy(rargv, ra, sizeof(ra));
	}
	return xferrun_pair(t->bindir, sargv, rargv, c->name);
}

/* CRC32C of the file at path: 0 with *crc, or -1 after a message. */
static int file_crc(const char *path, uint64_t size, uint32_t *crc)
{
	int fd = open(path, O_RDONLY);
	void *p;

	if (fd < 0)
		return fail_errno("cannot open %s", path);
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return fail_errno("cannot mmap %s", path);
	*crc = crc32c(0, p, size);
	munmap(p, size);
	return 0;
}

static int make_input(const char *path, uint64_t size)
{
	unsigned char *buf = xmalloc(1 << 20);
	uint64_t off;
	size_t n;
	int rc = 0, fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0) {
		free(buf);
		return fail_errno("cannot create %s", path);
	}
	for (off = 0; off < size && !rc; off += n) {
		n = size - off < 1 << 20 ? (size_t)(size - off) : 1 << 20;
		pattern_fill(buf, n, off);
		if (write_full(fd, buf, n) < 0)
			rc = fail_errno("writing %s", path);
	}
	if (close(fd) && !rc)
		rc = fail_errno("writing %s", path);
	free(buf);
	return rc;
}

/*
 * Row i against row j: the median over the rounds of the ratio of their
 * runs in the same round.  Runs of one round are seconds apart, so load
 * that comes and goes over minutes (other guests, builds) cancels out of
 * each ratio, where the ratio of two medians would keep it.
 */
static double paired(const struct transfer *t, int i, int j)
{
	double *q = xcalloc(t->reps, sizeof(double)), v;
	struct stats st;
	unsigned int k;

	for (k = 0; k < t->reps; k++)
		q[k] = t->rate[i][k] / t->rate[j][k];
	stats_compute(q, t->reps, &st);
	v = st.median;
	free(q);
	return v;
}

/* The cells of row i: step and its ratio, then the target; whether met. */
static bool step_cells(struct report *r, const struct transfer *t, int i)
{
	const struct conf *c = &confs[i];
	char buf[96];

	if (c->base < 0) {
		report_none(r);
		report_none(r);
	} else {
		snprintf(buf, sizeof(buf), "+ %s", c->step);
		report_str(r, buf);
		report_num(r, paired(t, i, c->base));
	}
	if (c->target_of < 0) {
		report_none(r);
		target_cells(r, 0, 0);
		return false;
	}
	report_str(r, confs[c->target_of].name);
	return target_cells(r, paired(t, i, c->target_of), c->want);
}

/* The notes under the table: what was measured, how, and the targets. */
static void print_notes(struct report *r, const struct benchopt *o,
			const struct transfer *t, unsigned int met)
{
	sysinfo_note(r);
	report_note(r, "file", "%llu bytes (pattern data), on %s",
		    (unsigned long long)t->size, o->dir);
	report_note(r, "link", "127.0.0.1 (loopback), one machine");
	report_note(r, "module", "buf_size %llu bytes, port %llu",
		    xferrun_module_param("buf_size"),
		    xferrun_module_param("port"));
	report_note(r, "method",
		    "rate = size / the receiver's Transmission time (connection established to last byte written and the file in place, before its answer; MiB = 2^20 bytes); median of %u runs per row after one untimed warm-up round, rows interleaved in a new order each round; every program with its default buffer (xferopt.h)",
		    t->reps);
	report_note(r, "rows",
		    "every row sends the size first and ends with the receiver's answer (file in place, or why not); tcpcopy: plain userspace TCP; --device: the same copy through the device (write() on the master side, read() on the slave side: the raw device stream); --crc: + the CRC32C of every byte (sent after the data, no frames); --zerocopy: the kernel's zero-copy path, sendfile() on the sender (the file's pages sent by reference: no copy), splice() socket -> pipe -> file on the receiver (one copy, socket buffers into the page cache), so 1 copy a byte where tcpcopy takes 4 (file -> buffer -> socket, socket -> buffer -> file); --device --zerocopy: sendfile() into the master device and splice() out of the slave device (the pages by reference both ways): 1 copy, as --zerocopy; fcntl/mmap: master -> slave, with their frames (docs/protocol.md), fcntl sending and receiving files of 64 KiB and up by sendfile() and splice(); --copy: read() and write() only, as the course's programs");
	report_note(r, "ratios",
		    "every ratio (vs_*, step_ratio, the targets) is the median over the rounds of the two rows' ratio in the same round, not a ratio of medians");
	report_note(r, "steps",
		    "step: what the row adds to the row before it in the ladder tcpcopy, --device, --device --crc, fcntl -> fcntl, mmap (tcpcopy --crc adds the CRC to tcpcopy, tcpcopy --zerocopy sendfile/splice in place of read/write, tcpcopy --device --zerocopy sendfile/splice through the device, fcntl -> fcntl --copy read/write in place of sendfile/splice); step_ratio: the row's rate over that row's, so 1 - step_ratio is the share of the time the step costs");
	report_note(r, "check",
		    "the warm-up copy of every row compared by CRC32C with the input: identical");
	report_note(r, "crc32c", "%s",
		    crc32c_hw_available() ?
		    "SSE4.2 instruction" :
		    "software (slice-by-8): this CPU model has no SSE4.2");
	report_note(r, "targets", "%u of 3 met (raw device stream >= 0.95 x tcpcopy; fcntl -> fcntl >= 0.95 x and mmap -> mmap >= 0.9 x tcpcopy --crc)",
		    met);
}

static int print_report(const struct ctx *c, const struct transfer *t)
{
	struct report *r = report_new("transfer", c->o.fmt, c->out);
	struct stats st;
	unsigned int met = 0;
	int i;

	report_column(r, "transfer", NULL);
	report_column_range(r, "rate", "MiB/s");
	report_column(r, "stddev", "MiB/s");
	report_column(r, "vs_tcpcopy", NULL);
	report_column(r, "vs_tcpcopy_crc", NULL);
	report_column(r, "vs_zerocopy", NULL);
	report_column(r, "step", NULL);
	report_column(r, "step_ratio", NULL);
	report_column(r, "target_of", NULL);
	target_columns(r);
	for (i = 0; i < NCONF; i++) {
		stats_compute(t->rate[i], t->reps, &st);
		report_str(r, confs[i].name);
		report_num(r, st.median);
		report_num(r, st.min);
		report_num(r, st.max);
		report_num(r, st.stddev);
		report_num(r, paired(t, i, TCPCOPY));
		report_num(r, paired(t, i, TCPCOPY_CRC));
		report_num(r, paired(t, i, TCPCOPY_ZC));
		met += step_cells(r, t, i);
	}
	print_notes(r, &c->o, t, met);
	if (report_end(r)) {
		msg_errno("cannot write the report");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

struct transfer_opts {
	uint64_t size;
	uint64_t files;
	uint64_t file_size;
	bool course;
};

static const struct opt transfer_options[] = {
	{ .name = "size", .kind = OPT_SIZE, .arg = "SIZE", .min = 1,
	  .off = offsetof(struct transfer_opts, size),
	  .help = "bytes of the file (default 64M, --smoke 1M)" },
	{ .name = "files", .kind = OPT_UINT, .arg = "N", .min = 1,
	  .max = 100000, .off = offsetof(struct transfer_opts, files),
	  .help = "the cost of a file instead: the same bytes as one file\n"
		  "and as N files, master/slave and the tar | nc baseline" },
	{ .name = "file-size", .kind = OPT_SIZE, .arg = "SIZE", .min = 1,
	  .max = 64 << 20, .def = "1K",
	  .off = offsetof(struct transfer_opts, file_size),
	  .help = "--files: bytes of each file" },
	{ .name = "course", .kind = OPT_FLAG,
	  .off = offsetof(struct transfer_opts, course),
	  .help = "--files: the sizes of the course's ten small files in\n"
		  "turn instead of --file-size" },
	{ 0 },
};

/*
 * Round 0 warms up and checks; rounds 1..reps are measured.  EXIT_OK,
 * EXIT_FAIL, or EXIT_CORRUPT when a copy differs from the input.
 */
static int transfer_rounds(struct transfer *t, uint32_t want)
{
	unsigned int round, k, i, order[NCONF];
	uint32_t crc;
	double ms;

	for (round = 0; round <= t->reps; round++) {
		run_order(order, NCONF, round);
		for (k = 0; k < NCONF; k++) {
			i = order[k];
			ms = run_once(t, &confs[i]);
			if (ms < 0 || (round == 0 &&
				       file_crc(t->out, t->size, &crc)))
				return EXIT_FAIL;
			if (round == 0 && crc != want) {
				msg("%s: the copy differs", confs[i].name);
				return EXIT_CORRUPT;
			}
			if (round)
				t->rate[i][round - 1] = t->size / 1048576.0 /
							(ms / 1e3);
			unlink(t->out);
		}
		msg("round %u of %u done", round, t->reps);
	}
	return EXIT_OK;
}

static const char usage[] =
	"usage: osbench transfer [--size SIZE] [common options]\n"
	"       osbench transfer --files N [--file-size SIZE | --course] [common options]\n\n"
	"MiB/s of one SIZE-byte file moved from master to slave over\n"
	"127.0.0.1, in the four method combinations, and by tcpcopy (plain\n"
	"userspace TCP) over TCP and through the device, with and without\n"
	"CRC32C, and by the kernel's zero-copy path (tcpcopy --zerocopy:\n"
	"sendfile and splice): a ladder of rows that each add one thing (the device, the\n"
	"CRC, the framing, mmap), with the ratio that is its cost, and the\n"
	"targets with met/missed.  With --files N: the cost of a file, the\n"
	"same bytes moved as one file and as N files, each method pair\n"
	"(durable and --no-sync) beside tcpcopy --tar (the tar | nc\n"
	"baseline), with the per-file cost and the targets.  Needs the\n"
	"syncdev module loaded and master, slave and tcpcopy next to this\n"
	"program.  make bench-transfer runs it in the VM.\n";

static int transfer_run(const struct ctx *c, const void *opts)
{
	const struct transfer_opts *to = opts;
	const struct benchopt *o = &c->o;
	struct transfer *t = xcalloc(1, sizeof(*t));
	uint32_t want = 0;
	int i, rc;

	if (to->files) {
		free(t);
		return transfer_files(c, (unsigned int)to->files,
				      to->file_size, to->course);
	}
	t->size = to->size ? to->size :
		  o->mode == BENCH_SMOKE ? 1 << 20 : 64 << 20;
	t->reps = o->reps;
	snprintf(t->in, sizeof(t->in), "%s/syncdev-transfer-in.%d", o->dir,
		 getpid());
	snprintf(t->out, sizeof(t->out), "%s/syncdev-transfer-out.%d",
		 o->dir, getpid());
	for (i = 0; i < NCONF; i++)
		t->rate[i] = xcalloc(t->reps, sizeof(double));
	rc = xferrun_find_programs(t->bindir) || make_input(t->in, t->size) ||
	     file_crc(t->in, t->size, &want) ? EXIT_FAIL : EXIT_OK;
	if (rc == EXIT_OK)
		rc = transfer_rounds(t, want);
	unlink(t->in);
	unlink(t->out);
	if (rc == EXIT_OK)
		rc = print_report(c, t);
	for (i = 0; i < NCONF; i++)
		free(t->rate[i]);
	free(t);
	return rc;
}

OSBENCH_COMMAND(transfer, "transfer", CMD_TABLE | CMD_SCRATCH,
		"MiB/s of master/slave vs tcpcopy (make bench-transfer)",
		COMMAND_OPTIONS(transfer_options, struct transfer_opts),
		.reps = { 7, 5, 3 });
