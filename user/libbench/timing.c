// SPDX-License-Identifier: GPL-2.0
#include "timing.h"
#include "util.h"

#include <time.h>

#include <setjmp.h>
#include <signal.h>
#include <string.h>

static sigjmp_buf probe_env;

static void on_sigill(int sig)
{
	(void)sig;
	siglongjmp(probe_env, 1);
}

/*
 * Executed, not looked up: some hypervisors hide the cpuid bit of an
 * instruction they run, and QEMU's default TCG CPU lacks it (SIGILL).
 */
int tsc_has_rdtscp(void)
{
	static int known = -1;
	struct sigaction sa, old;

	if (known >= 0)
		return known;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigill;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGILL, &sa, &old);
	if (sigsetjmp(probe_env, 1) == 0) {
		tsc_read_p();
		known = 1;
	} else {
		known = 0;
	}
	sigaction(SIGILL, &old, NULL);
	return known;
}

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

double clock_resolution_ns(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC, &ts))
		return 1;
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
