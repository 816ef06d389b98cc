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

struct xfer_opts {
	int verbose;		/* one line per file on stdout */
	int print_pages;	/* mmap mode: SYNCDEV_IOC_PRINT_PAGE once */
};

/*
 * Master: send the files (already open) and flush.  Returns EXIT_OK or
 * EXIT_FAIL after a message naming the file.
 */
int xfer_send(struct devbuf *b, struct infile *files, unsigned int n,
	      const struct xfer_opts *o);

/*
 * Slave: receive n files into paths (mmap mode when b->method is), each
 * renamed into place once its CRC verified; *total counts the data bytes.
 * Returns EXIT_OK, EXIT_FAIL (I/O, connection, count mismatch) or
 * EXIT_CORRUPT (bad framing, CRC mismatch) after a message.
 */
int xfer_recv(struct devbuf *b, char *const *paths, unsigned int n,
	      const struct xfer_opts *o, uint64_t *total);

#endif
