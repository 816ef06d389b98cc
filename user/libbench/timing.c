// SPDX-License-Identifier: GPL-2.0
#include "timing.h"
#include "util.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double tsc_ghz(void)
{
	static double ghz;
	uint64_t t0, t1, c0, c1;

	if (ghz > 0)
		return ghz;
	if (!TIMING_HAVE_TSC)
		return ghz = 1.0;
	/*
	 * Spin rather than sleep: a sleeping CPU may stop the TSC on old
	 * hardware, and the spin doubles as a warm-up of the clock paths.
	 */
	t0 = now_ns();
	c0 = tsc_read_fenced();
	do
		t1 = now_ns();
	while (t1 - t0 < 20000000);
	c1 = tsc_read_fenced();
	ghz = (double)(c1 - c0) / (double)(t1 - t0);
	return ghz;
}

int tsc_have_rdtscp(void)
{
	static int have = -1;
	int status;
	pid_t pid;

	if (have >= 0 || !TIMING_HAVE_TSC)
		return have >= 0 ? have : 1;
	pid = fork();
	if (pid == 0) {
		/* A SIGILL here is the answer, not a crash to keep. */
		setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
		keep((void *)(uintptr_t)tsc_read_p());
		_exit(0);
	}
	have = pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0;
	return have;
}

double clock_resolution_ns(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC, &ts))
		return 1;
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
