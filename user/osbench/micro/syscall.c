// SPDX-License-Identifier: GPL-2.0
/*
 * osbench syscall: the cost of a minimal system call and the call rates
 * of seed 004 (getpid, open+close, fopen+fclose, create+delete,
 * malloc+free, fork+exit+wait), in ns per call and calls per second.
 *
 * getpid, open+close and fork are the loops of calls.h, which
 * "osbench syscall-rate" (the I/O experiment: read, write, lseek at one byte,
 * in calls per second) times too.  malloc+free passes the pointer
 * through an empty asm so the compiler cannot pair and delete the two
 * calls.  One empty loop iteration is subtracted from each figure.
 */
#include "calls.h"
#include "micro.h"
#include "timing.h"
#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void loop_fopen_fclose(void *arg, uint64_t n)
{
	const char *path = arg;
	FILE *f;

	while (n--) {
		f = fopen(path, "r");
		if (!f)
			die_errno("fopen %s", path);
		if (fclose(f))
			die_errno("fclose %s", path);
	}
}

static void loop_create_delete(void *arg, uint64_t n)
{
	const char *path = arg;
	int fd;

	while (n--) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0)
			die_errno("create %s", path);
		if (close(fd))
			die_errno("close %s", path);
		if (unlink(path))
			die_errno("unlink %s", path);
	}
}

static void loop_malloc_free(void *arg, uint64_t n)
{
	void *p;

	(void)arg;
	while (n--) {
		p = malloc(16);
		if (!p)
			die(EXIT_FAIL, "malloc: out of memory");
		keep(p);
		free(p);
	}
}

static int syscall_run(const struct ctx *c, const void *opts)
{
	const struct {
		const char *name;
		enum figure fig;
		measure_fn fn;
	} tests[] = {
		{ "getpid", FIG_SYSCALL, call_getpid },
		{ "open+close", FIG_OPEN_CLOSE, call_open_close },
		{ "fopen+fclose", FIG_FOPEN_FCLOSE, loop_fopen_fclose },
		{ "create+delete", FIG_CREATE_DELETE, loop_create_delete },
		{ "malloc+free", FIG_MALLOC_FREE, loop_malloc_free },
		{ "fork+exit+wait", FIG_COUNT, call_fork },
	};
	const struct benchopt o = c->o;
	struct measure m;
	struct measure_result res;
	struct report *r;
	char existing[4096], fresh[4096];
	size_t i;
	int fd;

	(void)opts;
	snprintf(existing, sizeof(existing), "%s/osbench-syscall.%d",
		 o.dir, (int)getpid());
	snprintf(fresh, sizeof(fresh), "%s/osbench-create.%d", o.dir,
		 (int)getpid());
	fd = open(existing, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die_errno("create %s", existing);
	if (close(fd))
		die_errno("close %s", existing);

	benchopt_measure(&o, &m);
	m.overhead_ns = measure_loop_overhead(&m);
	r = mb_report_new(c, "syscall", &m);
	report_note(r, "dir", "%s", o.dir);
	report_note(r, "subtracted", "empty loop iteration, %.3g ns",
		    m.overhead_ns);
	report_column(r, "test", NULL);
	measure_columns(r);
	report_column(r, "unit", NULL);
	report_column(r, "calls_per_s", NULL);
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		void *arg = tests[i].fn == loop_create_delete ? fresh :
			    existing;

		mb_progress(&o, "%s", tests[i].name);
		if (measure_run(&m, tests[i].fn, arg, &res)) {
			unlink(existing);
			die_errno("measure");
		}
		report_str(r, tests[i].name);
		measure_cells(r, &res.st, res.trusted);
		report_str(r, "ns");
		if (res.trusted)
			report_num(r, 1e9 / res.st.median);
		else
			report_none(r);
		if (res.trusted)
			ctx_figure_st(c, tests[i].fig, &res.st, "ns");
		measure_free(&res);
	}
	unlink(existing);
	return report_end(r) ? EXIT_FAIL : EXIT_OK;
}

const struct command cmd_syscall = {
	.name = "syscall",
	.summary = "ns per getpid, open, fopen, create, malloc, fork (cf. syscall-rate)",
	.usage =
	"usage: osbench syscall [options]\n\n"
	"Cost of a minimal system call (syscall(SYS_getpid)) and the rates of\n"
	"getpid, open+close, fopen+fclose, create+delete, malloc+free (16 B)\n"
	"and fork+exit+wait, in ns per call and calls per second.  Files are\n"
	"created in --dir.  Method: the micro-benchmark one (samples of at\n"
	"least 10 ms after a warm-up, median and spread, empty loop\n"
	"subtracted).\n\n"
	"See also osbench syscall-rate: the I/O experiment of calls per second\n"
	"for read, write and lseek of one byte, open+close and getpid, with\n"
	"the same getpid and open+close loops.\n",
	.flags = CMD_TABLE | CMD_SCRATCH | CMD_ALL,
	.reps_default = "11, --quick 7, --smoke 3",
	.run = syscall_run,
};
