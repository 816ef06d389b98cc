// SPDX-License-Identifier: GPL-2.0
#include "devio.h"
#include "device.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "syncdev_abi.h"

/*
 * The buffer's pages (up to DEVBUF_POPULATE_MAX) are mapped here, before
 * the connection, in one madvise(MADV_POPULATE_*) rather than by a page
 * fault per page in the middle of the transfer: 256 faults for 1 MiB,
 * which under emulation made the mmap slave's thousand small files
 * slower (docs/results.md, "Many files").  The device's pages come from
 * its fault handler as they would on first touch (buffer.c).
 */
static void populate(void *buf, size_t len, int write)
{
	map_populate(buf, len < DEVBUF_POPULATE_MAX ? len : DEVBUF_POPULATE_MAX,
		     write);
}

int devbuf_open(struct devbuf *b, int fd, enum xfer_method method,
		size_t size)
{
	size_t len;

	memset(b, 0, sizeof(*b));
	b->fd = fd;
	b->method = method;
	if (method == METHOD_MMAP) {
		/* 0: all of the device buffer (dev_map), skew included. */
		len = size && size <= SIZE_MAX - DEVBUF_SKEW ?
		      size + DEVBUF_SKEW : 0;
		b->map = dev_map(fd, &len);
		if (!b->map)
			return -1;
		/* A device buffer with no room to spare is never moved. */
		if (size && len >= size + DEVBUF_SKEW)
			b->skew = DEVBUF_SKEW;
		b->buf = b->map;
		b->cap = len - b->skew;
		/* Read faults: the slave's buffer line is then no dirtier. */
		populate(b->map, len, 0);
		return 0;
	} else {
		b->buf = malloc(size);
		if (!b->buf) {
			msg_errno("allocating a %zu-byte buffer", size);
			return -1;
		}
		populate(b->buf, size, 1);
	}
	b->cap = size;
	return 0;
}

void devbuf_close(struct devbuf *b)
{
	if (!b->buf)
		return;
	if (b->method == METHOD_MMAP)
		munmap(b->map, b->cap + b->skew);
	else
		free(b->buf);
	b->buf = NULL;
}

/* fcntl: write() it all, counting what went out before an error. */
static int tx_write(struct devbuf *b)
{
	size_t done = 0;
	ssize_t n;

	while (done < b->end) {
		n = write(b->fd, b->buf + done, b->end - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			/* What did go out is not sent again. */
			memmove(b->buf, b->buf + done, b->end - done);
			b->end -= done;
			return -1;
		}
		done += (size_t)n;
		b->moved += (uint64_t)n;
	}
	return 0;
}

int tx_flush(struct devbuf *b)
{
	int ret;

	if (b->end == 0)
		return 0;
	if (b->method == METHOD_FCNTL)
		ret = tx_write(b);
	else {
		/*
		 * SEND returns only when every byte is on its way; a signal
		 * that interrupts it is retried with the same arguments (the
		 * module keeps the progress of an interrupted SEND).
		 */
		do
			ret = dev_send(b->fd, (uint64_t)(b->buf - b->map),
				       b->end);
		while (ret && errno == EINTR);
		if (ret == 0)
			b->moved += b->end;
	}
	if (ret == 0)
		b->end = 0;
	return ret;
}

/*
 * Where an empty mapped buffer goes when it is about to be copied from or
 * to peer: the page-aligned offset in the mapping (below DEVBUF_SKEW) at
 * which (buf - peer) mod DEVBUF_SKEW is half of it, give or take a page.
 * The two sides' pages are then DEVBUF_SKEW / 2 apart in every
 * power-of-two-sized direct-mapped TLB of DEVBUF_SKEW / 4 KiB entries or
 * more (QEMU's has 64 or more).  Measured in the VM (docs/transfer.md,
 * the row "mappings placed 128 KiB apart"): with the two sides aliased
 * the mmap master took half as long again as with them apart, which is
 * as long as with read() and write().
 */
size_t devbuf_place_offset(const void *map, const void *peer)
{
	uintptr_t off = ((uintptr_t)peer + DEVBUF_SKEW / 2 - (uintptr_t)map) &
			(DEVBUF_SKEW - 1);

	return off & ~(uintptr_t)(DEVBUF_PAGE - 1);
}

static void devbuf_place(struct devbuf *b, const void *peer)
{
	if (b->skew && peer && !b->end)
		b->buf = b->map + devbuf_place_offset(b->map, peer);
}

unsigned char *tx_space(struct devbuf *b, const void *peer, size_t *room)
{
	if (b->end == b->cap && tx_flush(b))
		return NULL;
	devbuf_place(b, peer);
	*room = b->cap - b->end;
	return b->buf + b->end;
}

void tx_commit(struct devbuf *b, size_t n)
{
	b->end += n;
}

int tx_put(struct devbuf *b, const void *data, size_t n)
{
	const unsigned char *p = data;
	unsigned char *dst;
	size_t room;

	while (n) {
		dst = tx_space(b, NULL, &room);
		if (!dst)
			return -1;
		if (room > n)
			room = n;
		memcpy(dst, p, room);
		tx_commit(b, room);
		p += room;
		n -= room;
	}
	return 0;
}

/*
 * Receive into the empty buffer: read() returns whatever has arrived (at
 * least a byte).  RECV waits for all of min(cap, want), the bytes the
 * caller is sure to consume (the protocol says they come next, so the
 * wait cannot outlast the stream): one ioctl per buffer instead of one
 * per burst of the network, and each burst costs a system call that is
 * dear in a VM.  But when fewer than DEVBUF_SMALL bytes are sure to come
 * (a frame header, a trailer, a small file), RECV takes whatever has
 * arrived, up to a full buffer, as read() does: the next files' frames
 * and data come with it, instead of an ioctl for each frame and file.
 */
static ssize_t rx_fill(struct devbuf *b, size_t want, const void *peer)
{
	size_t len = want < b->cap ? want : b->cap;
	uint32_t flags = SYNCDEV_RECV_WAITALL;
	ssize_t n;

	if (want < DEVBUF_SMALL) {
		len = b->cap;
		flags = 0;
	}

	b->pos = b->end = 0;
	devbuf_place(b, peer);
	do {
		if (b->method == METHOD_MMAP)
			n = dev_recv(b->fd, (uint64_t)(b->buf - b->map), len,
				     flags);
		else
			n = read(b->fd, b->buf, b->cap);
	} while (n < 0 && errno == EINTR);
	if (n > 0)
		b->end = (size_t)n;
	return n;
}

ssize_t rx_peek(struct devbuf *b, size_t max, const void *peer,
		const unsigned char **p)
{
	ssize_t n;

	if (b->pos == b->end) {
		n = rx_fill(b, max, peer);
		if (n <= 0)
			return n;
	}
	*p = b->buf + b->pos;
	return (ssize_t)(b->end - b->pos < max ? b->end - b->pos : max);
}

void rx_consume(struct devbuf *b, size_t n)
{
	b->pos += n;
}

ssize_t rx_read(struct devbuf *b, void *dst, size_t n)
{
	const unsigned char *p;
	size_t done = 0;
	ssize_t got;

	while (done < n) {
		got = rx_peek(b, n - done, (unsigned char *)dst + done, &p);
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		memcpy((unsigned char *)dst + done, p, (size_t)got);
		rx_consume(b, (size_t)got);
		done += (size_t)got;
	}
	return (ssize_t)done;
}
