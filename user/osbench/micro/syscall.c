// SPDX-License-Identifier: GPL-2.0
/*
 * osbench syscall: the cost of a minimal system call and the call rates
 * of the file-access experiment (getpid, open+close, fopen+fclose, create+delete,
 * malloc+free, fork+exit+wait), in ns per call and calls per second.
 *
 * getpid, open+close and fork are the loops of callloops.h, which
 * "osbench syscall-rate" (the I/O experiment: read, write, lseek at one byte,
 * in calls per second) times too.  malloc+free passes the pointer
 * through an empty asm so the compiler cannot pair and delete the two
 * calls.  One empty loop iteration is subtracted from each figure.
 */
#include "callloops.h"
#include "micro.h"
#include "timing.h"
#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int loop_fopen_fclose(void *arg, uint64_t n)
{
	const char *path = arg;
	FILE *f;

	while (n--) {
		f = fopen(path, "r");
		if (!f)
			return fail_errno("fopen %s", path);
		if (fclose(f))
			return fail_errno("fclose %s", path);
	}
	return 0;
}

static int loop_create_delete(void *arg, uint64_t n)
{
	const char *path = arg;
	int fd;

	while (n--) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0)
			return fail_errno("create %s", path);
		if (close(fd))
			return fail_errno("close %s", path);
		if (unlink(path))
			return fail_errno("unlink %s", path);
	}
	return 0;
}

static int loop_malloc_free(void *arg, uint64_t n)
{
	void *p;

	(void)arg;
	while (n--) {
		p = malloc(16);
		if (!p)
			return fail("malloc: out of memory");
		keep(p);
		free(p);
	}
	return 0;
}

static const struct mb_loop tests[] = {
	{ "getpid", FIG_SYSCALL, call_getpid },
	{ "open+close", FIG_OPEN_CLOSE, call_open_close },
	{ "fopen+fclose", FIG_FOPEN_FCLOSE, loop_fopen_fclose },
	{ "create+delete", FIG_CREATE_DELETE, loop_create_delete },
	{ "malloc+free", FIG_MALLOC_FREE, loop_malloc_free },
	{ "fork+exit+wait", FIG_COUNT, call_fork },
};

/* The file open+close and fopen+fclose open; 0 or -1. */
static int make_existing(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return fail_errno("create %s", path);
	if (close(fd)) {
		unlink(path);
		return fail_errno("close %s", path);
	}
	return 0;
}

/* One row per test; 0, or -1 when one failed. */
static int syscall_rows(const struct ctx *c, struct report *r,
			const struct measure *m, char *existing, char *fresh)
{
	struct measure_result res;
	size_t i;

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		void *arg = tests[i].fn == loop_create_delete ? fresh :
			    existing;

		mb_progress(&c->o, "%s", tests[i].name);
		if (measure_run(m, tests[i].fn, arg, &res))
			return -1;
		report_str(r, tests[i].name);
		measure_cells(r, &res.st, res.trusted);
		report_str(r, "ns");
		if (res.trusted)
			report_num(r, 1e9 / res.st.median);
		else
			report_none(r);
		measure_why(r, res.why);
		if (res.trusted)
			ctx_figure_st(c, tests[i].fig, &res.st, "ns");
		measure_free(&res);
	}
	return 0;
}

static const char usage[] =
	"usage: osbench syscall [options]\n\n"
	"Cost of a minimal system call (syscall(SYS_getpid)) and the rates of\n"
	"getpid, open+close, fopen+fclose, create+delete, malloc+free (16 B)\n"
	"and fork+exit+wait, in ns per call and calls per second.  Files are\n"
	"created in --dir.  Method: the micro-benchmark one (samples of at\n"
	"least 10 ms after a warm-up, median and spread, empty loop\n"
	"subtracted).\n\n"
	"See also osbench syscall-rate: the I/O experiment of calls per second\n"
	"for read, write and lseek of one byte, open+close and getpid, with\n"
	"the same getpid and open+close loops.\n";

static int syscall_run(const struct ctx *c, const void *opts)
{
	struct measure m;
	struct report *r;
	char existing[4096], fresh[4096];
	int rc;

	(void)opts;
	snprintf(existing, sizeof(existing), "%s/osbench-syscall.%d",
		 c->o.dir, (int)getpid());
	snprintf(fresh, sizeof(fresh), "%s/osbench-create.%d", c->o.dir,
		 (int)getpid());
	if (make_existing(existing))
		return EXIT_FAIL;
	benchopt_measure(&c->o, &m);
	m.overhead_ns = measure_loop_overhead(&m);
	r = mb_report_new(c, "syscall", &m);
	report_note(r, "dir", "%s", c->o.dir);
	report_note(r, "subtracted", "empty loop iteration, %.3g ns",
		    m.overhead_ns);
	report_column(r, "test", NULL);
	measure_columns(r);
	report_column(r, "unit", NULL);
	report_column(r, "calls_per_s", NULL);
	measure_column_why(r);
	rc = syscall_rows(c, r, &m, existing, fresh);
	unlink(existing);
	unlink(fresh);
	if (rc) {
		report_free(r);
		return EXIT_FAIL;
	}
	return report_end(r) ? EXIT_FAIL : EXIT_OK;
}

OSBENCH_COMMAND(syscall, "syscall", CMD_TABLE | CMD_SCRATCH | CMD_ALL,
		"ns per getpid, open, fopen, create, malloc, fork (cf. syscall-rate)");
