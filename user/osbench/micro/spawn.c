// SPDX-License-Identifier: GPL-2.0
/*
 * osbench spawn: creating and reaping a task.
 *
 *  - fork + _exit + waitpid: a process that runs nothing;
 *  - posix_spawn + waitpid: a process that execs a trivial program
 *    (/bin/true unless --exec says otherwise), what a shell does; glibc
 *    makes it with clone(CLONE_VM | CLONE_VFORK), so no page table is
 *    copied, unlike the fork + execve of lmbench's lat_proc exec;
 *  - pthread_create + pthread_join: a thread that runs nothing.
 *
 * Each figure is the whole life cycle, creation to reaping, because that
 * is what can be timed from the parent without a clock in the child.  The
 * child exits with _exit so no atexit or stdio flushing is measured.
 */
#include "callloops.h"
#include "micro.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int loop_spawn(void *arg, uint64_t n)
{
	char *path = arg;
	char *argv[] = { path, NULL };
	int status, err;
	pid_t pid;

	while (n--) {
		err = posix_spawn(&pid, path, NULL, NULL, argv, environ);
		if (err) {
			errno = err;
			return fail_errno("posix_spawn %s", path);
		}
		if (waitpid(pid, &status, 0) < 0)
			return fail_errno("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			return fail("%s did not exit with 0", path);
	}
	return 0;
}

static void *thread_nop(void *arg)
{
	return arg;
}

static int loop_thread(void *arg, uint64_t n)
{
	pthread_t t;
	int err;

	(void)arg;
	while (n--) {
		err = pthread_create(&t, NULL, thread_nop, NULL);
		if (err) {
			errno = err;
			return fail_errno("pthread_create");
		}
		pthread_join(t, NULL);
	}
	return 0;
}

struct spawn_opts {
	const char *exec;
};

static const struct opt spawn_options[] = {
	{ .name = "exec", .kind = OPT_STR, .arg = "PROGRAM", .def = "/bin/true",
	  .off = offsetof(struct spawn_opts, exec),
	  .help = "the program posix_spawn runs" },
	{ 0 },
};

static const char usage[] =
	"usage: osbench spawn [--exec PROGRAM] [options]\n\n"
	"Time to create and reap a process (fork + _exit + waitpid), a\n"
	"process running PROGRAM (posix_spawn + waitpid, default /bin/true:\n"
	"glibc's posix_spawn is clone(CLONE_VM|CLONE_VFORK) + execve, not\n"
	"fork + execve, which lmbench's lat_proc exec times) and a thread\n"
	"(pthread_create + pthread_join), in microseconds.\n";

static int spawn_run(const struct ctx *c, const void *opts)
{
	static const struct mb_loop tests[] = {
		{ "fork+exit+wait", FIG_FORK, call_fork },
		{ "posix_spawn+wait", FIG_SPAWN, loop_spawn },
		{ "pthread_create+join", FIG_THREAD, loop_thread },
	};
	const char *exe = ((const struct spawn_opts *)opts)->exec;
	const struct benchopt o = c->o;
	struct measure m;
	struct measure_result res;
	struct report *r;
	size_t i;

	if (access(exe, X_OK)) {
		msg_errno("cannot execute %s", exe);
		return EXIT_FAIL;
	}
	benchopt_measure(&o, &m);
	r = mb_report_new(c, "spawn", &m);
	report_note(r, "exec", "%s", exe);
	report_column(r, "test", NULL);
	measure_columns(r);
	report_column(r, "unit", NULL);
	measure_column_why(r);
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		mb_progress(&o, "%s", tests[i].name);
		if (measure_run(&m, tests[i].fn, (void *)exe, &res)) {
			report_free(r);
			return EXIT_FAIL;
		}
		stats_scale(&res.st, 1e-3);
		report_str(r, tests[i].name);
		measure_cells(r, &res.st, res.trusted);
		report_str(r, "us");
		measure_why(r, res.why);
		if (res.trusted)
			ctx_figure_st(c, tests[i].fig, &res.st, "us");
		measure_free(&res);
	}
	return report_end(r) ? EXIT_FAIL : EXIT_OK;
}

OSBENCH_COMMAND(spawn, "spawn", CMD_TABLE | CMD_ALL,
		"process and thread creation",
		COMMAND_OPTIONS(spawn_options, struct spawn_opts));
