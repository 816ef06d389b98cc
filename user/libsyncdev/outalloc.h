/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The storage of a mapped output file, allocated before the copy reaches
 * it.  Every page is allocated (posix_fallocate: a full disk is ENOSPC,
 * never SIGBUS in the middle of a copy) and mapped (MADV_POPULATE_WRITE)
 * before the slave copies into it.  The allocation, the zeroing and the
 * mapping of each page are work that write() never does (it fills whole
 * pages in place).  With a second CPU (or SYNCDEV_ALLOC_AHEAD=1; =0: never)
 * and a file of 4 MiB or more, a thread does them in steps of 1 MiB, at most 4 MiB ahead of the copy,
 * so that they overlap the transfer instead of lengthening it; otherwise
 * the whole file is allocated at once and each piece mapped just before
 * its copy (docs/results.md, "The mmap receiver").
 *
 *	outalloc_room(fd, size);		// ENOSPC: refuse now
 *	outalloc_start(&a, fd, map, size);	// fd's size is set already
 *	for each piece [off, off + n), in order:
 *		if ((err = outalloc_wait(&a, off, off + n)))
 *			fail with err;		// ENOSPC, EIO, ...
 *		copy into map + off;
 *	outalloc_stop(&a);			// before munmap
 */
#ifndef SYNCDEV_OUTALLOC_H
#define SYNCDEV_OUTALLOC_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct outalloc {
	int fd;
	unsigned char *map;
	uint64_t size;
	bool threaded;		/* a thread allocates ahead */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* ready or err changed */
	pthread_cond_t room;	/* copied or stop changed */
	uint64_t ready;		/* [0, ready) is allocated and mapped */
	uint64_t copied;	/* the copy has reached this offset */
	uint64_t wanted;	/* and waits for [0, wanted) */
	int err;		/* why the allocation stopped, or 0 */
	bool stop;		/* outalloc_stop: the thread ends */
};

/*
 * Before mapping: ENOSPC when fd's file system has fewer free blocks than
 * size bytes need (a full disk, or a size no disk has, is refused before
 * a byte is sent: the allocation ahead would find it later), else 0.
 */
int outalloc_room(int fd, uint64_t size);
/*
 * Allocate [0, size) of fd, mapped for writing at map.  0 when it is
 * allocated, or being allocated ahead; an errno value when allocating at
 * once failed.
 */
int outalloc_start(struct outalloc *a, int fd, unsigned char *map,
		   uint64_t size);
/*
 * Before the copy into [off, end): wait until [0, end) is allocated and
 * let the thread run on.  0, or the errno that stopped the allocation.
 */
int outalloc_wait(struct outalloc *a, uint64_t off, uint64_t end);
/* End the thread, if any (before the mapping goes away). */
void outalloc_stop(struct outalloc *a);

#endif
