/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An input file of the master, opened and sized before the transfer
 * starts so that a missing or unreadable file fails before any slave
 * waits for it.  In mmap mode the whole file is mapped read-only.
 */
#ifndef SYNCDEV_INFILE_H
#define SYNCDEV_INFILE_H

#include <stdint.h>

struct infile {
	const char *path;
	int fd;
	uint64_t size;			/* at open time; what is sent */
	const unsigned char *map;	/* mmap mode, size > 0 only */
};

/* Prints a message and returns -1 on failure. */
int infile_open(struct infile *f, const char *path, int map);
void infile_close(struct infile *f);

#endif
