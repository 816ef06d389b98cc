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
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct pipes {
	int ab[2];		/* parent to child */
	int ba[2];		/* child to parent */
};

static int token_write(int fd)
{
	char c = 0;

	if (write(fd, &c, 1) != 1)
		return fail_errno("pipe write");
	return 0;
}

/* 1, or 0 at end of file (the other side is gone), or -1. */
static int token_read(int fd)
{
	char c;
	ssize_t n = read(fd, &c, 1);

	if (n < 0)
		return fail_errno("pipe read");
	return (int)n;
}

/* Send on out, wait for the token on in: 0, or -1 after a message. */
static int token_pass(int out, int in)
{
	int n;

	if (token_write(out))
		return -1;
	n = token_read(in);
	if (n == 0)
		return fail("the other process closed its pipe");
	return n < 0 ? -1 : 0;
}

static int pipe_roundtrips(void *arg, uint64_t n)
{
	struct pipes *p = arg;

	while (n--)
		if (token_pass(p->ab[1], p->ba[0]))
			return -1;
	return 0;
}

/* The token's cost alone: one process writes and reads its own pipe. */
static int pipe_alone(void *arg, uint64_t n)
{
	struct pipes *p = arg;

	while (n--)
		if (token_pass(p->ab[1], p->ab[0]))
			return -1;
	return 0;
}

struct sems {
	sem_t ab, ba;
	volatile int stop;
	int cpu;		/* where the echo thread runs, -1: anywhere */
};

static int sem_wait_retry(sem_t *s)
{
	while (sem_wait(s))
		if (errno != EINTR)
			return fail_errno("sem_wait");
	return 0;
}

static int sem_roundtrips(void *arg, uint64_t n)
{
	struct sems *s = arg;

	while (n--) {
		sem_post(&s->ab);
		if (sem_wait_retry(&s->ba))
			return -1;
	}
	return 0;
}

static int sem_alone(void *arg, uint64_t n)
{
	struct sems *s = arg;

	while (n--) {
		sem_post(&s->ab);
		if (sem_wait_retry(&s->ab))
			return -1;
	}
	return 0;
}

static void *sem_echo(void *arg)
{
	struct sems *s = arg;

	if (s->cpu >= 0)
		cpu_pin(s->cpu, NULL, 0);
	for (;;) {
		if (sem_wait_retry(&s->ab) || s->stop)
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

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The child of the process test: echo every token until end of file. */
static void __attribute__((noreturn)) echo_process(struct pipes *p, int cpu)
{
	close(p->ab[1]);
	close(p->ba[0]);
	if (cpu >= 0)
		cpu_pin(cpu, NULL, 0);
	while (token_read(p->ab[0]) == 1)
		if (token_write(p->ba[1]))
			break;
	_exit(0);
}

/* One run's parties: the token's two ways, and the CPUs. */
struct parties {
	const struct config *c;
	struct pipes p;
	struct sems s;
	bool sems;		/* s initialised */
};

/* Round trips with a child process on the other end of the pipes. */
static int with_echo_process(struct measure *m, struct parties *pt,
			     struct measure_result *res)
{
	struct pipes *p = &pt->p;
	pid_t pid = fork();
	int rc;

	if (pid < 0)
		return fail_errno("fork");
	if (pid == 0)
		echo_process(p, pt->c->cpu_b);
	close_fd(&p->ab[0]);
	close_fd(&p->ba[1]);
	rc = measure_run(m, pipe_roundtrips, p, res);
	close_fd(&p->ab[1]);	/* the child reads EOF and exits */
	close_fd(&p->ba[0]);
	if (waitpid(pid, NULL, 0) < 0 && !rc) {
		measure_free(res);
		rc = fail_errno("waitpid");
	}
	return rc;
}

/* Round trips with a thread posting back. */
static int with_echo_thread(struct measure *m, struct parties *pt,
			    struct measure_result *res)
{
	pthread_t t;
	int rc, err = pthread_create(&t, NULL, sem_echo, &pt->s);

	if (err) {
		errno = err;
		return fail_errno("pthread_create");
	}
	rc = measure_run(m, sem_roundtrips, &pt->s, res);
	pt->s.stop = 1;
	sem_post(&pt->s.ab);
	pthread_join(t, NULL);
	return rc;
}

/* How one kind of party passes the token. */
struct kind {
	const char *name;	/* of the rows */
	measure_fn alone;	/* the token without a switch ... */
	size_t alone_arg;	/* ... on this member of struct parties */
	int (*with_partner)(struct measure *m, struct parties *pt,
			    struct measure_result *res);
};

static const struct kind kinds[2] = {
	{ "process", pipe_alone, offsetof(struct parties, p),
	  with_echo_process },
	{ "thread", sem_alone, offsetof(struct parties, s), with_echo_thread },
};

/*
 * The token's cost alone, then the round trips with the partner, the
 * former subtracted once per switch: 0 or -1.
 */
static int measure_kind(const struct measure *m0, const struct kind *k,
			struct parties *pt, struct measure_result *res,
			double *alone)
{
	struct measure m = *m0;
	struct measure_result a;

	if (measure_run(&m, k->alone, (char *)pt + k->alone_arg, &a))
		return -1;
	*alone = a.st.median;
	measure_free(&a);
	m.ops_per_iter = 2;
	m.overhead_ns = 2 * *alone;
	return k->with_partner(&m, pt, res);
}

/* The pipes and semaphores of one run, the caller pinned: 0 or -1. */
static int parties_open(struct parties *pt, const struct config *c,
			char *why, size_t len)
{
	memset(pt, 0, sizeof(*pt));
	pt->c = c;
	pt->p = (struct pipes){ { -1, -1 }, { -1, -1 } };
	if (pipe(pt->p.ab) || pipe(pt->p.ba))
		return fail_errno("pipe");
	if (sem_init(&pt->s.ab, 0, 0))
		return fail_errno("sem_init");
	if (sem_init(&pt->s.ba, 0, 0)) {
		sem_destroy(&pt->s.ab);
		return fail_errno("sem_init");
	}
	pt->sems = true;
	pt->s.cpu = c->cpu_b;
	pin(c->cpu_a, why, len);
	return 0;
}

static void parties_close(struct parties *pt)
{
	close_fd(&pt->p.ab[0]);
	close_fd(&pt->p.ab[1]);
	close_fd(&pt->p.ba[0]);
	close_fd(&pt->p.ba[1]);
	if (pt->sems) {
		sem_destroy(&pt->s.ab);
		sem_destroy(&pt->s.ba);
	}
	cpu_unpin();
}

/* One row per kind (processes, threads) and CPU configuration. */
static int ctxsw_rows(const struct ctx *ctx, struct report *r,
		      const struct measure *m, char *why, size_t len)
{
	const struct config configs[2] = {
		{ "1 CPU", cpu_nth(0), cpu_nth(0) },
		{ "2 CPUs", cpu_nth(0), cpu_nth(1) },
	};
	struct measure_result res;
	int kind, i, rc, nconfigs = cpu_count() > 1 ? 2 : 1;
	struct parties pt;
	char name[64];
	double alone;

	for (kind = 0; kind < 2; kind++) {
		for (i = 0; i < nconfigs; i++) {
			const struct config *c = &configs[i];

			mb_progress(&ctx->o, "%s, %s",
				    kind ? "threads" : "processes", c->name);
			rc = parties_open(&pt, c, why, len);
			if (!rc)
				rc = measure_kind(m, &kinds[kind], &pt, &res,
						  &alone);
			parties_close(&pt);
			if (rc)
				return -1;
			snprintf(name, sizeof(name), "%s, %s",
				 kinds[kind].name, c->name);
			report_str(r, name);
			measure_cells(r, &res.st, res.trusted);
			report_str(r, "ns");
			report_num(r, res.raw_median_ns);
			report_num(r, alone);
			measure_why(r, res.why);
			if (i == 0 && res.trusted)
				ctx_figure_st(ctx, kind ? FIG_CTXSW_THREAD :
							  FIG_CTXSW_PROCESS,
					      &res.st, "ns");
			measure_free(&res);
		}
	}
	return 0;
}

static const char usage[] =
	"usage: osbench ctxsw [options]\n\n"
	"Context switch time between two processes (token over pipes) and two\n"
	"threads (token over semaphores), both parties pinned to one CPU and,\n"
	"as a second figure, to two CPUs (cross-CPU wake-up).  Per switch, in\n"
	"ns, with the token's own cost (measured without a switch) subtracted;\n"
	"raw is the figure before that subtraction.\n";

static int ctxsw_run(const struct ctx *ctx, const void *opts)
{
	struct measure m;
	struct report *r;
	char why[200] = "";

	(void)opts;
	benchopt_measure(&ctx->o, &m);
	/* A child that died must show as a failed write, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	r = mb_report_new(ctx, "ctxsw", &m);
	report_column(r, "test", NULL);
	measure_columns(r);
	report_column(r, "unit", NULL);
	report_column(r, "raw", NULL);
	report_column(r, "token_cost", NULL);
	measure_column_why(r);
	if (ctxsw_rows(ctx, r, &m, why, sizeof(why))) {
		report_free(r);
		return EXIT_FAIL;
	}
	report_note(r, "token_cost", "pipe: write+read of 1 byte by one "
		    "process; thread: sem_post+sem_wait by one thread "
		    "(no switch); subtracted once per switch");
	report_note(r, "pinning", "%s", why[0] ? why :
		    "1 CPU: both parties on one CPU; 2 CPUs: one each "
		    "(cross-CPU wake-up, no switch-out)");
	if (cpu_count() < 2)
		report_note(r, "two_cpus", "skipped: only one CPU available");
	return report_end(r) ? EXIT_FAIL : EXIT_OK;
}

OSBENCH_COMMAND(ctxsw, "ctxsw", CMD_TABLE | CMD_ALL,
		"process and thread context switch");
