// SPDX-License-Identifier: GPL-2.0
/*
 * peersync: a barrier between two machines over TCP.
 *
 *	peersync [--port P] [--timeout S] --listen TAG	(one side)
 *	peersync [--port P] [--timeout S] TAG ADDR	(the other side)
 *
 * Returns once both sides have called it: each sends its TAG and checks
 * that the peer sent the same one, so two sides that lost step (one at
 * "end x", the other at "start y") fail instead of running on.  The
 * connecting side retries until the listening side is up.  Exit 0 when the
 * tags match, 3 when they differ, 1 when the peer did not come in time.
 */
#include "tcp.h"
#include "util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_PORT	2390
#define MAX_TAG		200

static void usage(FILE *f)
{
	fprintf(f,
		"usage: peersync [--port P] [--timeout S] --listen TAG\n"
		"       peersync [--port P] [--timeout S] TAG ADDR\n"
		"Wait until the peer reaches the same TAG (default port %d,\n"
		"timeout 60 s).  Exit 0: met; 3: the peer has another tag;\n"
		"1: no peer in time.\n", DEFAULT_PORT);
}

/* Milliseconds left until deadline (CLOCK_MONOTONIC ns), at least 0. */
static int left_ms(uint64_t deadline)
{
	uint64_t now = now_ns();

	return now >= deadline ? 0 : (int)((deadline - now) / 1000000);
}

static void set_timeout(int fd, int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static int accept_one(uint16_t port, uint64_t deadline)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	struct pollfd p = { .events = POLLIN };
	int one = 1, fd;

	p.fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (p.fd < 0)
		die_errno("socket");
	/* The previous barrier's connection may still be in TIME_WAIT. */
	setsockopt(p.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(p.fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(p.fd, 1))
		die_errno("listen on port %u", port);
	for (;;) {
		int n = poll(&p, 1, left_ms(deadline));

		if (n == 0)
			die(EXIT_FAIL, "no peer connected to port %u in time",
			    port);
		if (n < 0 && errno != EINTR)
			die_errno("poll");
		if (n > 0)
			break;
	}
	fd = accept4(p.fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		die_errno("accept");
	close(p.fd);
	return fd;
}

static int connect_one(const char *addr, uint16_t port, uint64_t deadline)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int err = 0;

	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1)
		die(EXIT_USAGE, "bad IPv4 address '%s'", addr);
	/* The peer may not listen yet, or not even have its link up. */
	while (left_ms(deadline) > 0) {
		int ms = left_ms(deadline);
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0)
			die_errno("socket");
		set_timeout(fd, ms < 2000 ? ms + 1 : 2000);
		if (!tcp_connect_fd(fd, &sa))
			return fd;
		err = errno;
		close(fd);
		nanosleep(&(struct timespec){ 0, 100 * 1000 * 1000 }, NULL);
	}
	errno = err;
	die_errno("no peer at %s:%u in time", addr, port);
}

/* Send our tag, read the peer's (one line); 0 when they are equal. */
static int exchange(int fd, const char *tag, uint64_t deadline)
{
	char line[MAX_TAG + 2], peer[MAX_TAG + 2];
	size_t len = 0;

	snprintf(line, sizeof(line), "%s\n", tag);
	set_timeout(fd, left_ms(deadline) + 1);
	if (write_full(fd, line, strlen(line)) < 0)
		die_errno("send tag");
	while (len < sizeof(peer) - 1 && (!len || peer[len - 1] != '\n')) {
		ssize_t n = read(fd, peer + len, sizeof(peer) - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die_errno("read the peer's tag");
		if (n == 0)
			die(EXIT_FAIL, "peer closed before sending its tag");
		len += n;
	}
	peer[len] = '\0';
	if (!strcmp(peer, line))
		return 0;
	peer[strcspn(peer, "\n")] = '\0';
	msg("peer is at '%s', this side at '%s'", peer, tag);
	return -1;
}

int main(int argc, char **argv)
{
	uint64_t port = DEFAULT_PORT, secs = 60, deadline;
	int listening = 0, i, fd, ok;

	set_progname(argv[0]);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--listen")) {
			listening = 1;
		} else if (!strcmp(argv[i], "--port") && i + 1 < argc) {
			if (parse_uint(argv[++i], 1, 65535, &port))
				die(EXIT_USAGE, "bad port '%s'", argv[i]);
		} else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			if (parse_uint(argv[++i], 1, 86400, &secs))
				die(EXIT_USAGE, "bad timeout '%s'", argv[i]);
		} else {
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - i != (listening ? 1 : 2) || strlen(argv[i]) > MAX_TAG ||
	    strchr(argv[i], '\n')) {
		usage(stderr);
		return EXIT_USAGE;
	}
	deadline = now_ns() + secs * 1000000000ULL;
	fd = listening ? accept_one(port, deadline) :
			 connect_one(argv[i + 1], port, deadline);
	ok = exchange(fd, argv[i], deadline) == 0;
	close(fd);
	return ok ? EXIT_OK : EXIT_CORRUPT;
}
