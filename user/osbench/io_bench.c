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
#include <getopt.h>
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

/*
 * MiB/s of reps runs (median, min, max); a warm-up run first when warm.
 * The rate counts the whole process, as a user of the tool sees it.
 */
static void time_tool(struct bench *b, const char *path, char *const argv[],
		      bool cold, double out[3])
{
	double *rate = xcalloc(b->reps, sizeof(double));
	struct stats st;
	unsigned int i;
	uint64_t t0;

	for (i = cold ? 1 : 0; i <= b->reps; i++) {
		if (cold)
			drop(b);
		t0 = now_ns();
		if (spawn(path, argv, -1))
			die(EXIT_FAIL, "'%s' failed on '%s'", argv[0], b->file);
		if (i)
			rate[i - 1] = (double)b->size / MIB /
				      ((double)(now_ns() - t0) / 1e9);
	}
	stats_compute(rate, b->reps, &st);
	out[0] = st.median;
	out[1] = st.min;
	out[2] = st.max;
	free(rate);
	msg("%s %s: %.0f MiB/s", cold ? "cold" : "warm", argv[0], out[0]);
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

/* osbench membw --op read --threads all --csv: the "median" column. */
static double membw(struct bench *b)
{
	char *argv[] = { "osbench", "membw", "--op", "read", "--threads",
			 "all", "--csv", NULL };
	static char out[65536];
	char *line, *save, *cell, *csave;
	int col = -1, i;

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

static void row(struct report *r, const char *cache, const char *tool,
		const double v[3], double fast)
{
	report_str(r, cache);
	report_str(r, tool);
	report_num(r, v[0]);
	report_num(r, v[1]);
	report_num(r, v[2]);
	report_num(r, fast / v[0]);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: osbench bench-io [--reps N] [--fadvise] [options] <file>\n\n"
		"Time fast, dd bs=1M and cat reading <file> (a 1 GiB pattern file\n"
		"is written first when it does not exist), warm and after dropping\n"
		"the page cache before every run (cold, plus dd iflag=direct), and\n"
		"compare with the all-core memory read bandwidth (osbench membw).\n"
		"Median of --reps runs (default 5) each, MiB/s and fast's ratio.\n"
		"  --fadvise      drop only the file's pages (posix_fadvise), even\n"
		"                 as root\n");
	io_common_usage(f, 0);
}

int io_bench_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "fadvise", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench b = { .global_drop = true, .drop_method = -1 };
	struct benchopt o;
	double fast[2][3], dd[2][3], cat[3], direct[3], mem;
	char ifarg[4200], *fast_argv[] = { "fast", NULL, NULL };
	char *dd_argv[] = { "dd", ifarg, "of=/dev/null", "bs=1M", NULL, NULL };
	char *cat_argv[] = { "cat", NULL, NULL };
	const char *check;
	struct report *r;
	ssize_t n;
	int c;

	io_common_parse(&o, &argc, argv, usage, 0, 100);
	b.reps = io_pick_reps(&o, 5);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			b.global_drop = false;
			break;
		default:
			io_usage_exit(usage, c);
		}
	}
	if (argc - optind != 1)
		die(EXIT_USAGE, "expected one file; see --help");
	b.file = argv[optind];
	n = readlink("/proc/self/exe", b.self, sizeof(b.self) - 1);
	if (n < 0)
		die_errno("cannot find this program (/proc/self/exe)");
	b.self[n] = '\0';
	make_file(&b);
	snprintf(ifarg, sizeof(ifarg), "if=%s", b.file);
	fast_argv[1] = cat_argv[1] = (char *)b.file;
	check = check_fast(&b);

	mem = membw(&b);
	if (mem < 0)
		msg("membw not available: no memory bandwidth comparison");
	/* Same order in both modes: fast first, nothing else warms it. */
	time_tool(&b, b.self, fast_argv, false, fast[0]);
	time_tool(&b, "dd", dd_argv, false, dd[0]);
	time_tool(&b, "cat", cat_argv, false, cat);
	time_tool(&b, b.self, fast_argv, true, fast[1]);
	time_tool(&b, "dd", dd_argv, true, dd[1]);
	dd_argv[4] = "iflag=direct";
	time_tool(&b, "dd", dd_argv, true, direct);

	r = report_new("bench-io", o.fmt, stdout);
	report_column(r, "cache", NULL);
	report_column(r, "tool", NULL);
	report_column(r, "rate", "MiB/s");
	report_column(r, "rate_min", "MiB/s");
	report_column(r, "rate_max", "MiB/s");
	report_column(r, "fast_per_tool", NULL);
	row(r, "warm", "fast", fast[0], fast[0][0]);
	row(r, "warm", "dd bs=1M", dd[0], fast[0][0]);
	row(r, "warm", "cat", cat, fast[0][0]);
	if (mem > 0) {
		double m[3] = { mem, mem, mem };

		row(r, "warm", "memory read (membw, all cores)", m, fast[0][0]);
	}
	row(r, "cold", "fast", fast[1], fast[1][0]);
	row(r, "cold", "dd bs=1M", dd[1], fast[1][0]);
	row(r, "cold", "dd bs=1M iflag=direct", direct, fast[1][0]);
	report_note(r, "file", "%s, %llu bytes", b.file,
		    (unsigned long long)b.size);
	report_note(r, "method",
		    "each tool a child process timed from fork to exit; median of %u runs; warm: after one untimed run; cold: page cache dropped before every run (%s)",
		    b.reps, dropcache_name(b.drop_method));
	report_note(r, "check", "%s", check);
	report_note(r, "targets",
		    "warm fast/dd >= 1.3 (got %.2f); warm fast/membw >= 0.85 (%s); cold fast/dd-direct >= 0.95 (got %.2f)",
		    fast[0][0] / dd[0][0],
		    mem > 0 ? "see the membw row" : "membw not available",
		    fast[1][0] / direct[0]);
	if (report_end(r))
		die_errno("cannot write the report");
	return EXIT_OK;
}
