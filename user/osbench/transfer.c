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
	double *rate;		/* MB/s per run */
};

/*
 * Two baselines: plain TCP, and TCP with the CRC32C check that master and
 * slave make on every byte, so that the ratios tell the device's cost from
 * the check's.
 */
enum { TCPCOPY, TCPCOPY_CRC, FCNTL_FCNTL, FCNTL_MMAP, MMAP_FCNTL, MMAP_MMAP };

static struct conf confs[NCONF] = {
	[TCPCOPY] = { "tcpcopy (userspace TCP)", NULL, NULL, 0, NULL },
	[TCPCOPY_CRC] = { "tcpcopy --crc (TCP + CRC32C)", NULL, NULL, 1, NULL },
	[FCNTL_FCNTL] = { "fcntl -> fcntl", "fcntl", "fcntl", 0, NULL },
	[FCNTL_MMAP] = { "fcntl -> mmap", "fcntl", "mmap", 0, NULL },
	[MMAP_FCNTL] = { "mmap -> fcntl", "mmap", "fcntl", 0, NULL },
	[MMAP_MMAP] = { "mmap -> mmap", "mmap", "mmap", 0, NULL },
};

static char bindir[PATH_MAX];

/* Start bindir/prog with argv, stdout into out_fd, stderr kept. */
static pid_t start(char *const argv[], int out_fd)
{
	char path[PATH_MAX + 16];
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", bindir, argv[0]);
	pid = fork();
	if (pid < 0)
		die_errno("fork");
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
		die_errno("waitpid");
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		msg("%s failed (status 0x%x)", what, st);
		return -1;
	}
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

/* One transfer of in to out; the receiver's time in ms. */
static double run_once(const struct conf *c, const char *in, const char *out)
{
	char *sargv[8], *rargv[10];
	/* The programs' stdout, to read the time line from. */
	int sfd = memfd_create("sender", 0), rfd = memfd_create("receiver", 0);
	pid_t s, r;
	double ms;
	int bad;

	if (sfd < 0 || rfd < 0)
		die_errno("memfd_create");
	if (c->send) {
		char *sa[] = { "master", "1", (char *)in, (char *)c->send, NULL };
		char *ra[] = { "slave", "1", (char *)out, (char *)c->recv,
			       "127.0.0.1", "--wait", WAIT_MS, NULL };

		memcpy(sargv, sa, sizeof(sa));
		memcpy(rargv, ra, sizeof(ra));
	} else {
		char *crc = c->crc ? "--crc" : NULL;
		char *sa[] = { "tcpcopy", "send", (char *)in, "--port",
			       TCP_PORT, crc, NULL };
		char *ra[] = { "tcpcopy", "recv", "127.0.0.1:" TCP_PORT,
			       (char *)out, "--wait", WAIT_MS, crc, NULL };

		memcpy(sargv, sa, sizeof(sa));
		memcpy(rargv, ra, sizeof(ra));
	}
	s = start(sargv, sfd);
	r = start(rargv, rfd);
	bad = finish(r, rargv[0]);
	bad |= finish(s, sargv[0]);
	ms = parse_ms(rfd);
	close(sfd);
	close(rfd);
	if (bad || ms <= 0)
		die(EXIT_FAIL, "%s: the transfer failed", c->name);
	return ms;
}

static uint32_t file_crc(const char *path, uint64_t size)
{
	int fd = open(path, O_RDONLY);
	void *p;
	uint32_t crc;

	if (fd < 0)
		die_errno("cannot open %s", path);
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die_errno("cannot mmap %s", path);
	crc = crc32c(0, p, size);
	munmap(p, size);
	close(fd);
	return crc;
}

static void make_input(const char *path, uint64_t size)
{
	static unsigned char buf[1 << 20];
	uint64_t off;
	size_t n;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die_errno("cannot create %s", path);
	for (off = 0; off < size; off += n) {
		n = size - off < sizeof(buf) ? (size_t)(size - off) : sizeof(buf);
		pattern_fill(buf, n, off);
		if (write_full(fd, buf, n) < 0)
			die_errno("writing %s", path);
	}
	if (close(fd))
		die_errno("writing %s", path);
}

/* Module parameter, or 0 when not readable. */
static unsigned long long module_param(const char *name)
{
	unsigned long long v;

	return dev_module_param(name, &v) ? 0 : v;
}

static int print_report(const struct ctx *c, uint64_t size,
			unsigned int reps)
{
	const struct benchopt *o = &c->o;
	struct report *r = report_new("transfer", o->fmt, c->out);
	struct stats st[NCONF];
	int i;

	for (i = 0; i < NCONF; i++)
		stats_compute(confs[i].rate, reps, &st[i]);
	report_column(r, "transfer", NULL);
	report_column(r, "rate", "MB/s");
	report_column(r, "rate_min", "MB/s");
	report_column(r, "rate_max", "MB/s");
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

static int transfer_run(const struct ctx *c, const void *opts)
{
	const struct transfer_opts *to = opts;
	const struct benchopt o = c->o;
	char in[PATH_MAX], out[PATH_MAX], *slash;
	uint64_t size = to->size ? to->size :
			o.mode == BENCH_SMOKE ? 1 << 20 : 64 << 20;
	unsigned int reps, round, i;
	uint32_t want;
	ssize_t n;
	int rc;

	reps = o.reps ? o.reps : o.mode == BENCH_FULL ? 7 :
				 o.mode == BENCH_QUICK ? 5 : 3;
	n = readlink("/proc/self/exe", bindir, sizeof(bindir) - 1);
	if (n < 0)
		die_errno("cannot find this program (/proc/self/exe)");
	bindir[n] = '\0';
	slash = strrchr(bindir, '/');
	*slash = '\0';
	if (access(dev_path(DEV_MASTER), F_OK))
		die_errno("%s (is the syncdev module loaded?)",
			  dev_path(DEV_MASTER));

	snprintf(in, sizeof(in), "%s/syncdev-transfer-in.%d", o.dir, getpid());
	snprintf(out, sizeof(out), "%s/syncdev-transfer-out.%d", o.dir,
		 getpid());
	make_input(in, size);
	want = file_crc(in, size);
	for (i = 0; i < NCONF; i++) {
		confs[i].rate = calloc(reps, sizeof(double));
		if (!confs[i].rate)
			die(EXIT_FAIL, "out of memory");
	}
	/* Round 0 warms up and checks; rounds 1..reps are measured. */
	for (round = 0; round <= reps; round++) {
		for (i = 0; i < NCONF; i++) {
			double ms = run_once(&confs[i], in, out);

			if (round == 0 && file_crc(out, size) != want)
				die(EXIT_CORRUPT, "%s: the copy differs",
				    confs[i].name);
			if (round)
				confs[i].rate[round - 1] = size / 1e6 /
							   (ms / 1e3);
			unlink(out);
		}
		msg("round %u of %u done", round, reps);
	}
	unlink(in);
	rc = print_report(c, size, reps);
	for (i = 0; i < NCONF; i++)
		free(confs[i].rate);
	return rc;
}

const struct command cmd_transfer = {
	.name = "transfer",
	.summary = "MB/s of master/slave vs tcpcopy (make bench-transfer)",
	.usage =
	"usage: osbench transfer [--size SIZE] [common options]\n\n"
	"MB/s of one SIZE-byte file moved from master to slave over\n"
	"127.0.0.1, in the four method combinations, and by tcpcopy\n"
	"(plain userspace TCP, read()/write() with a 1 MiB buffer) for\n"
	"comparison.  Needs the syncdev module loaded and master, slave and\n"
	"tcpcopy next to this program.  make bench-transfer runs it in the VM.\n",
	.options = transfer_options,
	.opts_size = sizeof(struct transfer_opts),
	.flags = CMD_TABLE | CMD_SCRATCH,
	.reps_default = "7, --quick 5, --smoke 3",
	.run = transfer_run,
};
