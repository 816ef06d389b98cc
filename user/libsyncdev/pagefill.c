// SPDX-License-Identifier: GPL-2.0
#include "pagefill.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Linux 5.11: allowed without privilege; kernel-mode faults not caught. */
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif

static int open_uffd(void)
{
	int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);

	/* Before 5.11 the flag is EINVAL; without it root may still. */
	if (fd < 0 && errno == EINVAL)
		fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	return fd;
}

int pagefill_start(struct pagefill *u, void *map, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	struct uffdio_api api = { .api = UFFD_API,
				  .features = UFFD_FEATURE_SIGBUS };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	int err;

	u->fd = -1;
	u->page = page > 0 ? (size_t)page : 4096;
	u->map = map;
	u->len = (len + u->page - 1) / u->page * u->page;
	if (!len) {
		errno = EINVAL;
		return -1;
	}
	u->fd = open_uffd();
	if (u->fd < 0)
		return -1;
	reg.range.start = (uintptr_t)map;
	reg.range.len = u->len;
	if (ioctl(u->fd, UFFDIO_API, &api) ||
	    ioctl(u->fd, UFFDIO_REGISTER, &reg)) {
		err = errno;
		close(u->fd);
		u->fd = -1;
		errno = err;
		return -1;
	}
	return 0;
}

int pagefill_copy(struct pagefill *u, size_t off, const void *src,
		  size_t len)
{
	const unsigned char *s = src;
	struct uffdio_copy c;

	while (len) {
		c = (struct uffdio_copy){ .dst = (uintptr_t)(u->map + off),
					  .src = (uintptr_t)s, .len = len };
		if (ioctl(u->fd, UFFDIO_COPY, &c) == 0)
			c.copy = (int64_t)len;
		else if (c.copy <= 0 && errno != EAGAIN && errno != EINTR)
			return -1;	/* EAGAIN: the address space changed */
		if (c.copy > 0) {
			off += (size_t)c.copy;
			s += c.copy;
			len -= (size_t)c.copy;
		}
	}
	return 0;
}

void pagefill_stop(struct pagefill *u)
{
	struct uffdio_range r = { .start = (uintptr_t)u->map, .len = u->len };

	if (u->fd < 0)
		return;
	ioctl(u->fd, UFFDIO_UNREGISTER, &r);
	close(u->fd);
	u->fd = -1;
}
