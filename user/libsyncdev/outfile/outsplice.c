// SPDX-License-Identifier: GPL-2.0
/*
 * An output file's bytes taken from a pipe with splice(): the pipe's pages
 * are copied once, into the file's page cache, never through the program;
 * the program then reads them where they landed, through a read-only
 * mapping of that range, for its CRC and MAC.
 */
#include "outfile.h"
#include "mapguard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* The n bytes at the file's offset off, mapped, handed to fn. */
static int fold_range(int fd, uint64_t off, size_t n,
		      void (*fn)(void *ctx, const void *p, size_t n),
		      void *ctx)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	size_t skew = (size_t)(off % page);
	unsigned char *map;
	int ret;

	map = mmap(NULL, n + skew, PROT_READ, MAP_SHARED, fd,
		   (off_t)(off - skew));
	if (map == MAP_FAILED)
		return -1;
	/* SIGBUS: the file was cut short meanwhile or its storage failed. */
	ret = map_read(map + skew, n, fn, ctx);
	munmap(map, n + skew);
	if (ret)
		errno = EIO;
	return ret;
}

int outfile_splice(struct outfile *f, uint64_t off, int pipe_fd, size_t n,
		   void (*fn)(void *ctx, const void *p, size_t n), void *ctx)
{
	size_t done = 0;
	ssize_t w;
	int ret;

	while (done < n) {
		w = splice(pipe_fd, NULL, f->fd, NULL, n - done, SPLICE_F_MOVE);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = EIO;	/* the pipe had them */
			return -1;
		}
		done += (size_t)w;
	}
	if (!f->rmap && f->size <= SIZE_MAX) {
		f->rmap = mmap(NULL, (size_t)f->size, PROT_READ, MAP_SHARED,
			       f->fd, 0);
		if (f->rmap == MAP_FAILED)
			f->rmap = NULL;
	}
	if (!f->rmap)
		return fold_range(f->fd, off, n, fn, ctx);
	ret = map_read(f->rmap + off, n, fn, ctx);
	if (ret)
		errno = EIO;
	return ret;
}
