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

/* With --crc: the size before the data, the CRC32C after it. */
static int read_word(int fd, unsigned char *w, int len, const char *what)
{
	ssize_t n = read_full(fd, w, (size_t)len);

	if (n == len)
		return 0;
	if (n < 0)
		msg_errno("receiving %s", what);
	else
		msg("the sender closed the connection before %s", what);
	return -1;
}

/*
 * The data into f until size bytes (UINT64_MAX: the end of the stream)
 * or the end of the stream; sum gets their CRC32C when not NULL.  0, or
 * -1 after a message.
 */
static int recv_data(int fd, struct outfile *f, const char *path, char *buf,
		     size_t bufsize, uint64_t size, uint64_t *total,
		     uint32_t *sum)
{
	ssize_t n;

	while (*total < size) {
		do
			n = read(fd, buf, size - *total < bufsize ?
				 (size_t)(size - *total) : bufsize);
		while (n < 0 && errno == EINTR);
		if (n == 0)
			return 0;
		if (n < 0)
			return fail_errno("receiving %s", path);
		if (outfile_write(f, *total, buf, (size_t)n, sum))
			return fail_errno("writing %s", f->tmp);
		*total += (uint64_t)n;
	}
	return 0;
}

/* --crc: all size bytes came and the sender's CRC32C matches theirs. */
static int recv_check(int fd, uint64_t total, uint64_t size, uint32_t sum)
{
	unsigned char word[4];

	if (total < size) {
		msg("the sender closed the connection after %llu of %llu bytes",
		    (unsigned long long)total, (unsigned long long)size);
		return EXIT_FAIL;
	}
	if (read_word(fd, word, 4, "the CRC32C"))
		return EXIT_FAIL;
	if (get_le(word, 4) != sum) {
		msg("CRC32C mismatch: received data 0x%08x, sender 0x%08x",
		    sum, (unsigned)get_le(word, 4));
		return EXIT_CORRUPT;
	}
	return EXIT_OK;
}

int tcpcopy_recv(struct in_addr addr, uint16_t port, const char *path,
		 size_t bufsize, uint32_t wait_ms, int crc)
{
	struct conn c = { .fd = -1 };
	struct outfile f;
	uint64_t t0, total = 0, size = UINT64_MAX;
	unsigned char word[8];
	char where[32], *buf;
	uint32_t sum = 0;
	int rc;

	if (outfile_check(path))
		return EXIT_FAIL;
	outfile_remove_on_signals();
	c.sa.sin_family = AF_INET;
	c.sa.sin_port = htons(port);
	c.sa.sin_addr = addr;
	if (retry_refused(connect_once, &c, wait_ms))
		die_errno("connect to %s", format_ipv4_port(where, addr, port));

	t0 = now_ns();
	if (crc) {
		if (read_word(c.fd, word, 8, "the size"))
			return EXIT_FAIL;
		size = get_le(word, 8);
	}
	if (outfile_create(&f, path, 0, 0))
		return EXIT_FAIL;
	buf = xmalloc(bufsize);
	rc = recv_data(c.fd, &f, path, buf, bufsize, size, &total,
		       crc ? &sum : NULL) ? EXIT_FAIL : EXIT_OK;
	free(buf);
	if (rc == EXIT_OK && crc)
		rc = recv_check(c.fd, total, size, sum);
	if (rc != EXIT_OK) {
		outfile_abort(&f);
		return rc;
	}
	/* Plain TCP has no framing: end of stream is the end of the file. */
	if (outfile_commit(&f))
		return EXIT_FAIL;
	xfer_print_time(now_ns() - t0, total);
	close(c.fd);
	return EXIT_OK;
}
