// SPDX-License-Identifier: GPL-2.0
/*
 * osbench transfer: MB/s of one file moved by master -> slave in the four
 * method combinations, next to tcpcopy over the same loopback, with the
 * ratio of each to tcpcopy.
 *
 * Every transfer is a sender and a receiver process started by us; the
 * rate is size / the receiver's own "Transmission time" (connection
 * established to last byte written), so process start-up and the
 * connection set-up are excluded the same way for all five.  Runs are
 * interleaved round-robin, so slow drift of the machine spreads over all
 * of them instead of biasing one; a first untimed round warms the page
 * cache, the module's buffers and the TCP stack, and checks every copy
 * byte for byte.
 */
#include "benchopt.h"
#include "crc32c.h"
#include "device.h"
#include "pattern.h"
#include "report.h"
#include "stats.h"
#include "experiment.h"
#include "util.h"

#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NCONF		6
#define TCP_PORT	"2326"
#define WAIT_MS		"20000"

struct conf {
	const char *name;
	const char *send;	/* master method, NULL: tcpcopy */
	const char *recv;
	int crc;		/* tcpcopy --crc */
};

/*
 * Two baselines: plain TCP, and TCP with the CRC32C check that master and
 * slave make on every byte, so that the ratios tell the device's cost from
 * the check's.
 */
enum { TCPCOPY, TCPCOPY_CRC, FCNTL_FCNTL, FCNTL_MMAP, MMAP_FCNTL, MMAP_MMAP };

static const struct conf confs[NCONF] = {
	[TCPCOPY] = { "tcpcopy (userspace TCP)", NULL, NULL, 0 },
	[TCPCOPY_CRC] = { "tcpcopy --crc (TCP + CRC32C)", NULL, NULL, 1 },
	[FCNTL_FCNTL] = { "fcntl -> fcntl", "fcntl", "fcntl", 0 },
	[FCNTL_MMAP] = { "fcntl -> mmap", "fcntl", "mmap", 0 },
	[MMAP_FCNTL] = { "mmap -> fcntl", "mmap", "fcntl", 0 },
	[MMAP_MMAP] = { "mmap -> mmap", "mmap", "mmap", 0 },
};

/* One run of the experiment. */
struct transfer {
	char bindir[PATH_MAX];	/* where master, slave and tcpcopy are */
	char in[PATH_MAX], out[PATH_MAX];
	uint64_t size;
	unsigned int reps;
	double *rate[NCONF];	/* MB/s per run */
};

/* Start bindir/prog with argv, stdout into out_fd, stderr kept; or -1. */
static pid_t start(const struct transfer *t, char *const argv[], int out_fd)
{
	char path[PATH_MAX + 16];
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", t->bindir, argv[0]);
	pid = fork();
	if (pid < 0)
		return fail_errno("fork");
	if (pid == 0) {
		if (dup2(out_fd, 1) < 0)
			_exit(127);
		execv(path, argv);
		msg_errno("cannot run %s", path);
		_exit(127);
	}
	return pid;
}

static int finish(pid_t pid, const char *what)
{
	int st;

	if (waitpid(pid, &st, 0) < 0)
		return fail_errno("waitpid");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return fail("%s failed (status 0x%x)", what, st);
	return 0;
}

/* The milliseconds of the "Transmission time" line in fd's file. */
static double parse_ms(int fd)
{
	char buf[512];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	double ms;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "Transmission time: %lf ms", &ms) != 1)
		return -1;
	return ms;
}

/* Sender and receiver, their stdout into sfd and rfd; 0 or -1. */
static int run_pair(const struct transfer *t, char **sargv, char **rargv,
		    int sfd, int rfd)
{
	pid_t s = start(t, sargv, sfd), r = s < 0 ? -1 : start(t, rargv, rfd);
	int bad;

	if (s < 0)
		return -1;
	if (r < 0) {
		/* The sender waits for a receiver that never comes. */
		kill(s, SIGTERM);
		finish(s, sargv[0]);
		return -1;
	}
	bad = finish(r, rargv[0]);
	bad |= finish(s, sargv[0]);
	return bad ? -1 : 0;
}

/* One transfer of in to out; the receiver's time in ms, or -1. */
static double run_once(const struct transfer *t, const struct conf *c)
{
	char *sargv[8], *rargv[10], *in = (char *)t->in, *out = (char *)t->out;
	/* The programs' stdout, to read the time line from. */
	int sfd = memfd_create("sender", 0), rfd = memfd_create("receiver", 0);
	double ms = -1;

	if (c->send) {
		char *sa[] = { "master", "1", in, (char *)c->send, NULL };
		char *ra[] = { "slave", "1", out, (char *)c->recv,
			       "127.0.0.1", "--wait", WAIT_MS, NULL };

		memcpy(sargv, sa, sizeof(sa));
		memcpy(rargv, ra, sizeof(ra));
	} else {
		char *crc = c->crc ? "--crc" : NULL;
		char *sa[] = { "tcpcopy", "send", in, "--port", TCP_PORT, crc,
			       NULL };
		char *ra[] = { "tcpcopy", "recv", "127.0.0.1:" TCP_PORT, out,
			       "--wait", WAIT_MS, crc, NULL };

		memcpy(sargv, sa, sizeof(sa));
		memcpy(rargv, ra, sizeof(ra));
	}
	if (sfd < 0 || rfd < 0)
		msg_errno("memfd_create");
	else if (run_pair(t, sargv, rargv, sfd, rfd) == 0)
		ms = parse_ms(rfd);
	if (sfd >= 0)
		close(sfd);
	if (rfd >= 0)
		close(rfd);
	if (ms <= 0)
		return fail("%s: the transfer failed", c->name);
	return ms;
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

/* Module parameter, or 0 when not readable. */
static unsigned long long module_param(const char *name)
{
	unsigned long long v;

	return dev_module_param(name, &v) ? 0 : v;
}

static int print_report(const struct ctx *c, const struct transfer *t)
{
	const struct benchopt *o = &c->o;
	struct report *r = report_new("transfer", o->fmt, c->out);
	struct stats st[NCONF];
	unsigned int reps = t->reps;
	uint64_t size = t->size;
	int i;

	for (i = 0; i < NCONF; i++)
		stats_compute(t->rate[i], reps, &st[i]);
	report_column(r, "transfer", NULL);
	report_column_range(r, "rate", "MB/s");
	report_column(r, "stddev", "MB/s");
	report_column(r, "vs_tcpcopy", NULL);
	report_column(r, "vs_tcpcopy_crc", NULL);
	for (i = 0; i < NCONF; i++) {
		report_str(r, confs[i].name);
		report_num(r, st[i].median);
		report_num(r, st[i].min);
		report_num(r, st[i].max);
		report_num(r, st[i].stddev);
		report_num(r, st[i].median / st[TCPCOPY].median);
		report_num(r, st[i].median / st[TCPCOPY_CRC].median);
	}
	report_note(r, "file", "%llu bytes (pattern data), on %s",
		    (unsigned long long)size, o->dir);
	report_note(r, "link", "127.0.0.1 (loopback), one machine");
	report_note(r, "module", "buf_size %llu bytes, port %llu",
		    module_param("buf_size"), module_param("port"));
	report_note(r, "method",
		    "rate = size / the receiver's Transmission time (connection established to last byte written; MB = 10^6 bytes); median of %u runs per row after one untimed warm-up round, rows interleaved round-robin; 1 MiB per read()/write() or SEND/RECV ioctl",
		    reps);
	report_note(r, "check",
		    "the warm-up copy of every row compared by CRC32C with the input: identical");
	report_note(r, "crc32c", "%s",
		    crc32c_hw_available() ?
		    "SSE4.2 instruction" :
		    "software (slice-by-8): this CPU model has no SSE4.2");
	report_note(r, "targets",
		    "mmap -> mmap >= 1.0 x tcpcopy (got %.2f; %.2f x tcpcopy --crc); fcntl -> fcntl >= 0.9 x tcpcopy (got %.2f; %.2f x tcpcopy --crc)",
		    st[MMAP_MMAP].median / st[TCPCOPY].median,
		    st[MMAP_MMAP].median / st[TCPCOPY_CRC].median,
		    st[FCNTL_FCNTL].median / st[TCPCOPY].median,
		    st[FCNTL_FCNTL].median / st[TCPCOPY_CRC].median);
	if (report_end(r)) {
		msg_errno("cannot write the report");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

struct transfer_opts {
	uint64_t size;
};

static const struct opt transfer_options[] = {
	{ .name = "size", .kind = OPT_SIZE, .arg = "SIZE", .min = 1,
	  .off = offsetof(struct transfer_opts, size),
	  .help = "bytes of the file (default 64M, --smoke 1M)" },
	{ 0 },
};

/*
 * Round 0 warms up and checks; rounds 1..reps are measured.  EXIT_OK,
 * EXIT_FAIL, or EXIT_CORRUPT when a copy differs from the input.
 */
static int transfer_rounds(struct transfer *t, uint32_t want)
{
	unsigned int round, i;
	uint32_t crc;
	double ms;

	for (round = 0; round <= t->reps; round++) {
		for (i = 0; i < NCONF; i++) {
			ms = run_once(t, &confs[i]);
			if (ms < 0 || (round == 0 &&
				       file_crc(t->out, t->size, &crc)))
				return EXIT_FAIL;
			if (round == 0 && crc != want) {
				msg("%s: the copy differs", confs[i].name);
				return EXIT_CORRUPT;
			}
			if (round)
				t->rate[i][round - 1] = t->size / 1e6 /
							(ms / 1e3);
			unlink(t->out);
		}
		msg("round %u of %u done", round, t->reps);
	}
	return EXIT_OK;
}

/* This program's directory, and the module there: 0 or -1. */
static int find_programs(struct transfer *t)
{
	ssize_t n = readlink("/proc/self/exe", t->bindir,
			     sizeof(t->bindir) - 1);

	if (n < 0)
		return fail_errno("cannot find this program (/proc/self/exe)");
	t->bindir[n] = '\0';
	*strrchr(t->bindir, '/') = '\0';
	if (access(dev_path(DEV_MASTER), F_OK))
		return fail_errno("%s (is the syncdev module loaded?)",
				  dev_path(DEV_MASTER));
	return 0;
}

static const char usage[] =
	"usage: osbench transfer [--size SIZE] [common options]\n\n"
	"MB/s of one SIZE-byte file moved from master to slave over\n"
	"127.0.0.1, in the four method combinations, and by tcpcopy\n"
	"(plain userspace TCP, read()/write() with a 1 MiB buffer) for\n"
	"comparison.  Needs the syncdev module loaded and master, slave and\n"
	"tcpcopy next to this program.  make bench-transfer runs it in the VM.\n";

static int transfer_run(const struct ctx *c, const void *opts)
{
	const struct transfer_opts *to = opts;
	const struct benchopt *o = &c->o;
	struct transfer *t = xcalloc(1, sizeof(*t));
	uint32_t want = 0;
	int i, rc;

	t->size = to->size ? to->size :
		  o->mode == BENCH_SMOKE ? 1 << 20 : 64 << 20;
	t->reps = o->reps;
	snprintf(t->in, sizeof(t->in), "%s/syncdev-transfer-in.%d", o->dir,
		 getpid());
	snprintf(t->out, sizeof(t->out), "%s/syncdev-transfer-out.%d",
		 o->dir, getpid());
	for (i = 0; i < NCONF; i++)
		t->rate[i] = xcalloc(t->reps, sizeof(double));
	rc = find_programs(t) || make_input(t->in, t->size) ||
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
		"MB/s of master/slave vs tcpcopy (make bench-transfer)",
		COMMAND_OPTIONS(transfer_options, struct transfer_opts),
		.reps = { 7, 5, 3 });
