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

/* One tool under test and the MiB/s of its runs. */
struct tool {
	const char *name;	/* in the table */
	const char *path;
	char *const *argv;
	double *rate;
	double out[3];		/* median, min, max */
};

struct bench {
	const char *file;
	char self[4096];	/* this binary, run as fast and membw */
	unsigned int reps;
	bool global_drop;
	int drop_method;
	uint64_t size;
	/* The tools and their command lines. */
	char ifarg[4200];
	char *fast_argv[3], *dd_argv[5], *direct_argv[6], *cat_argv[3];
	struct tool warm[3], cold[3];
	/* What the table says besides the tools' rates. */
	double mem, load[2];
	const char *check;
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
		return fail_errno("fork");
	if (pid == 0) {
		null = open("/dev/null", O_WRONLY);
		if (null < 0 || dup2(out_fd >= 0 ? out_fd : null, 1) < 0 ||
		    dup2(null, 2) < 0)
			_exit(127);
		execvp(path, argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return fail_errno("waitpid");
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
		return fail_errno("tmpfile");
	ret = spawn(path, argv, fileno(tmp));
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	return ret;
}

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

/* One run of t, timed from fork to exit: the rate a user of it sees. */
static double run_tool(struct bench *b, const struct tool *t)
{
	uint64_t t0 = now_ns();

	if (spawn(t->path, t->argv, -1))
		return fail("'%s' failed on '%s'", t->argv[0], b->file);
	return (double)b->size / MIB / ((double)(now_ns() - t0) / 1e9);
}

/* Every tool once per round: rate[r - 1] from round r > 0; 0 or -1. */
static int rounds(struct bench *b, struct tool *t, size_t n, bool cold)
{
	unsigned int r;
	size_t i;
	double v;

	for (r = cold ? 1 : 0; r <= b->reps; r++) {
		for (i = 0; i < n; i++) {
			if (cold && drop(b))
				return -1;
			v = run_tool(b, &t[i]);
			if (v < 0)
				return -1;
			if (r)
				t[i].rate[r - 1] = v;
		}
	}
	return 0;
}

/*
 * reps runs of every tool, taken in turn (fast, dd, cat, fast, dd, ...)
 * rather than all runs of one tool and then the next: other work on the
 * machine comes and goes, and alternating spreads it over all tools
 * instead of charging it to whichever ran at the time.  Warm: one
 * untimed round first.  Cold: the page cache dropped before every run.
 */
static int time_tools(struct bench *b, struct tool *t, size_t n, bool cold)
{
	struct stats st;
	size_t i;
	int rc;

	for (i = 0; i < n; i++)
		t[i].rate = xcalloc(b->reps, sizeof(double));
	rc = rounds(b, t, n, cold);
	for (i = 0; i < n; i++) {
		if (rc) {
			free(t[i].rate);
			continue;
		}
		stats_compute(t[i].rate, b->reps, &st);
		t[i].out[0] = st.median;
		t[i].out[1] = st.min;
		t[i].out[2] = st.max;
		free(t[i].rate);
		msg("%s %s: %.0f MiB/s", cold ? "cold" : "warm", t[i].name,
		    t[i].out[0]);
	}
	return rc;
}

/* The pattern file, BENCH_SIZE bytes: 0, or -1 after a message. */
static int write_pattern(int fd, const char *file)
{
	unsigned char *buf = xmalloc(BENCH_BLOCK);
	uint64_t off;
	int rc = 0;

	for (off = 0; off < BENCH_SIZE && !rc; off += BENCH_BLOCK) {
		pattern_fill(buf, BENCH_BLOCK, off);
		if (write_full(fd, buf, BENCH_BLOCK) < 0)
			rc = fail_errno("write '%s'", file);
	}
	if (!rc && fsync(fd))
		rc = fail_errno("write '%s'", file);
	free(buf);
	return rc;
}

/* Made once from the pattern, so that fast's XOR can be checked. */
static int make_file(struct bench *b)
{
	struct stat st;
	int fd, rc;

	if (stat(b->file, &st) == 0) {
		b->size = (uint64_t)st.st_size;
		return b->size ? 0 : fail("'%s' is empty", b->file);
	}
	msg("writing the %llu MiB pattern file %s",
	    (unsigned long long)(BENCH_SIZE >> 20), b->file);
	fd = open(b->file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail_errno("cannot create '%s'", b->file);
	rc = write_pattern(fd, b->file);
	if (close(fd) && !rc)
		rc = fail_errno("write '%s'", b->file);
	b->size = BENCH_SIZE;
	return rc;
}

/* fast's XOR against the pattern's: a benchmark that checks itself. */
static const char *check_fast(struct bench *b)
{
	char *argv[] = { "fast", (char *)b->file, NULL };
	char out[256], want[64];

	if (capture(b->self, argv, out, sizeof(out))) {
		msg("fast failed on '%s'", b->file);
		return NULL;
	}
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

/* The tools' command lines, and this program for fast and membw. */
static int bench_tools(struct bench *b)
{
	const struct tool warm[3] = {
		{ .name = "fast", .path = b->self, .argv = b->fast_argv },
		{ .name = "dd bs=1M", .path = "dd", .argv = b->dd_argv },
		{ .name = "cat", .path = "cat", .argv = b->cat_argv },
	};
	const struct tool cold[3] = {
		{ .name = "fast", .path = b->self, .argv = b->fast_argv },
		{ .name = "dd bs=1M", .path = "dd", .argv = b->dd_argv },
		{ .name = "dd bs=1M iflag=direct", .path = "dd",
		  .argv = b->direct_argv },
	};
	char *f = (char *)b->file, *i = b->ifarg, *z = "of=/dev/null";
	ssize_t n = readlink("/proc/self/exe", b->self, sizeof(b->self) - 1);

	if (n < 0)
		return fail_errno("cannot find this program (/proc/self/exe)");
	b->self[n] = '\0';
	snprintf(b->ifarg, sizeof(b->ifarg), "if=%s", b->file);
	memcpy(b->fast_argv, (char *[3]){ "fast", f, NULL },
	       sizeof(b->fast_argv));
	memcpy(b->dd_argv, (char *[5]){ "dd", i, z, "bs=1M", NULL },
	       sizeof(b->dd_argv));
	memcpy(b->direct_argv,
	       (char *[6]){ "dd", i, z, "bs=1M", "iflag=direct", NULL },
	       sizeof(b->direct_argv));
	memcpy(b->cat_argv, (char *[3]){ "cat", f, NULL }, sizeof(b->cat_argv));
	memcpy(b->warm, warm, sizeof(warm));
	memcpy(b->cold, cold, sizeof(cold));
	return 0;
}

static int bench_table(const struct ctx *c, const struct bench *b)
{
	struct report *r = report_new("bench-io", c->o.fmt, c->out);
	double m[3] = { b->mem, b->mem, b->mem };
	size_t i;

	report_column(r, "cache", NULL);
	report_column(r, "tool", NULL);
	report_column_range(r, "rate", "MiB/s");
	report_column(r, "fast_per_tool", NULL);
	for (i = 0; i < 3; i++)
		row(r, "warm", b->warm[i].name, b->warm[i].out,
		    b->warm[0].out[0]);
	if (b->mem > 0)
		row(r, "warm", "memory read (membw --threads all)", m,
		    b->warm[0].out[0]);
	for (i = 0; i < 3; i++)
		row(r, "cold", b->cold[i].name, b->cold[i].out,
		    b->cold[0].out[0]);
	report_note(r, "file", "%s, %llu bytes", b->file,
		    (unsigned long long)b->size);
	report_note(r, "method",
		    "each tool a child process timed from fork to exit; median of %u runs, the tools taken in turn; warm: after one untimed round; cold: page cache dropped before every run (%s)",
		    b->reps, dropcache_name(b->drop_method));
	report_note(r, "load", "1-minute load average %.2f before, %.2f after (other work on the machine lowers every rate, fast's most: it needs all cores)",
		    b->load[0], b->load[1]);
	report_note(r, "check", "%s", b->check);
	report_note(r, "targets",
		    "warm fast/dd >= 1.3 (got %.2f); warm fast/membw >= 0.85 (%s); cold fast/dd-direct >= 0.95 (got %.2f)",
		    b->warm[0].out[0] / b->warm[1].out[0],
		    b->mem > 0 ? "see the membw row" : "membw not available",
		    b->cold[0].out[0] / b->cold[2].out[0]);
	if (report_end(r))
		return fail_errno("cannot write the report");
	return 0;
}

static const char usage[] =
	"usage: osbench bench-io [--reps N] [--fadvise] [options] <file>\n\n"
	"Time fast, dd bs=1M and cat reading <file> (a 1 GiB pattern file\n"
	"is written first when it does not exist), warm and after dropping\n"
	"the page cache before every run (cold, plus dd iflag=direct), and\n"
	"compare with the all-core memory read bandwidth (osbench membw).\n"
	"Median of --reps runs each, the tools taken in turn, MiB/s and\n"
	"fast's ratio.\n";

static int bench_io_run(const struct ctx *c, const void *opts)
{
	const struct bench_opts *bo = opts;
	struct bench *b = xcalloc(1, sizeof(*b));
	int rc;

	*b = (struct bench){ .global_drop = !bo->fadvise, .drop_method = -1,
			     .reps = c->o.reps,
			     .file = c->args[0] };
	rc = bench_tools(b);
	if (!rc)
		rc = make_file(b);
	if (!rc) {
		b->check = check_fast(b);
		rc = b->check ? 0 : -1;
	}
	if (!rc) {
		b->load[0] = loadavg();
		b->mem = membw(b, &c->o);
		if (b->mem < 0)
			msg("membw not available: no memory bandwidth comparison");
		rc = time_tools(b, b->warm, 3, false);
	}
	if (!rc)
		rc = time_tools(b, b->cold, 3, true);
	b->load[1] = loadavg();
	if (!rc)
		rc = bench_table(c, b);
	free(b);
	return rc ? EXIT_FAIL : EXIT_OK;
}

OSBENCH_COMMAND(bench_io, "bench-io", CMD_TABLE,
		"fast vs dd, cat and memory bandwidth (make bench-io)",
		COMMAND_OPTIONS(bench_options, struct bench_opts),
		.min_args = 1, .max_args = 1, .max_reps = 100,
		.reps = { 7, 3, 3 });
