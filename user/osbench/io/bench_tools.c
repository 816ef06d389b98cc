// SPDX-License-Identifier: GPL-2.0
/*
 * The tools bench-io races fast against, and how each one is timed.
 * dd, cat and fast are child processes timed from fork to exit, so all
 * pay the same start-up.  fio is given its own best case: the bandwidth
 * it reports for its I/O phase, without its start-up (tens of ms of
 * parsing and forking its jobs), which makes it the strongest reference.
 */
#include "bench_io.h"
#include "io.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int bench_spawn(const char *path, char *const argv[], int out_fd, int err_fd)
{
	int status, null;
	pid_t pid = fork();

	if (pid < 0)
		return fail_errno("fork");
	if (pid == 0) {
		null = open("/dev/null", O_WRONLY);
		if (null < 0 || dup2(out_fd >= 0 ? out_fd : null, 1) < 0 ||
		    dup2(err_fd >= 0 ? err_fd : null, 2) < 0)
			_exit(127);
		execvp(path, argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return fail_errno("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The contents of fd from offset 0, NUL-terminated, cut to len - 1. */
static void slurp(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
}

int bench_capture(const char *path, char *const argv[], char *buf, size_t len)
{
	int fd = memfd_create("capture", MFD_CLOEXEC), ret;

	if (fd < 0)
		return fail_errno("memfd_create");
	ret = bench_spawn(path, argv, fd, -1);
	slurp(fd, buf, len);
	close(fd);
	return ret;
}

/* fio's terse line: field 6 is KiB read, field 7 KiB/s. */
static double fio_rate(const char *out, uint64_t *kib)
{
	const char *p = strstr(out, "3;fio-");
	double bw = -1;
	int field;

	for (field = 1; p && field <= 7; field++) {
		if (field == 6)
			*kib = strtoull(p, NULL, 10);
		if (field == 7)
			bw = strtod(p, NULL);
		p = strchr(p, ';');
		if (p)
			p++;
	}
	return bw / 1024;
}

/* fast's "MiB/s (method, threads: ...)" at the end of its stderr line. */
static void keep_how(struct tool *t, const char *err)
{
	const char *open = strstr(err, "MiB/s (");
	size_t n;

	if (!open)
		return;
	open += strlen("MiB/s (");
	n = strcspn(open, "\n");
	if (n && open[n - 1] == ')')
		n--;
	snprintf(t->how, sizeof(t->how), "%.*s", (int)n, open);
}

/* What one run of t printed (text): its rate, or an exit code. */
static int tool_result(struct bench *b, struct tool *t, const char *text,
		       uint64_t dt, double *rate)
{
	uint64_t kib = 0;

	*rate = (double)b->size / MIB / ((double)dt / 1e9);
	if (t->kind == TOOL_FIO) {
		*rate = fio_rate(text, &kib);
		if (*rate <= 0 || kib == 0) {
			msg("cannot read fio's result: %.200s", text);
			return EXIT_FAIL;
		}
	}
	if (t->is_fast && b->expect[0] && strcmp(text, b->expect)) {
		msg("fast printed '%s', not '%s'", text, b->expect);
		return EXIT_CORRUPT;
	}
	return EXIT_OK;
}

int bench_run_tool(struct bench *b, struct tool *t, double *rate)
{
	int out = memfd_create("out", MFD_CLOEXEC);
	int err = memfd_create("err", MFD_CLOEXEC);
	static char text[8192];
	uint64_t t0 = now_ns(), dt;
	int st, rc = EXIT_FAIL;

	if (out < 0 || err < 0) {
		msg_errno("memfd_create");
		goto out;
	}
	/* dd's and cat's output is the file itself: into /dev/null. */
	st = bench_spawn(t->path, t->argv,
			 t->is_fast || t->kind == TOOL_FIO ? out : -1, err);
	dt = now_ns() - t0;
	slurp(st ? err : out, text, sizeof(text));
	if (st) {
		msg("'%s' failed on '%s': %s", t->name, b->file, text);
		goto out;
	}
	rc = tool_result(b, t, text, dt, rate);
	if (!rc && t->is_fast) {
		slurp(err, text, sizeof(text));
		keep_how(t, text);
	}
out:
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	return rc;
}

bool bench_fio_argv(const struct bench *b, bool direct, char **argv,
		    size_t n, char *buf, size_t len)
{
	unsigned int jobs = b->cpus ? b->cpus : 1;
	uint64_t bs = 1u << 20, each;
	size_t i = 0;
	int off;

	if (b->size < (uint64_t)jobs << 20)
		jobs = 1;
	if (b->size < bs)
		bs = b->size & ~4095ull;	/* fio wants size >= bs */
	each = b->size / jobs / bs * bs;
	if (each == 0 || n < BENCH_FIO_ARGS)
		return false;
	off = snprintf(buf, len,
		       "--filename=%s%c--bs=%llu%c--numjobs=%u%c--size=%llu%c--offset_increment=%llu%c--ioengine=%s",
		       b->file, 0, (unsigned long long)bs, 0, jobs, 0,
		       (unsigned long long)each, 0, (unsigned long long)each,
		       0, direct ? "libaio" : "psync");
	if (off < 0 || (size_t)off >= len)
		return false;
	argv[i++] = "fio";
	argv[i++] = direct ? "--name=libaio-direct" : "--name=psync";
	for (char *p = buf; p <= buf + off; p += strlen(p) + 1)
		argv[i++] = p;
	if (direct) {
		argv[i++] = "--direct=1";
		argv[i++] = "--iodepth=16";
	}
	argv[i++] = "--rw=read";
	argv[i++] = "--readonly";
	argv[i++] = "--invalidate=0";	/* we decide what is cached */
	argv[i++] = "--group_reporting";
	argv[i++] = "--output-format=terse";
	argv[i++] = "--terse-version=3";
	argv[i] = NULL;
	return true;
}

/*
 * osbench membw --op read --threads all --csv: the "median" column.
 * --quick and --smoke are passed on, so that a smoke run stays short.
 */
double bench_membw(struct bench *b, const struct benchopt *o)
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
	if (bench_capture(b->self, argv, out, sizeof(out)))
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

/*
 * What starting and ending a process costs here, measured as the tools
 * are: fork to exit of this program printing its help as fast (exec,
 * argument parsing, exit; no file, no threads).  The median of n runs,
 * in ns; 0 when a run failed.  fio's rate has no start-up in it, and
 * fast's does (docs/io.md): this says how much of fast's time that is.
 */
double bench_startup_ns(struct bench *b, unsigned int n)
{
	char *argv[] = { "fast", "--help", NULL };
	double *ns = xcalloc(n, sizeof(double)), med = 0;
	struct stats st;
	unsigned int i;
	uint64_t t0;

	for (i = 0; i < n; i++) {
		t0 = now_ns();
		if (bench_spawn(b->self, argv, -1, -1))
			break;
		ns[i] = (double)(now_ns() - t0);
	}
	if (i == n && stats_compute(ns, n, &st) == 0)
		med = st.median;
	free(ns);
	return med;
}

double bench_loadavg(void)
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
