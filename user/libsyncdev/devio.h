/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Buffered stream I/O on a connected syncdev device, in either of the two
 * methods of the course:
 *
 *   fcntl  the buffer is ours (malloc); flushing is write() to the master
 *          device, filling is read() from the slave device.
 *   mmap   the buffer is the device's own, mapped; flushing is
 *          SYNCDEV_IOC_SEND, filling is SYNCDEV_IOC_RECV.
 *
 * Callers copy file data straight into (tx_space) or out of (rx_peek) the
 * buffer, so each byte is copied once between the file and the device, and
 * small frame headers share a buffer with the data instead of costing a
 * system call each.  All functions return -1 with errno on failure; the
 * caller, who knows which file was being moved, prints the message.
 *
 * Placement (mmap): the bytes are copied between a mapped file and the
 * mapped device buffer, and a copy whose source and destination pages
 * share their low page-number bits is slow where the TLB is
 * direct-mapped, as QEMU's software TLB is (TCG: each load evicts the
 * store's entry and back).  So the device buffer is mapped a little larger
 * than cap, and each time it is empty and about to be filled from or
 * copied to a given address (the peer of tx_space and rx_peek), it moves
 * to where its pages are half of DEVBUF_SKEW away from the peer's.
 */
#ifndef SYNCDEV_DEVIO_H
#define SYNCDEV_DEVIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum xfer_method { METHOD_FCNTL, METHOD_MMAP };

/* How much larger than cap the mapping is, for placement (a power of 2). */
#define DEVBUF_SKEW (256u << 10)
/* Below this many bytes sure to come, RECV takes what has arrived (rx_fill). */
#define DEVBUF_SMALL (64u << 10)
/* The smallest page of the machines we run on; placement rounds to it. */
#define DEVBUF_PAGE 4096u
/*
 * At most this much of a buffer is mapped in before the connection
 * (devbuf_open): a --buffer of a GiB for a small file must not cost a
 * GiB of memory up front.  The default buffer is all mapped in.
 */
#define DEVBUF_POPULATE_MAX (8u << 20)

struct devbuf {
	int fd;
	enum xfer_method method;
	unsigned char *buf;	/* the buffer: map + an offset (mmap) */
	size_t cap;
	unsigned char *map;	/* mmap: the mapping, cap + skew bytes */
	size_t skew;		/* mmap: how far buf may move in map */
	size_t pos;		/* rx: next byte to hand out */
	size_t end;		/* tx: bytes queued; rx: bytes received */
	uint64_t moved;		/* tx: bytes the device took, in all */
};

/*
 * fcntl: allocate size bytes.  mmap: map the device buffer, at most size
 * bytes of it (0: all).  Prints a message on failure.
 */
int devbuf_open(struct devbuf *b, int fd, enum xfer_method method,
		size_t size);
void devbuf_close(struct devbuf *b);
/* Placement: the buffer's offset in a mapping at map for a copy with peer. */
size_t devbuf_place_offset(const void *map, const void *peer);

/*
 * Free space for at least one byte (flushing a full buffer); *room set.
 * peer: where the caller will copy the bytes from (NULL: nowhere in
 * particular), see devbuf_place().
 */
unsigned char *tx_space(struct devbuf *b, const void *peer, size_t *room);
/* n bytes of the space were filled. */
void tx_commit(struct devbuf *b, size_t n);
int tx_put(struct devbuf *b, const void *data, size_t n);
/* Send everything queued. */
int tx_flush(struct devbuf *b);

/*
 * Up to max received bytes at *p, waiting for more only when none are
 * buffered.  max must be bytes the stream is sure to bring next (or end):
 * mmap mode waits for all of them (up to the buffer's size) in one call.
 * peer: where the caller will copy them to (or NULL), see devbuf_place().
 * Returns the count, 0 at end of stream, -1 on error.
 */
ssize_t rx_peek(struct devbuf *b, size_t max, const void *peer,
		const unsigned char **p);
void rx_consume(struct devbuf *b, size_t n);
/* Copy n bytes out; returns fewer only at end of stream. */
ssize_t rx_read(struct devbuf *b, void *dst, size_t n);

#endif
