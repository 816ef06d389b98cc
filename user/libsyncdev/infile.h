/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An input file of the master, opened and sized before the transfer
 * starts so that a missing, unreadable or unsuitable file fails before
 * any slave waits for it.  In mmap mode the whole file is mapped
 * read-only, unless it is small (map_from).
 */
#ifndef SYNCDEV_INFILE_H
#define SYNCDEV_INFILE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>

struct infile {
	const char *path;
	int fd;
	uint64_t size;			/* at open time; what is sent */
	const unsigned char *map;	/* mmap mode, size > 0 only */
	struct timespec mtime, ctime;	/* at open time */
};

/*
 * Only regular files: a FIFO, device, socket or directory is refused
 * before anything could block on it.  The file is mapped when it has at
 * least map_from bytes (0: never; 1: whenever it is not empty).  Prints a
 * message and returns -1 on failure.
 */
int infile_open(struct infile *f, const char *path, uint64_t map_from);
void infile_close(struct infile *f);

/*
 * The n bytes of f at off (mmap: memcpy from the mapping; else read())
 * into dst, folded into *crc unless crc is NULL.  Returns the bytes copied (fewer than n
 * only from read()), or -1 after a message naming the file: a read
 * error, or the file shrank under us (read() hit its end early, or the
 * mapping raised SIGBUS).
 */
ssize_t infile_copy(struct infile *f, uint64_t off, void *dst, size_t n,
		    uint32_t *crc);

/*
 * Up to n bytes of f at off sent to out by one sendfile() (retried after
 * EINTR): the kernel moves the file's pages, nothing is copied here.
 * Returns the count (0: the file ended early), or -1 with errno and no
 * message: the caller knows whether it can fall back to infile_copy().
 */
ssize_t infile_sendfile(struct infile *f, int out, uint64_t off, size_t n);

/*
 * After the whole file was copied, before its trailer: -1 after a message
 * if it is now shorter than when it was opened (a mapped file that shrank
 * inside its last page reads as zeros without SIGBUS), or its size,
 * modification or change time differ (rewritten in place: the bytes sent
 * may mix old and new), else 0.  The master then stops before the
 * trailer, so the slave fails too.
 */
int infile_check_size(struct infile *f);

#endif
