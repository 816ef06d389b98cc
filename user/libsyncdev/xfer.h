/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transfer loops of master and slave: N files as one framed stream
 * (frame.h) through a devbuf (devio.h).  They live in the library so that
 * the unit tests can run them over a socketpair, without the device.
 */
#ifndef SYNCDEV_XFER_H
#define SYNCDEV_XFER_H

#include "devio.h"
#include "infile.h"

#include <stdint.h>

struct auth_session;

/*
 * mmap mode: a file smaller than this is written with write() on the
 * slave and read with read() on the master instead of being mapped.  A
 * mapping costs the same system calls whatever the size (slave:
 * ftruncate, fallocate or userfaultfd set-up, mmap, munmap; master: mmap,
 * madvise, munmap, and a page fault) and saves no copy (the bytes are
 * copied between the device buffer and the page cache either way), so
 * below a few pages it only adds time; docs/results.md ("Many files")
 * gives the measured cost per file of both.  The course's page-descriptor
 * line of a file is taken from a mapping all the same: the master maps
 * the first non-empty file, the slave maps the first page of it once its
 * bytes are written (xfer_recv.c).
 */
#define XFER_MAP_MIN (64u << 10)

/*
 * Master: after a file, what is queued goes out once it is this much,
 * not only when the buffer (1 MiB) is full: with many small files the
 * slave starts writing them while the master still reads the next ones,
 * instead of waiting for a thousand files' reads.  A write of the device
 * per 64 KiB costs little beside a system call per file.
 */
#define XFER_EARLY_FLUSH (64u << 10)

struct xfer_opts {
	int verbose;		/* one line per file on stdout */
	int print_pages;	/* mmap mode: the course's page lines */
	/* Keyed: each trailer followed by the file's MAC (auth.h). */
	const struct auth_session *auth;
	/* Slave: per file, 1 when nothing had its name when checked (OUTFILE_ABSENT). */
	const unsigned char *absent;
	/* fcntl mode: read() and write() only, no sendfile()/splice() (--copy). */
	int copy;
};

struct ack_in;

/*
 * Master: send the files (already open) and flush.  Returns EXIT_OK or
 * EXIT_FAIL, after a message naming the file, or silently when the slave
 * answered before the end (it failed: its answer is in *in, ack_wait()
 * reads the rest and says why).
 */
int xfer_send(struct devbuf *b, struct infile *files, unsigned int n,
	      const struct xfer_opts *o, struct ack_in *in);

/*
 * mmap mode, after the transfer: the course's page-descriptor lines
 * (SYNCDEV_IOC_PRINT_PAGE), logged once the master has its answer and the
 * slave has given it, as the course's programs log them after their copy
 * loop: the transfer does not wait for the two ioctls (docs/transfer.md).
 * Master: the device buffer's page and the first mapped file's, or the
 * buffer's alone when every file was empty.
 */
void xfer_send_pages(const struct devbuf *b, const struct infile *files,
		     unsigned int n);

/*
 * Slave, mmap mode: what the page lines need after the answer.  An output
 * written through its mapping (XFER_MAP_MIN and up) is logged while it is
 * mapped; of the first non-empty file otherwise, the first page is mapped
 * once its bytes are written (outfile_map_page) and kept mapped.
 */
struct xfer_pages {
	void *page;		/* that page, or NULL */
	int taken;		/* logged, or mapped in page */
};

/*
 * Slave, after its answer: the device buffer's page line and that of the
 * page kept; the buffer's alone when the files that arrived were all
 * empty (ok: the transfer succeeded).
 */
void xfer_recv_pages(const struct devbuf *b, struct xfer_pages *pg, int ok);

/* What the slave tells the master (ack.h) after xfer_recv. */
struct xfer_report {
	unsigned int status;	/* FRAME_ST_* */
	uint32_t index;		/* the file that failed, or FRAME_NO_FILE */
	uint32_t files;		/* files verified and in place */
	uint64_t total;		/* data bytes of those files */
};

/*
 * Slave: receive n files into paths (mmap mode when b->method is), each
 * renamed into place once its CRC verified, and fill *r.  Returns EXIT_OK,
 * EXIT_FAIL (I/O, connection, count mismatch) or EXIT_CORRUPT (bad
 * framing, CRC mismatch) after a message.  It reads nothing after the
 * last trailer: the master waits for the answer before it closes.
 */
int xfer_recv(struct devbuf *b, char *const *paths, unsigned int n,
	      const struct xfer_opts *o, struct xfer_report *r,
	      struct xfer_pages *pg);

#endif
