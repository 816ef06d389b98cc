/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The raw device calls the kernel-facing test tools share (devcheck,
 * relcheck, fuzz): open, CONNECT, SEND/RECV, and a connected pair of
 * sessions in one process.  Only libc and the uapi header, so that a tool
 * can be built for 32 bits too (the compat ioctl path).  Included by
 * exactly one .c file per program.
 */
#ifndef DEVTEST_H
#define DEVTEST_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "syncdev_abi.h"

/* "-1 with errno e": the shape of most checks. */
#define ERRNO_IS(call, e)	((call) == -1 && errno == (e))

static int dt_open(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0) {
		fprintf(stderr, "open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

static int dt_connect(int fd, const char *ip, uint16_t port,
		      uint32_t timeout_ms)
{
	struct syncdev_connect c = { .port = port, .timeout_ms = timeout_ms };

	inet_pton(AF_INET, ip, &c.addr);
	return ioctl(fd, SYNCDEV_IOC_CONNECT, &c);
}

static inline int dt_xfer(int fd, unsigned long cmd, uint64_t off, uint64_t len,
		   uint32_t flags, uint32_t reserved)
{
	struct syncdev_xfer x = { off, len, flags, reserved };

	return ioctl(fd, cmd, &x);
}

/* dt_pair*() connects with the legacy numbers instead of ACCEPT/CONNECT. */
static int dt_legacy;

static void *dt_accept_thread(void *arg)
{
	unsigned long cmd = dt_legacy ? SYNCDEV_LEGACY_CONNECT :
					SYNCDEV_IOC_ACCEPT;

	if (ioctl(*(int *)arg, cmd, 0))
		fprintf(stderr, "accept: %s\n", strerror(errno));
	return NULL;
}

/* A plain TCP connect to the master's port: ends a waiting ACCEPT. */
static void dt_poke_listener(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(SYNCDEV_DEFAULT_PORT) };
	int u = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (u >= 0) {
		connect(u, (struct sockaddr *)&sa, sizeof(sa));
		close(u);
	}
}

/*
 * A connected pair of sessions over 127.0.0.1: *m accepts in a thread, *s
 * connects (refused until the thread's ACCEPT created the listener), with
 * the legacy numbers if dt_legacy is set.
 * Returns 0, or -1 if the connect kept failing.  The slave is opened with
 * @slave_flags (O_RDWR, O_RDONLY, ...).
 */
static int dt_pair_flags(int *m, int *s, int slave_flags)
{
	const struct timespec pause = { 0, 20 * 1000000L };
	pthread_t t;
	int i, ret;

	*m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);
	*s = dt_open(SYNCDEV_SLAVE_PATH, slave_flags);
	pthread_create(&t, NULL, dt_accept_thread, m);
	for (i = 0; i < 500; i++) {
		ret = dt_legacy ? ioctl(*s, SYNCDEV_LEGACY_CONNECT, "127.0.0.1") :
				  dt_connect(*s, "127.0.0.1", 0, 0);
		if (!ret || errno != ECONNREFUSED)
			break;
		nanosleep(&pause, NULL);
	}
	if (ret) {
		fprintf(stderr, "connect to 127.0.0.1: %s\n", strerror(errno));
		dt_poke_listener();
	}
	pthread_join(t, NULL);
	return ret;
}

static int dt_pair(int *m, int *s)
{
	return dt_pair_flags(m, s, O_RDWR);
}

static inline void dt_on_usr1(int sig)
{
	(void)sig;
}

/*
 * SIGUSR1 with a handler and without SA_RESTART: a blocking call it
 * interrupts fails with EINTR instead of being restarted.
 */
static inline void catch_usr1(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = dt_on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
}

#endif /* DEVTEST_H */
