// SPDX-License-Identifier: GPL-2.0
#include "tcpcopy.h"
#include "netaddr.h"
#include "outfile.h"
#include "retry.h"
#include "util.h"
#include "xfer_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

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
	return connect(c->fd, (struct sockaddr *)&c->sa, sizeof(c->sa));
}

int tcpcopy_recv(struct in_addr addr, uint16_t port, const char *path,
		 size_t bufsize, uint32_t wait_ms)
{
	struct conn c = { .fd = -1 };
	struct outfile f;
	uint64_t t0, total = 0;
	char where[32], *buf;
	ssize_t n;

	if (outfile_check(path))
		return EXIT_FAIL;
	outfile_remove_on_signals();
	buf = xmalloc(bufsize);
	c.sa.sin_family = AF_INET;
	c.sa.sin_port = htons(port);
	c.sa.sin_addr = addr;
	if (retry_refused(connect_once, &c, wait_ms))
		die_errno("connect to %s", format_ipv4_port(where, addr, port));

	t0 = now_ns();
	if (outfile_create(&f, path, 0, 0))
		return EXIT_FAIL;
	for (;;) {
		do
			n = read(c.fd, buf, bufsize);
		while (n < 0 && errno == EINTR);
		if (n <= 0)
			break;
		if (outfile_write(&f, total, buf, (size_t)n)) {
			msg_errno("writing %s", f.tmp);
			break;
		}
		total += (uint64_t)n;
	}
	if (n != 0) {
		if (n < 0)
			msg_errno("receiving %s", path);
		outfile_abort(&f);
		return EXIT_FAIL;
	}
	/* Plain TCP has no framing: end of stream is the end of the file. */
	if (outfile_commit(&f))
		return EXIT_FAIL;
	xfer_print_time(now_ns() - t0, total);
	close(c.fd);
	free(buf);
	return EXIT_OK;
}
