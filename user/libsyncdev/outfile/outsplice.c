// SPDX-License-Identifier: GPL-2.0
/*
 * An output file's bytes taken from a pipe with splice(): the pipe's pages
 * are copied once, into the file's page cache, never through the program;
 * the program then reads them where they landed, for its CRC and MAC:
 * through a read-only mapping of the file, or, where the file system maps
 * none, with pread() into the caller's scratch buffer.
 */
#include "outfile.h"
#include "mapguard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * The whole file, mapped once (private and read-only: it reads the page
 * cache, and a file system that maps no writable descriptor shared, as
 * 9p without a cache, maps it all the same); MAP_FAILED once refused.
 */
static const unsigned char *read_map(struct outfile *f)
{
	void *m;

	if (!f->rmap) {
		m = f->size <= SIZE_MAX ?
		    mmap(NULL, (size_t)f->size, PROT_READ, MAP_PRIVATE,
			 f->fd, 0) : MAP_FAILED;
		f->rmap = m;
	}
	return f->rmap == MAP_FAILED ? NULL : f->rmap;
}

/* The n bytes at off read back with pread(), scratch_len at a time. */
static int fold_read(struct outfile *f, uint64_t off, size_t n,
		     void (*fn)(void *ctx, const void *p, size_t n), void *ctx,
		     unsigned char *scratch, size_t scratch_len)
{
	size_t want;
	ssize_t r;

	while (n) {
		want = n < scratch_len ? n : scratch_len;
		r = pread(f->fd, scratch, want, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (!r)
				errno = EIO;	/* cut short meanwhile */
			return -1;
		}
		fn(ctx, scratch, (size_t)r);
		off += (uint64_t)r;
		n -= (size_t)r;
	}
	return 0;
}

int outfile_splice(struct outfile *f, uint64_t off, int pipe_fd, size_t n,
		   void (*fn)(void *ctx, const void *p, size_t n), void *ctx,
		   void *scratch, size_t scratch_len)
{
	const unsigned char *map;
	size_t done = 0;
	ssize_t w;

	while (done < n) {
		w = splice(pipe_fd, NULL, f->fd, NULL, n - done, SPLICE_F_MOVE);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && !done && errno == EINVAL)
			return 1;
		if (w <= 0) {
			if (!w)
				errno = EIO;	/* the pipe had them */
			return -1;
		}
		done += (size_t)w;
	}
	map = read_map(f);
	if (!map)
		return fold_read(f, off, n, fn, ctx, scratch, scratch_len);
	/* SIGBUS: the file was cut short meanwhile or its storage failed. */
	if (map_read(map + off, n, fn, ctx)) {
		errno = EIO;
		return -1;
	}
	return 0;
}
