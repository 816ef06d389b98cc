// SPDX-License-Identifier: GPL-2.0
#include "infile.h"
#include "crc32c.h"
#include "mapguard.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Open path for reading if it is a regular file.  stat() first, so that
 * a device is never opened (opening one can have effects); O_NONBLOCK, so
 * that a FIFO put there since cannot block the open; fstat() again to be
 * sure of what was opened.
 */
static int open_regular(const char *path, struct stat *st)
{
	int fd;

	if (stat(path, st) == 0 && !S_ISREG(st->st_mode)) {
		msg("input file %s is %s, not a regular file", path,
		    mode_kind(st->st_mode));
		return -1;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		msg_errno("cannot open input file %s", path);
		return -1;
	}
	if (fstat(fd, st) || fcntl(fd, F_SETFL, 0)) {
		msg_errno("cannot stat input file %s", path);
	} else if (!S_ISREG(st->st_mode)) {
		msg("input file %s is %s, not a regular file", path,
		    mode_kind(st->st_mode));
	} else {
		return fd;
	}
	close(fd);
	return -1;
}

int infile_open(struct infile *f, const char *path, uint64_t map_from)
{
	struct stat st;
	void *p;

	f->path = path;
	f->map = NULL;
	f->fd = open_regular(path, &st);
	if (f->fd < 0)
		return -1;
	/* The size goes into the frame header before the data. */
	f->size = (uint64_t)st.st_size;
	f->mtime = st.st_mtim;
	f->ctime = st.st_ctim;
	/* mmap of length 0 is EINVAL: an empty file needs no mapping. */
	if (map_from && f->size >= map_from) {
		p = mmap(NULL, f->size, PROT_READ, MAP_SHARED, f->fd, 0);
		if (p == MAP_FAILED) {
			msg_errno("cannot mmap input file %s", path);
			close(f->fd);
			f->fd = -1;
			return -1;
		}
		madvise(p, f->size, MADV_SEQUENTIAL);
		f->map = p;
	}
	return 0;
}

void infile_close(struct infile *f)
{
	if (f->map)
		munmap((void *)f->map, f->size);
	if (f->fd >= 0)
		close(f->fd);
	f->map = NULL;
	f->fd = -1;
}

static void shrank(const struct infile *f, uint64_t off)
{
	msg("input file %s shrank while being sent (it ended at byte %llu of %llu)",
	    f->path, (unsigned long long)off, (unsigned long long)f->size);
}

ssize_t infile_copy(struct infile *f, uint64_t off, void *dst, size_t n,
		    uint32_t *crc)
{
	ssize_t r;

	if (f->map) {
		map_populate((void *)(f->map + off), n, 0);
		if (map_copy(dst, f->map + off, n, crc)) {
			shrank(f, off);
			return -1;
		}
		return (ssize_t)n;
	}
	do
		r = read(f->fd, dst, n);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		msg_errno("reading input file %s", f->path);
	else if (r == 0)
		shrank(f, off);
	if (r > 0 && crc)
		*crc = crc32c(*crc, dst, (size_t)r);
	return r > 0 ? r : -1;
}

ssize_t infile_sendfile(struct infile *f, int out, uint64_t off, size_t n)
{
	off_t pos = (off_t)off;
	ssize_t r;

	do
		r = sendfile(out, f->fd, &pos, n);
	while (r < 0 && errno == EINTR);
	return r;
}

static int same_time(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

int infile_check_size(struct infile *f)
{
	struct stat st;

	if (fstat(f->fd, &st)) {
		msg_errno("cannot stat input file %s", f->path);
		return -1;
	}
	if ((uint64_t)st.st_size < f->size) {
		msg("input file %s shrank while being sent (%llu bytes, now %llu): what was sent is not the file",
		    f->path, (unsigned long long)f->size,
		    (unsigned long long)st.st_size);
		return -1;
	}
	if ((uint64_t)st.st_size != f->size ||
	    !same_time(&st.st_mtim, &f->mtime) ||
	    !same_time(&st.st_ctim, &f->ctime)) {
		msg("input file %s changed while being sent (its size or modification time): what was sent may mix old and new bytes",
		    f->path);
		return -1;
	}
	return 0;
}
