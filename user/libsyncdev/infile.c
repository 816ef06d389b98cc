// SPDX-License-Identifier: GPL-2.0
#include "infile.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int infile_open(struct infile *f, const char *path, int map)
{
	struct stat st;
	void *p;

	f->path = path;
	f->map = NULL;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		msg_errno("cannot open input file %s", path);
		return -1;
	}
	if (fstat(f->fd, &st)) {
		msg_errno("cannot stat input file %s", path);
		goto fail;
	}
	/* The size goes into the frame header before the data. */
	if (!S_ISREG(st.st_mode)) {
		msg("input file %s is not a regular file", path);
		goto fail;
	}
	f->size = (uint64_t)st.st_size;
	/* mmap of length 0 is EINVAL: an empty file needs no mapping. */
	if (map && f->size) {
		p = mmap(NULL, f->size, PROT_READ, MAP_SHARED, f->fd, 0);
		if (p == MAP_FAILED) {
			msg_errno("cannot mmap input file %s", path);
			goto fail;
		}
		madvise(p, f->size, MADV_SEQUENTIAL);
		f->map = p;
	}
	return 0;
fail:
	close(f->fd);
	f->fd = -1;
	return -1;
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
