// SPDX-License-Identifier: GPL-2.0
#include "dropcache.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int drop_all(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	/* 1: the page cache only; dentries and inodes stay warm. */
	n = write(fd, "1", 1);
	close(fd);
	return n == 1 ? 0 : -1;
}

int dropcache(int fd, int global)
{
	int err;

	/* Dirty pages cannot be dropped: write them back first. */
	if (fdatasync(fd) && errno != EINVAL && errno != EROFS)
		return -1;
	sync();
	if (global && drop_all() == 0)
		return DROPCACHE_PROC;
	err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (err) {
		errno = err;
		return -1;
	}
	return DROPCACHE_FADVISE;
}

const char *dropcache_name(int method)
{
	switch (method) {
	case DROPCACHE_PROC:
		return "drop_caches";
	case DROPCACHE_FADVISE:
		return "fadvise(DONTNEED)";
	default:
		return "none";
	}
}
