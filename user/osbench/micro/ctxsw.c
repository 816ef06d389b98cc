// SPDX-License-Identifier: GPL-2.0
/*
 * osbench ctxsw: context switch time between processes and between
 * threads.
 *
 * Two parties pass a token back and forth, so each round trip forces two
 * switches: processes over a pair of pipes (as perf bench sched pipe and
 * lmbench lat_ctx do), threads over a pair of POSIX semaphores.  Pinned
 * to one CPU, every hand-over is a real switch from one task to the other.
 * Pinned to two CPUs, nothing is switched out: the figure is then the
 * cross-CPU wake-up latency, reported as a second figure.
 *
 * What passing the token costs without any switch (a write and a read of
 * one byte on a pipe by one process, a post and a wait on a semaphore by
 * one thread) is measured separately and subtracted once per switch.
 */
#include "cpu.h"
#include "micro.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct pipes {
	int ab[2];		/* parent to child */
	int ba[2];		/* child to parent */
};

static void token_write(int fd)
{
	char c = 0;

	if (write(fd, &c, 1) != 1)
		die_errno("pipe write");
}

static int token_read(int fd)
{
	char c;
	ssize_t n = read(fd, &c, 1);

	if (n < 0)
		die_errno("pipe read");
	return (int)n;
}

static void pipe_roundtrips(void *arg, uint64_t n)
{
	struct pipes *p = arg;

	while (n--) {
		token_write(p->ab[1]);
		token_read(p->ba[0]);
	}
}

/* The token's cost alone: one process writes and reads its own pipe. */
static void pipe_alone(void *arg, uint64_t n)
{
	struct pipes *p = arg;

	while (n--) {
		token_write(p->ab[1]);
		token_read(p->ab[0]);
	}
}

struct sems {
	sem_t ab, ba;
	volatile int stop;
	int cpu;		/* where the echo thread runs, -1: anywhere */
};

static void sem_wait_retry(sem_t *s)
{
	while (sem_wait(s))
		if (errno != EINTR)
			die_errno("sem_wait");
}

static void sem_roundtrips(void *arg, uint64_t n)
{
	struct sems *s = arg;

	while (n--) {
		sem_post(&s->ab);
		sem_wait_retry(&s->ba);
	}
}

static void sem_alone(void *arg, uint64_t n)
{
	struct sems *s = arg;

	while (n--) {
		sem_post(&s->ab);
		sem_wait_retry(&s->ab);
	}
}

static void *sem_echo(void *arg)
{
	struct sems *s = arg;

	if (s->cpu >= 0)
		cpu_pin(s->cpu, NULL, 0);
	for (;;) {
		sem_wait_retry(&s->ab);
		if (s->stop)
			return NULL;
		sem_post(&s->ba);
	}
}

struct config {
	const char *name;
	int cpu_a, cpu_b;	/* -1: not pinned */
};

/* Pin the caller; on failure record why (once) and carry on unpinned. */
static void pin(int cpu, char *why, size_t len)
{
	char reason[160];

	if (cpu >= 0 && cpu_pin(cpu, reason, sizeof(reason)) && !why[0])
		snprintf(why, len, "%s", reason);
}

static void measure_processes(const struct measure *m0, const struct config *c,
			      struct measure_result *res, double *alone,
			      char *why, size_t len)
{
	struct measure m = *m0;
	struct measure_result a;
	struct pipes p;
	pid_t pid;

	if (pipe(p.ab) || pipe(p.ba))
		die_errno("pipe");
	pin(c->cpu_a, why, len);
	if (measure_run(&m, pipe_alone, &p, &a))
		die_errno("measure");
	*alone = a.st.median;
	measure_free(&a);

	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid == 0) {
		close(p.ab[1]);
		close(p.ba[0]);
		if (c->cpu_b >= 0)
			cpu_pin(c->cpu_b, NULL, 0);
		while (token_read(p.ab[0]) == 1)
			token_write(p.ba[1]);
		_exit(0);
	}
	close(p.ab[0]);
	close(p.ba[1]);
	m.ops_per_iter = 2;
	m.overhead_ns = 2 * *alone;
	if (measure_run(&m, pipe_roundtrips, &p, res))
		die_errno("measure");
	close(p.ab[1]);		/* the child reads EOF and exits */
	close(p.ba[0]);
	if (waitpid(pid, NULL, 0) < 0)
		die_errno("waitpid");
	cpu_unpin();
}

static void measure_threads(const struct measure *m0, const struct config *c,
			    struct measure_result *res, double *alone,
			    char *why, size_t len)
{
	struct measure m = *m0;
	struct measure_result a;
	struct sems s;
	pthread_t t;
	int err;

	memset(&s, 0, sizeof(s));
	if (sem_init(&s.ab, 0, 0) || sem_init(&s.ba, 0, 0))
		die_errno("sem_init");
	s.cpu = c->cpu_b;
	pin(c->cpu_a, why, len);
	if (measure_run(&m, sem_alone, &s, &a))
		die_errno("measure");
	*alone = a.st.median;
	measure_free(&a);

	err = pthread_create(&t, NULL, sem_echo, &s);
	if (err) {
		errno = err;
		die_errno("pthread_create");
	}
	m.ops_per_iter = 2;
	m.overhead_ns = 2 * *alone;
	if (measure_run(&m, sem_roundtrips, &s, res))
		die_errno("measure");
	s.stop = 1;
	sem_post(&s.ab);
	pthread_join(t, NULL);
	sem_destroy(&s.ab);
	sem_destroy(&s.ba);
	cpu_unpin();
}

static int ctxsw_run(const struct ctx *ctx, const void *opts)
{
	struct config configs[2] = {
		{ "1 CPU", cpu_nth(0), cpu_nth(0) },
		{ "2 CPUs", cpu_nth(0), cpu_nth(1) },
	};
	const struct benchopt o = ctx->o;
	struct measure m;
	struct measure_result res;
	struct report *r;
	char why[200] = "", name[64];
	double alone;
	int kind, i, nconfigs = cpu_count() > 1 ? 2 : 1;

	(void)opts;
	benchopt_measure(&o, &m);
	/* A child that died must show as a failed write, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	r = mb_report_new(ctx, "ctxsw", &m);
	report_column(r, "test", NULL);
	measure_columns(r);
	report_column(r, "unit", NULL);
	report_column(r, "raw", NULL);
	report_column(r, "token_cost", NULL);
	for (kind = 0; kind < 2; kind++) {
		for (i = 0; i < nconfigs; i++) {
			const struct config *c = &configs[i];

			mb_progress(&o, "%s, %s", kind ? "threads" : "processes",
				    c->name);
			if (kind == 0)
				measure_processes(&m, c, &res, &alone, why,
						  sizeof(why));
			else
				measure_threads(&m, c, &res, &alone, why,
						sizeof(why));
			snprintf(name, sizeof(name), "%s, %s",
				 kind ? "thread" : "process", c->name);
			report_str(r, name);
			measure_cells(r, &res.st, res.trusted);
			report_str(r, "ns");
			report_num(r, res.raw_median_ns);
			report_num(r, alone);
			if (i == 0 && res.trusted)
				ctx_figure_st(ctx, kind ? FIG_CTXSW_THREAD :
							  FIG_CTXSW_PROCESS,
					      &res.st, "ns");
			measure_free(&res);
		}
	}
	report_note(r, "token_cost", "pipe: write+read of 1 byte by one "
		    "process; thread: sem_post+sem_wait by one thread "
		    "(no switch); subtracted once per switch");
	report_note(r, "pinning", "%s", why[0] ? why :
		    "1 CPU: both parties on one CPU; 2 CPUs: one each "
		    "(cross-CPU wake-up, no switch-out)");
	if (nconfigs == 1)
		report_note(r, "two_cpus", "skipped: only one CPU available");
	return report_end(r) ? EXIT_FAIL : EXIT_OK;
}

const struct command cmd_ctxsw = {
	.name = "ctxsw",
	.summary = "process and thread context switch",
	.usage =
	"usage: osbench ctxsw [options]\n\n"
	"Context switch time between two processes (token over pipes) and two\n"
	"threads (token over semaphores), both parties pinned to one CPU and,\n"
	"as a second figure, to two CPUs (cross-CPU wake-up).  Per switch, in\n"
	"ns, with the token's own cost (measured without a switch) subtracted;\n"
	"raw is the figure before that subtraction.\n",
	.flags = CMD_TABLE | CMD_ALL,
	.reps_default = "11, --quick 7, --smoke 3",
	.run = ctxsw_run,
};
