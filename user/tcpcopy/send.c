// SPDX-License-Identifier: GPL-2.0
#include "tcpcopy.h"
#include "crc32c.h"
#include "infile.h"
#include "util.h"
#include "xfer_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static int listen_on(uint16_t port)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int one = 1, fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		msg_errno("socket");
		return -1;
	}
	/* Back-to-back benchmark runs must not wait out TIME_WAIT. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 1)) {
		msg_errno("listen on port %u", port);
		close(fd);
		return -1;
	}
	return fd;
}

/* Listen on port and accept one client; the connection or -1. */
static int accept_one(uint16_t port)
{
	int lfd = listen_on(port), fd;

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

int tcpcopy_send(const char *path, uint16_t port, size_t bufsize, int crc,
		 int device)
{
	struct infile f;
	uint64_t t0, off = 0;
	unsigned char word[8];
	uint32_t sum = 0;
	char *buf;
	ssize_t n;
	int fd;

	if (infile_open(&f, path, 0))
		return EXIT_FAIL;
	buf = xmalloc(bufsize);
	fd = device ? tcpcopy_device_accept() : accept_one(port);
	if (fd < 0)
		return EXIT_FAIL;

	t0 = now_ns();
	if (crc) {
		put_le(word, f.size, 8);
		if (write_full(fd, word, 8) < 0)
			die_errno("sending the size of %s", path);
	}
	while (off < f.size) {
		n = read_full(f.fd, buf, bufsize);
		if (n < 0)
			die_errno("reading %s", path);
		if (n == 0)
			die(EXIT_FAIL, "%s shrank while being sent", path);
		if (crc)
			sum = crc32c(sum, buf, (size_t)n);
		if (write_full(fd, buf, (size_t)n) < 0)
			die_errno("sending %s", path);
		off += (uint64_t)n;
	}
	if (crc) {
		put_le(word, sum, 4);
		if (write_full(fd, word, 4) < 0)
			die_errno("sending the CRC32C of %s", path);
	}
	xfer_print_time(now_ns() - t0, f.size);
	if (close(fd))
		die_errno("closing the connection");
	infile_close(&f);
	free(buf);
	return EXIT_OK;
}
