// SPDX-License-Identifier: GPL-2.0
/*
 * osbench bench-io (make bench-io): fast against dd bs=1M and cat on the
 * same file, warm and cold, against dd iflag=direct when cold, and against
 * the machine's all-core memory read bandwidth (osbench membw, when this
 * build has it).  Every tool is a child process timed the same way, so
 * all pay the same start-up cost.
 */
#include "dropcache.h"
#include "io.h"
#include "pattern.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH_SIZE (1ull << 30)
#define BENCH_BLOCK (1u << 20)

struct bench {
	const char *file;
	char self[4096];	/* this binary, run as fast and membw */
	unsigned int reps;
	bool global_drop;
	int drop_method;
	uint64_t size;
};

/*
 * Run path with argv; its stdout goes to out_fd (or /dev/null when -1)
 * and its stderr to /dev/null.  Returns the exit status, or -1 when it
 * did not exit normally.
 */
static int spawn(const char *path, char *const argv[], int out_fd)
{
	int status, null;
	pid_t pid = fork();

	if (pid < 0)
		die_errno("fork");
	if (pid == 0) {
		null = open("/dev/null", O_WRONLY);
		if (null < 0 || dup2(out_fd >= 0 ? out_fd : null, 1) < 0 ||
		    dup2(null, 2) < 0)
			_exit(127);
		execvp(path, argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		die_errno("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Run and return its stdout (NUL-terminated, truncated to len - 1). */
static int capture(const char *path, char *const argv[], char *buf,
		   size_t len)
{
	FILE *tmp = tmpfile();
	size_t n;
	int ret;

	if (!tmp)
		die_errno("tmpfile");
	ret = spawn(path, argv, fileno(tmp));
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	return ret;
}

static void drop(struct bench *b)
{
	int fd = open(b->file, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die_errno("cannot open '%s'", b->file);
	b->drop_method = dropcache(fd, b->global_drop);
	if (b->drop_method < 0)
		die_errno("cannot drop the page cache of '%s'", b->file);
	close(fd);
}

/* One tool under test and the MiB/s of its runs. */
struct tool {
	const char *name;	/* in the table */
	const char *path;
	char *const *argv;
	double *rate;
	double out[3];		/* median, min, max */
};

/* One run of t, timed from fork to exit: the rate a user of it sees. */
static double run_tool(struct bench *b, const struct tool *t)
{
	uint64_t t0 = now_ns();

	if (spawn(t->path, t->argv, -1))
		die(EXIT_FAIL, "'%s' failed on '%s'", t->argv[0], b->file);
	return (double)b->size / MIB / ((double)(now_ns() - t0) / 1e9);
}

/*
 * reps runs of every tool, taken in turn (fast, dd, cat, fast, dd, ...)
 * rather than all runs of one tool and then the next: other work on the
 * machine comes and goes, and alternating spreads it over all tools
 * instead of charging it to whichever ran at the time.  Warm: one
 * untimed round first.  Cold: the page cache dropped before every run.
 */
static void time_tools(struct bench *b, struct tool *t, size_t n, bool cold)
{
	struct stats st;
	unsigned int r;
	size_t i;
	double v;

	for (i = 0; i < n; i++)
		t[i].rate = xcalloc(b->reps, sizeof(double));
	for (r = cold ? 1 : 0; r <= b->reps; r++) {
		for (i = 0; i < n; i++) {
			if (cold)
				drop(b);
			v = run_tool(b, &t[i]);
			if (r)
				t[i].rate[r - 1] = v;
		}
	}
	for (i = 0; i < n; i++) {
		stats_compute(t[i].rate, b->reps, &st);
		t[i].out[0] = st.median;
		t[i].out[1] = st.min;
		t[i].out[2] = st.max;
		free(t[i].rate);
		msg("%s %s: %.0f MiB/s", cold ? "cold" : "warm", t[i].name,
		    t[i].out[0]);
	}
}

/* Made once from the pattern, so that fast's XOR can be checked. */
static void make_file(struct bench *b)
{
	unsigned char *buf;
	struct stat st;
	uint64_t off;
	int fd;

	if (stat(b->file, &st) == 0) {
		b->size = (uint64_t)st.st_size;
		if (b->size == 0)
			die(EXIT_FAIL, "'%s' is empty", b->file);
		return;
	}
	msg("writing the %llu MiB pattern file %s",
	    (unsigned long long)(BENCH_SIZE >> 20), b->file);
	buf = xmalloc(BENCH_BLOCK);
	fd = open(b->file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		die_errno("cannot create '%s'", b->file);
	for (off = 0; off < BENCH_SIZE; off += BENCH_BLOCK) {
		pattern_fill(buf, BENCH_BLOCK, off);
		if (write_full(fd, buf, BENCH_BLOCK) < 0)
			die_errno("write '%s'", b->file);
	}
	if (fsync(fd) || close(fd))
		die_errno("write '%s'", b->file);
	free(buf);
	b->size = BENCH_SIZE;
}

/* fast's XOR against the pattern's: a benchmark that checks itself. */
static const char *check_fast(struct bench *b)
{
	char *argv[] = { "fast", (char *)b->file, NULL };
	char out[256], want[64];

	if (capture(b->self, argv, out, sizeof(out)))
		die(EXIT_FAIL, "fast failed on '%s'", b->file);
	snprintf(want, sizeof(want), "XOR value: %08x\n",
		 pattern_xor(b->size));
	if (!strcmp(out, want))
		return "fast's XOR value matches the pattern";
	return "the file is not the pattern file: fast's XOR value not checked";
}

/*
 * osbench membw --op read --threads all --csv: the "median" column.
 * --quick and --smoke are passed on, so that a smoke run stays short.
 */
static double membw(struct bench *b, const struct benchopt *o)
{
	char mode[16], *argv[] = { "osbench", "membw", "--op", "read",
				   "--threads", "all", "--csv", NULL, NULL };
	static char out[65536];
	char *line, *save, *cell, *csave;
	int col = -1, i;

	if (o->mode != BENCH_FULL) {
		snprintf(mode, sizeof(mode), "--%s", benchopt_mode_name(o));
		argv[7] = mode;
	}
	if (capture(b->self, argv, out, sizeof(out)))
		return -1;
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		for (i = 0, cell = strtok_r(line, ",", &csave); cell;
		     i++, cell = strtok_r(NULL, ",", &csave)) {
			if (col < 0 && (!strcmp(cell, "median") ||
					!strncmp(cell, "median_", 7)))
				col = i;
			else if (col >= 0 && i == col)
				return strtod(cell, NULL);
		}
		if (col < 0)
			return -1;
	}
	return -1;
}

static void row(struct report *r, const char *cache, const char *name,
		const double v[3], double fast)
{
	report_str(r, cache);
	report_str(r, name);
	report_num(r, v[0]);
	report_num(r, v[1]);
	report_num(r, v[2]);
	report_num(r, fast / v[0]);
}

/* The 1-minute load average, or -1 when /proc/loadavg is unreadable. */
static double loadavg(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double v = -1;

	if (f) {
		if (fscanf(f, "%lf", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
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

static int bench_run(const struct ctx *c, const void *opts)
{
	const struct bench_opts *bo = opts;
	const struct benchopt o = c->o;
	struct bench b = { .global_drop = !bo->fadvise, .drop_method = -1,
			   .reps = io_pick_reps(&c->o, 7),
			   .file = c->args[0] };
	double mem, load[2];
	char ifarg[4200], *fast_argv[] = { "fast", NULL, NULL };
	char *dd_argv[] = { "dd", ifarg, "of=/dev/null", "bs=1M", NULL };
	char *direct_argv[] = { "dd", ifarg, "of=/dev/null", "bs=1M",
				"iflag=direct", NULL };
	char *cat_argv[] = { "cat", NULL, NULL };
	struct tool warm[] = {
		{ .name = "fast", .argv = fast_argv },
		{ .name = "dd bs=1M", .path = "dd", .argv = dd_argv },
		{ .name = "cat", .path = "cat", .argv = cat_argv },
	};
	struct tool cold[] = {
		{ .name = "fast", .argv = fast_argv },
		{ .name = "dd bs=1M", .path = "dd", .argv = dd_argv },
		{ .name = "dd bs=1M iflag=direct", .path = "dd",
		  .argv = direct_argv },
	};
	const char *check;
	struct report *r;
	ssize_t n;
	size_t i;

	n = readlink("/proc/self/exe", b.self, sizeof(b.self) - 1);
	if (n < 0)
		die_errno("cannot find this program (/proc/self/exe)");
	b.self[n] = '\0';
	warm[0].path = cold[0].path = b.self;
	make_file(&b);
	snprintf(ifarg, sizeof(ifarg), "if=%s", b.file);
	fast_argv[1] = cat_argv[1] = (char *)b.file;
	check = check_fast(&b);

	load[0] = loadavg();
	mem = membw(&b, &o);
	if (mem < 0)
		msg("membw not available: no memory bandwidth comparison");
	time_tools(&b, warm, 3, false);
	time_tools(&b, cold, 3, true);
	load[1] = loadavg();

	r = report_new("bench-io", o.fmt, c->out);
	report_column(r, "cache", NULL);
	report_column(r, "tool", NULL);
	report_column(r, "rate", "MiB/s");
	report_column(r, "rate_min", "MiB/s");
	report_column(r, "rate_max", "MiB/s");
	report_column(r, "fast_per_tool", NULL);
	for (i = 0; i < 3; i++)
		row(r, "warm", warm[i].name, warm[i].out, warm[0].out[0]);
	if (mem > 0) {
		double m[3] = { mem, mem, mem };

		row(r, "warm", "memory read (membw --threads all)", m,
		    warm[0].out[0]);
	}
	for (i = 0; i < 3; i++)
		row(r, "cold", cold[i].name, cold[i].out, cold[0].out[0]);
	report_note(r, "file", "%s, %llu bytes", b.file,
		    (unsigned long long)b.size);
	report_note(r, "method",
		    "each tool a child process timed from fork to exit; median of %u runs, the tools taken in turn; warm: after one untimed round; cold: page cache dropped before every run (%s)",
		    b.reps, dropcache_name(b.drop_method));
	report_note(r, "load", "1-minute load average %.2f before, %.2f after (other work on the machine lowers every rate, fast's most: it needs all cores)",
		    load[0], load[1]);
	report_note(r, "check", "%s", check);
	report_note(r, "targets",
		    "warm fast/dd >= 1.3 (got %.2f); warm fast/membw >= 0.85 (%s); cold fast/dd-direct >= 0.95 (got %.2f)",
		    warm[0].out[0] / warm[1].out[0],
		    mem > 0 ? "see the membw row" : "membw not available",
		    cold[0].out[0] / cold[2].out[0]);
	if (report_end(r)) {
		msg_errno("cannot write the report");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

const struct command cmd_bench_io = {
	.name = "bench-io",
	.summary = "fast vs dd, cat and memory bandwidth (make bench-io)",
	.usage =
	"usage: osbench bench-io [--reps N] [--fadvise] [options] <file>\n\n"
	"Time fast, dd bs=1M and cat reading <file> (a 1 GiB pattern file\n"
	"is written first when it does not exist), warm and after dropping\n"
	"the page cache before every run (cold, plus dd iflag=direct), and\n"
	"compare with the all-core memory read bandwidth (osbench membw).\n"
	"Median of --reps runs each, the tools taken in turn, MiB/s and\n"
	"fast's ratio.\n",
	.options = bench_options,
	.opts_size = sizeof(struct bench_opts),
	.flags = CMD_TABLE,
	.min_args = 1,
	.max_args = 1,
	.max_reps = 100,
	.reps_default = "7, --quick and --smoke 3",
	.run = bench_run,
};
