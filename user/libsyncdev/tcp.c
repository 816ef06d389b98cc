// SPDX-License-Identifier: GPL-2.0
#include "tcp.h"
#include "netaddr.h"
#include "retry.h"
#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

int tcp_set_timeout(int fd, uint32_t seconds)
{
	struct timeval tv = { .tv_sec = seconds };

	if (!seconds)
		return 0;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv))) {
		msg_errno("cannot set the progress timeout");
		return -1;
	}
	return 0;
}

void tcp_fix_errno(void)
{
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		errno = ETIMEDOUT;
}

int tcp_listen_at(struct in_addr addr, uint16_t port, int backlog)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr = addr,
	};
	int one = 1, fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		msg_errno("socket");
		return -1;
	}
	/* Back-to-back benchmark runs must not wait out TIME_WAIT. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(fd, backlog)) {
		msg_errno("listen on port %u", port);
		close(fd);
		return -1;
	}
	return fd;
}

int tcp_listen(uint16_t port)
{
	struct in_addr any = { .s_addr = htonl(INADDR_ANY) };

	return tcp_listen_at(any, port, 1);
}

int tcp_accept_one(uint16_t port)
{
	int lfd = tcp_listen(port), fd;

	if (lfd < 0)
		return -1;
	do
		fd = accept(lfd, NULL, NULL);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		msg_errno("accept on port %u", port);
	close(lfd);
	return fd;
}

/* SO_LINGER 0: close() then resets the connection. */
static void reset_on_close(int fd)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
}

void tcp_reset(int fd)
{
	reset_on_close(fd);
	close(fd);
}

static bool self_connected(int fd)
{
	struct sockaddr_in local, peer;
	socklen_t llen = sizeof(local), plen = sizeof(peer);

	if (getsockname(fd, (struct sockaddr *)&local, &llen) ||
	    getpeername(fd, (struct sockaddr *)&peer, &plen))
		return false;
	return local.sin_port == peer.sin_port &&
	       local.sin_addr.s_addr == peer.sin_addr.s_addr;
}

int tcp_connect_fd(int fd, const struct sockaddr_in *sa)
{
	if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)))
		return -1;
	if (!self_connected(fd))
		return 0;
	reset_on_close(fd);
	errno = ECONNREFUSED;
	return -1;
}

struct conn {
	int fd;
	struct sockaddr_in sa;
};

static int connect_once(void *arg)
{
	struct conn *c = arg;

	if (c->fd >= 0)
		close(c->fd);
	/* A refused socket cannot connect again: a new one each try. */
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -1;
	return tcp_connect_fd(c->fd, &c->sa);
}

int tcp_connect(struct in_addr addr, uint16_t port, uint32_t wait_ms)
{
	struct conn c = { .fd = -1 };
	char where[32];

	c.sa.sin_family = AF_INET;
	c.sa.sin_port = htons(port);
	c.sa.sin_addr = addr;
	if (retry_refused(connect_once, &c, wait_ms) == 0)
		return c.fd;
	msg_errno("connect to %s", format_ipv4_port(where, addr, port));
	if (c.fd >= 0)
		close(c.fd);
	return -1;
}
