// SPDX-License-Identifier: GPL-2.0
/*
 * osbench net --serve: the other end of every exercise of osbench net
 * (the protocol is in net.h).  One connection at a time: the exercises
 * are timed one after the other by one client, so nothing waits on
 * another client here, and the server adds no thread hand-offs to what
 * is measured.
 */
#include "device.h"
#include "net.h"
#include "pattern.h"
#include "stopsig.h"
#include "util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct server {
	int dev;		/* /dev/master_device, -1 until first needed */
	unsigned char *buf;
	size_t cap;
};

/* A buffer of at least n bytes. */
static unsigned char *space(struct server *s, size_t n)
{
	if (n > s->cap) {
		free(s->buf);
		s->buf = xmalloc(n);
		s->cap = n;
	}
	return s->buf;
}

/* errno value to refuse a device request with, or 0. */
static int device_ready(struct server *s, char op)
{
	if (s->dev < 0)
		s->dev = dev_open(dev_path(DEV_MASTER));
	if (s->dev < 0)
		return errno ? errno : ENODEV;
	if (op == 'R' && !dev_two_way(s->dev, DEV_MASTER))
		return EOPNOTSUPP;
	return 0;
}

static void echo(int in, int out, unsigned char *buf, size_t size)
{
	while (read_full(in, buf, size) == (ssize_t)size)
		if (write_full(out, buf, size) < 0)
			break;
}

static void sink(int fd, unsigned char *buf)
{
	unsigned char le[8];
	uint64_t total = 0;
	ssize_t n;

	while ((n = read(fd, buf, 1 << 17)) > 0 ||
	       (n < 0 && errno == EINTR && !stop_signal_caught()))
		total += n > 0 ? (uint64_t)n : 0;
	put_le(le, total, 8);
	write_full(fd, le, sizeof(le));
}

/* The device exercises; the client waits for their end on fd. */
static void device_op(struct server *s, int fd, char op, uint32_t size,
		      uint64_t count)
{
	const char *path = dev_path(DEV_MASTER);
	unsigned char *buf = space(s, size ? size : 1);
	uint64_t i;

	if (op == 'W')
		pattern_fill(buf, size, 0);
	for (i = 0; i < (op == 'W' || op == 'K' ? count : 1); i++) {
		if (dev_accept(s->dev, path))
			return;
		/* 'K': one byte, that the slave waits for before it closes. */
		if (strchr("WK", op) &&
		    write_full(s->dev, buf, op == 'W' ? size : 1) < 0 &&
		    !dev_peer_gone(errno))
			msg_errno("write to %s", path);
		else if (op == 'M')
			echo(fd, s->dev, buf, size);
		else if (op == 'R')
			echo(s->dev, s->dev, buf, size);
		if (dev_disconnect(s->dev, path))
			return;
	}
}

/* One connection's request; returns 1 for the end of a client run. */
static int handle(struct server *s, int fd)
{
	unsigned char req[NET_REQ_BYTES], status = 0;
	uint32_t size;
	uint64_t count;
	char op;

	if (read_full(fd, req, sizeof(req)) != (ssize_t)sizeof(req))
		return 0;	/* the connect test, or a client gone */
	op = (char)req[0];
	size = (uint32_t)get_le(req + 4, 4);
	count = get_le(req + 8, 8);
	if (!strchr("ESWKMRB", op) || (strchr("EMR", op) && !size))
		status = EINVAL;
	else if (strchr("WKMR", op))
		status = (unsigned char)device_ready(s, op);
	if (write_full(fd, &status, 1) < 0 || status)
		return 0;
	if (op == 'E')
		echo(fd, fd, space(s, size), size);
	else if (op == 'S')
		sink(fd, space(s, 1 << 17));
	else if (op != 'B')
		device_op(s, fd, op, size, count);
	return op == 'B';
}

int net_serve(int lfd, uint64_t count, int verbose)
{
	struct server s = { .dev = -1 };
	uint64_t runs = 0;
	int fd, one = 1, rc = EXIT_OK;

	stop_signals_catch();
	/* A client gone mid-reply is an EPIPE to ignore, not a death. */
	signal(SIGPIPE, SIG_IGN);
	while (!stop_signal_caught() && (!count || runs < count)) {
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			msg_errno("accept");
			rc = EXIT_FAIL;
			break;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		runs += (uint64_t)handle(&s, fd);
		close(fd);
	}
	if (stop_signal_caught() && verbose)
		msg("stopped by %s", strsignal(stop_signal_caught()));
	if (verbose)
		msg("served %llu client run%s", (unsigned long long)runs,
	    runs == 1 ? "" : "s");
	if (s.dev >= 0)
		close(s.dev);
	free(s.buf);
	close(lfd);
	return rc;
}
