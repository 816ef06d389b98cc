// SPDX-License-Identifier: GPL-2.0
/*
 * tcpcopy --zerocopy: the data moved by the kernel's own zero-copy path,
 * the reference the device is measured against.  The sender hands the
 * file's page-cache pages to the socket with sendfile() (no copy in
 * userspace, none into the socket: the pages are sent by reference); the
 * receiver moves the socket's buffers into a pipe and the pipe into the
 * file with splice(), so that a byte is copied once, from the socket's
 * buffers into the file's page cache, and never through this program.
 * With --device the sender's sendfile() goes into the master device and
 * the receiver's splice() comes out of the slave device, whose
 * splice_write and splice_read take the pages by reference as well.
 */
#include "tcpcopy.h"
#include "ack.h"
#include "infile.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

ssize_t tcpcopy_zc_send(int sock, struct infile *f, uint64_t *off,
			const struct tcpcopy_opts *o, struct ack_in *in)
{
	size_t n;
	ssize_t r;

	while (*off < f->size) {
		n = f->size - *off < o->bufsize ? (size_t)(f->size - *off) :
		    o->bufsize;
		r = infile_sendfile(f, sock, *off, n);
		/* A device without splice_write: the copy (send.c). */
		if (r < 0 && !*off && (errno == EINVAL || errno == ENOSYS))
			return 0;
		if (r < 0)
			return -1;
		if (r == 0) {
			msg("%s shrank while it was sent (at %llu of %llu bytes)",
			    f->path, (unsigned long long)*off,
			    (unsigned long long)f->size);
			return -2;
		}
		*off += (uint64_t)r;
		/* Not after the last: then a positive answer may come. */
		if (*off < f->size && ack_early(sock, in))
			return -2;
	}
	return 0;
}

/* All n bytes in the pipe p into the file: 0, or -1 with errno. */
static int drain(int p, int fd, size_t n)
{
	ssize_t w;

	while (n) {
		w = splice(p, NULL, fd, NULL, n, SPLICE_F_MOVE);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = EIO;
			return -1;
		}
		n -= (size_t)w;
	}
	return 0;
}

ssize_t tcpcopy_zc_recv(int sock, int fd, uint64_t size, uint64_t *done,
			const struct tcpcopy_opts *o)
{
	int p[2], err = 0;
	ssize_t n = 1;
	size_t want;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	/* As large as allowed up to the buffer size; the default else. */
	(void)fcntl(p[1], F_SETPIPE_SZ, (int)(o->bufsize < 1u << 20 ?
					      o->bufsize : 1u << 20));
	while (*done < size) {
		want = size - *done < o->bufsize ? (size_t)(size - *done) :
		       o->bufsize;
		n = splice(sock, NULL, p[1], NULL, want, SPLICE_F_MOVE);
		if (n < 0 && errno == EINTR)
			continue;
		/* A device or kernel without splice_read: read() it. */
		if (n < 0 && !*done && (errno == EINVAL || errno == ENOSYS)) {
			n = -3;
			break;
		}
		if (n <= 0)
			break;
		if (drain(p[0], fd, (size_t)n)) {
			n = -2;
			break;
		}
		*done += (uint64_t)n;
	}
	err = errno;
	close(p[0]);
	close(p[1]);
	errno = err;
	return n;
}
