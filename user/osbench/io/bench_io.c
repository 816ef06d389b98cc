// SPDX-License-Identifier: GPL-2.0
/*
 * osbench bench-io (make bench-io): fast against the strongest readers
 * there are (dd bs=1M, cat, dd iflag=direct, fio psync and fio libaio
 * with O_DIRECT) on one file in three page-cache states, and against the
 * machine's all-core memory read bandwidth (osbench membw); the targets
 * with met/missed.  How each tool is timed: bench_tools.c.
 */
#include "bench_io.h"
#include "dropcache.h"
#include "fast_method.h"
#include "io.h"
#include "pattern.h"
#include "stats.h"
#include "sysinfo.h"
#include "target.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BENCH_SIZE (1ull << 30)
#define BENCH_BLOCK (1u << 20)
/* Runs of fast --help per --reps: a few ms each, and noisy. */
#define STARTUP_PER_REP 3
/*
 * fast's run must take this many start-ups for the note to take one out:
 * below, the figure would be mostly the two times' noise.
 */
#define STARTUP_SEPARABLE 2

/* The three page-cache states, each a group of rows. */
enum { ST_WRITTEN, ST_READBACK, ST_COLD, NSTATES };
static const char *const state_names[NSTATES] = {
	[ST_WRITTEN] = "warm written",
	[ST_READBACK] = "warm read back",
	[ST_COLD] = "cold",
};

/* The tools, in the order they take turns. */
enum { T_FAST, T_DD, T_CAT, T_DIRECT, T_FIO, T_FIO_DIRECT, NTOOLS };

struct state {
	struct tool t[NTOOLS];
	const char *skipped;	/* why the state was not measured */
	unsigned int rewarmed;	/* runs that found the file evicted */
};

/* Drop the file's pages from the page cache: 0, or -1 after a message. */
static int drop(struct bench *b)
{
	int fd = open(b->file, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return fail_errno("cannot open '%s'", b->file);
	b->drop_method = dropcache(fd, b->global_drop);
	if (b->drop_method < 0)
		msg_errno("cannot drop the page cache of '%s'", b->file);
	close(fd);
	return b->drop_method < 0 ? -1 : 0;
}

/* size bytes of the pattern into fd, fsync'ed: 0, or -1 after a message. */
static int fill_pattern(int fd, const char *file, uint64_t size)
{
	unsigned char *buf = xmalloc(BENCH_BLOCK);
	uint64_t off;
	size_t n;
	int rc = 0;

	for (off = 0; off < size && !rc; off += n) {
		n = size - off < BENCH_BLOCK ? (size_t)(size - off) :
					       BENCH_BLOCK;
		pattern_fill(buf, n, off);
		if (write_full(fd, buf, n) < 0)
			rc = fail_errno("write '%s'", file);
	}
	if (!rc && fsync(fd))
		rc = fail_errno("write '%s'", file);
	free(buf);
	return rc;
}

/*
 * A new file of the pattern, unlinked first: overwriting a cached file
 * would keep its old pages, and the state wanted is the one write()
 * leaves.  fsync, so that no run pays for the write-back.  0 or -1.
 */
static int write_pattern(struct bench *b, uint64_t size)
{
	int fd, rc;

	unlink(b->file);
	fd = open(b->file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail_errno("cannot create '%s'", b->file);
	rc = fill_pattern(fd, b->file, size);
	if (close(fd) && !rc)
		rc = fail_errno("write '%s'", b->file);
	b->size = size;
	return rc;
}

/* The share of the file in the page cache (fast's own probe), or -1. */
static double cached(const struct bench *b)
{
	int fd = open(b->file, O_RDONLY | O_CLOEXEC);
	double v;

	if (fd < 0)
		return fail_errno("cannot open '%s'", b->file);
	v = fast_residency(fd, b->size);
	close(fd);
	return v;
}

static int cat_file(struct bench *b)
{
	char *argv[] = { "cat", (char *)b->file, NULL };

	if (bench_spawn("cat", argv, -1, -1))
		return fail("cat '%s' failed", b->file);
	return 0;
}

/*
 * Put the file into state st (the first time, or after an eviction):
 * 0, or -1 after a message.
 */
static int enter(struct bench *b, int st)
{
	if (st == ST_WRITTEN)
		return write_pattern(b, b->size);
	if (st == ST_READBACK)
		return drop(b) || cat_file(b) ? -1 : 0;
	return 0;
}

/*
 * Before each run: cold drops the file; warm checks that it is still
 * cached (on a shared machine another process may drop every cache) and
 * puts it back in its state when it is not.  0, or -1 after a message.
 */
static int before_run(struct bench *b, struct state *s, int st)
{
	double share;

	if (st == ST_COLD)
		return drop(b);
	share = cached(b);
	if (share < 0)
		return -1;
	if (share >= 0.99)
		return 0;
	s->rewarmed++;
	return enter(b, st);
}

/*
 * reps runs of every tool, taken in turn (fast, dd, cat, ..., fast, dd,
 * ...) rather than all runs of one tool and then the next: other work on
 * the machine comes and goes, and alternating spreads it over all tools
 * instead of charging it to whichever ran at the time.  An exit code.
 */
static int state_rounds(struct bench *b, struct state *s, int st)
{
	struct tool *t = s->t;
	unsigned int r;
	size_t i;
	int rc;

	if (enter(b, st))
		return EXIT_FAIL;
	for (r = 0; r < b->reps; r++) {
		for (i = 0; i < NTOOLS; i++) {
			if (t[i].missing)
				continue;
			if (before_run(b, s, st))
				return EXIT_FAIL;
			rc = bench_run_tool(b, &t[i], &t[i].rate[r]);
			if (rc)
				return rc;
		}
	}
	return EXIT_OK;
}

/* The rows of state st: every tool's median, min and max; an exit code. */
static int time_state(struct bench *b, struct state *s, int st)
{
	struct tool *t = s->t;
	struct stats sum;
	size_t i;
	int rc;

	for (i = 0; i < NTOOLS; i++)
		t[i].rate = xcalloc(b->reps, sizeof(double));
	rc = state_rounds(b, s, st);
	for (i = 0; i < NTOOLS; i++) {
		if (!rc && !t[i].missing) {
			stats_compute(t[i].rate, b->reps, &sum);
			t[i].out[0] = sum.median;
			t[i].out[1] = sum.min;
			t[i].out[2] = sum.max;
			msg("%s, %s: %.0f MiB/s", state_names[st], t[i].name,
			    t[i].out[0]);
		}
		free(t[i].rate);
		t[i].rate = NULL;
	}
	return rc;
}

/*
 * fast's XOR, from an untimed run with --method read: every timed run of
 * fast must print the same.  b->is_pattern: whether the file is the
 * pattern file (which bench-io may rewrite) or someone else's (which it
 * must not).  0, or -1 when fast failed.
 */
static int check_fast(struct bench *b)
{
	char *argv[] = { "fast", "--method", "read", (char *)b->file, NULL };
	char want[64];

	if (bench_capture(b->self, argv, b->expect, sizeof(b->expect)))
		return fail("fast failed on '%s'", b->file);
	snprintf(want, sizeof(want), "XOR value: %08x\n",
		 pattern_xor(b->size));
	b->is_pattern = !strcmp(b->expect, want);
	return 0;
}

/*
 * The file's size; a missing file becomes the 1 GiB pattern file.  0, or
 * -1 after a message.
 */
static int make_file(struct bench *b)
{
	struct stat st;

	if (stat(b->file, &st) == 0) {
		b->size = (uint64_t)st.st_size;
		return b->size ? 0 : fail("'%s' is empty", b->file);
	}
	msg("writing the %llu MiB pattern file %s",
	    (unsigned long long)(BENCH_SIZE >> 20), b->file);
	return write_pattern(b, BENCH_SIZE);
}

/* The argv of every tool; the strings live in a. */
struct tool_args {
	char ifarg[4200];
	char fio[2][4400];
	char *fast[3], *dd[5], *cat[3], *direct[6];
	char *fio_argv[2][BENCH_FIO_ARGS];
};

static void tools_init(struct bench *b, struct tool_args *a,
		       struct tool *t)
{
	char *dd[] = { "dd", a->ifarg, "of=/dev/null", "bs=1M", NULL };
	char *direct[] = { "dd", a->ifarg, "of=/dev/null", "bs=1M",
			   "iflag=direct", NULL };
	int k;

	snprintf(a->ifarg, sizeof(a->ifarg), "if=%s", b->file);
	a->fast[0] = "fast";
	a->fast[1] = a->cat[1] = (char *)b->file;
	a->fast[2] = a->cat[2] = NULL;
	a->cat[0] = "cat";
	memcpy(a->dd, dd, sizeof(dd));
	memcpy(a->direct, direct, sizeof(direct));
	t[T_FAST] = (struct tool){ .name = "fast", .path = b->self,
				   .argv = a->fast, .is_fast = true };
	t[T_DD] = (struct tool){ .name = "dd bs=1M", .path = "dd",
				 .argv = a->dd };
	t[T_CAT] = (struct tool){ .name = "cat", .path = "cat",
				  .argv = a->cat };
	t[T_DIRECT] = (struct tool){ .name = "dd bs=1M iflag=direct",
				     .path = "dd", .argv = a->direct };
	t[T_FIO] = (struct tool){ .name = "fio psync (a job per CPU)",
				  .path = "fio", .argv = a->fio_argv[0],
				  .kind = TOOL_FIO };
	t[T_FIO_DIRECT] = (struct tool){
		.name = "fio libaio direct iodepth 16 (a job per CPU)",
		.path = "fio", .argv = a->fio_argv[1], .kind = TOOL_FIO };
	for (k = 0; k < 2; k++)
		t[T_FIO + k].missing =
			!bench_fio_argv(b, k, a->fio_argv[k], BENCH_FIO_ARGS,
					a->fio[k], sizeof(a->fio[k])) ||
			bench_spawn("fio", (char *[]){ "fio", "--version", NULL },
				    -1, -1) != 0;
}

/* The strongest reference of a state: the highest median but fast's. */
static const struct tool *best_of(const struct state *s)
{
	const struct tool *best = NULL;
	int i;

	for (i = T_FAST + 1; i < NTOOLS; i++)
		if (s->t[i].out[0] > 0 &&
		    (!best || s->t[i].out[0] > best->out[0]))
			best = &s->t[i];
	return best;
}

/* One row: state, name, rate (median, min, max), fast/it, target. */
static bool row(struct report *r, int st, const char *name,
		const double v[3], double fast, double want)
{
	double ratio = v && v[0] > 0 && fast > 0 ? fast / v[0] : 0;
	int i;

	report_str(r, state_names[st]);
	report_str(r, name);
	for (i = 0; i < 3; i++) {
		if (v && v[i] > 0)
			report_num(r, v[i]);
		else
			report_none(r);
	}
	if (ratio > 0)
		report_num(r, ratio);
	else
		report_none(r);
	return target_cells(r, ratio, want);
}

/* Targets: warm >= 1.5 x dd, >= 1 x best, >= 0.4 x membw. */
#define WANT_DD 1.5
#define WANT_BEST 1.0
#define WANT_MEMBW 0.4

/* A state's rows; returns the targets met, *n gets how many there were. */
static unsigned int state_rows(struct report *r, const struct state *s,
			       int st, double mem, unsigned int *n)
{
	const struct tool *best = best_of(s);
	double fast = s->t[T_FAST].out[0], m[3] = { mem, mem, mem };
	unsigned int met = 0;
	char name[96];
	int i;

	for (i = 0; i < NTOOLS; i++)
		met += row(r, st, s->t[i].name, s->t[i].out, fast,
			   i == T_DD && st != ST_COLD ? WANT_DD : 0);
	snprintf(name, sizeof(name), "best reference: %s",
		 best ? best->name : "none measured");
	met += row(r, st, name, best ? best->out : NULL, fast, WANT_BEST);
	*n += st == ST_COLD ? 1 : 3;
	if (st != ST_COLD)
		met += row(r, st, "memory read of all cores (membw)",
			   mem > 0 ? m : NULL, fast, WANT_MEMBW);
	return met;
}

/*
 * The "start-up" note: what exec and exit cost (bench_startup_ns), and
 * fast's median in each state with that taken out, against fio psync,
 * whose rate has no start-up in it either: the comparison with fio on
 * equal terms, for the reader.  (dd and cat pay a start-up like fast's,
 * so their rows need no such note.)  Not a target: the targets compare
 * fast as a user runs it.
 */
static void startup_note(struct report *r, const struct bench *b,
			 const struct state *s, double startup_ns)
{
	char text[512];
	size_t n;
	int st;

	if (startup_ns <= 0) {
		report_note(r, "start-up", "not measured: fast --help failed");
		return;
	}
	n = (size_t)snprintf(text, sizeof(text),
			     "fast --help takes %.2f ms from fork to exit here (median of %u): the exec and exit that dd, cat and fast pay in every run and fio's rate leaves out; fast's median without it, against fio psync:",
			     startup_ns / 1e6, b->reps * STARTUP_PER_REP);
	for (st = 0; st < NSTATES && n < sizeof(text); st++) {
		double rate = s[st].t[T_FAST].out[0];
		double fio = s[st].t[T_FIO].out[0], ns, clean;

		if (rate <= 0 || fio <= 0)
			continue;
		ns = (double)b->size / MIB / rate * 1e9;
		/*
		 * A run not much longer than the start-up (a small file)
		 * leaves a difference of two noisy times: no figure.
		 */
		if (ns < STARTUP_SEPARABLE * startup_ns) {
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      " %s: its run (%.2f ms) is too short to take the start-up out;",
					      state_names[st], ns / 1e6);
			continue;
		}
		clean = (double)b->size / MIB / ((ns - startup_ns) / 1e9);
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      " %s %.0f MiB/s, %.2f x;",
				      state_names[st], clean,
				      clean / fio);
	}
	if (n < sizeof(text) && text[n - 1] == ';')
		text[n - 1] = '\0';
	report_note(r, "start-up", "%s", text);
}

static int print_report(struct bench *b, const struct ctx *c,
			struct state *s, double mem, const double load[2],
			double startup_ns)
{
	struct report *r = report_new("bench-io", c->o.fmt, c->out);
	unsigned int met = 0, n = 0;
	int st;

	report_column(r, "state", NULL);
	report_column(r, "tool", NULL);
	report_column_range(r, "rate", "MiB/s");
	report_column(r, "fast_per_tool", NULL);
	target_columns(r);
	for (st = 0; st < NSTATES; st++)
		met += state_rows(r, &s[st], st, mem, &n);
	sysinfo_note(r);
	report_note(r, "file", "%s, %llu bytes", b->file,
		    (unsigned long long)b->size);
	report_note(r, "method",
		    "median of %u runs, the tools taken in turn; dd, cat and fast: a child process timed from fork to exit; fio: the bandwidth it reports for its I/O, without its start-up; cold: page cache dropped before every run (%s)",
		    b->reps, dropcache_name(b->drop_method));
	report_note(r, "states",
		    "warm written: the file written again just before (fsync'ed); warm read back: dropped, then read once by cat; a warm run that finds the file evicted (another process dropped the caches) puts it back first: %u and %u times",
		    s[ST_WRITTEN].rewarmed, s[ST_READBACK].rewarmed);
	for (st = 0; st < NSTATES; st++)
		report_note(r, st == ST_COLD ? "fast cold" :
			    st == ST_WRITTEN ? "fast written" : "fast read back",
			    "%s", s[st].skipped ? s[st].skipped :
			    s[st].t[T_FAST].how[0] ? s[st].t[T_FAST].how : "-");
	if (s[ST_COLD].t[T_FIO].missing)
		report_note(r, "fio", "not installed (scripts/deps --bench installs it): no fio rows");
	startup_note(r, b, s, startup_ns);
	report_note(r, "load", "1-minute load average %.2f before, %.2f after (other work on the machine lowers every rate, fast's most: it needs all cores)",
		    load[0], load[1]);
	report_note(r, "check", "every timed run of fast printed %.*s, as an untimed fast --method read did%s",
		    (int)strcspn(b->expect, "\n"), b->expect,
		    b->is_pattern ? ", and the pattern's XOR computed without reading" : "");
	report_note(r, "targets", "%u of %u met (warm: fast >= %.1f x dd bs=1M, >= %.1f x the best reference, >= %.1f x membw; cold: >= %.1f x the best reference)",
		    met, n, WANT_DD, WANT_BEST, WANT_MEMBW, WANT_BEST);
	if (report_end(r)) {
		msg_errno("cannot write the report");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

struct bench_opts {
	bool fadvise;
};

static const struct opt bench_options[] = {
	{ .name = "fadvise", .kind = OPT_FLAG,
	  .off = offsetof(struct bench_opts, fadvise),
	  .help = "drop only the file's pages (posix_fadvise), even\n"
		  "as root" },
	{ 0 },
};

/* Everything one run of bench-io keeps. */
struct bench_run {
	struct bench b;
	struct state s[NSTATES];
	struct tool_args a;
	double mem, load[2];
	double startup_ns;	/* bench_startup_ns */
};

/* This program (run as fast and membw) and the file: 0, or -1. */
static int bench_prepare(struct bench *b)
{
	ssize_t n = readlink("/proc/self/exe", b->self, sizeof(b->self) - 1);

	if (n < 0)
		return fail_errno("cannot find this program (/proc/self/exe)");
	b->self[n] = '\0';
	b->cpus = (unsigned int)sysinfo_cpus();
	return make_file(b);
}

/* Every state measured in turn: an exit code. */
static int bench_states(struct bench_run *br, const struct ctx *c)
{
	struct bench *b = &br->b;
	int st, rc;

	if (check_fast(b))
		return EXIT_FAIL;
	if (!b->is_pattern)
		br->s[ST_WRITTEN].skipped = "not measured: the file is not the pattern file, and bench-io writes only its own";
	br->load[0] = bench_loadavg();
	br->mem = bench_membw(b, &c->o);
	if (br->mem < 0)
		msg("membw not available: no memory bandwidth comparison");
	for (st = 0, rc = EXIT_OK; st < NSTATES && !rc; st++) {
		tools_init(b, &br->a, br->s[st].t);
		if (!br->s[st].skipped)
			rc = time_state(b, &br->s[st], st);
	}
	if (!rc)
		br->startup_ns = bench_startup_ns(b, b->reps * STARTUP_PER_REP);
	br->load[1] = bench_loadavg();
	return rc;
}

static const char usage[] =
	"usage: osbench bench-io [--reps N] [--fadvise] [options] <file>\n\n"
	"Race fast against dd bs=1M, cat, dd iflag=direct and fio (bs 1M,\n"
	"one job per CPU on disjoint ranges: psync, and libaio with\n"
	"O_DIRECT and 16 requests in flight) on <file> (a 1 GiB pattern\n"
	"file is written when it does not exist), in three page-cache\n"
	"states: just written (the pattern file is written again), read\n"
	"back (dropped, then cat), and cold (dropped before every run);\n"
	"and against the all-core memory read bandwidth (osbench membw).\n"
	"Median of --reps runs, the tools taken in turn; MiB/s, fast's\n"
	"ratio to each, the best reference, and the targets (met/missed).\n";

static int bench_io_run(const struct ctx *c, const void *opts)
{
	const struct bench_opts *bo = opts;
	struct bench_run *br = xcalloc(1, sizeof(*br));
	int rc;

	br->b = (struct bench){ .global_drop = !bo->fadvise,
				.drop_method = -1, .reps = c->o.reps,
				.file = c->args[0] };
	rc = bench_prepare(&br->b) ? EXIT_FAIL : EXIT_OK;
	if (!rc)
		rc = bench_states(br, c);
	if (!rc)
		rc = print_report(&br->b, c, br->s, br->mem, br->load,
				  br->startup_ns);
	free(br);
	return rc;
}

OSBENCH_COMMAND(bench_io, "bench-io", CMD_TABLE,
		"fast vs dd, cat, fio and memory bandwidth (make bench-io)",
		COMMAND_OPTIONS(bench_options, struct bench_opts),
		.min_args = 1, .max_args = 1, .max_reps = 100,
		.reps = { 7, 3, 3 });
