// SPDX-License-Identifier: GPL-2.0
#include "mapguard.h"
#include "crc32c.h"

#include <setjmp.h>
#include <signal.h>
#include <string.h>

static sigjmp_buf bus_jump;
static volatile sig_atomic_t bus_armed;

static void on_sigbus(int sig)
{
	if (bus_armed) {
		bus_armed = 0;
		siglongjmp(bus_jump, 1);
	}
	/* Not ours: the default action, when the access is retried. */
	signal(sig, SIG_DFL);
}

static void install(void)
{
	static int installed;
	struct sigaction sa;

	if (installed)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	/*
	 * SA_NODEFER: SIGBUS is not blocked in the handler, so the jump out of
	 * it needs no saved signal mask, and sigsetjmp() no system call.
	 */
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	installed = 1;
}

int map_copy(void *dst, const void *src, size_t n, uint32_t *crc)
{
	install();
	if (sigsetjmp(bus_jump, 0))
		return -1;
	bus_armed = 1;
	if (crc)
		*crc = crc32c_copy(*crc, dst, src, n);
	else
		memcpy(dst, src, n);
	bus_armed = 0;
	return 0;
}

int map_read(const void *src, size_t n,
	     void (*fn)(void *ctx, const void *p, size_t n), void *ctx)
{
	install();
	if (sigsetjmp(bus_jump, 0))
		return -1;
	bus_armed = 1;
	fn(ctx, src, n);
	bus_armed = 0;
	return 0;
}
