/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Filling the pages of a new tmpfs file through its mapping without the
 * kernel zeroing them first.  A store into a mapped tmpfs page that does
 * not exist yet faults: the kernel allocates the page, zeroes it and maps
 * it, and only then does the program copy its data in.  userfaultfd's
 * UFFDIO_COPY does it in one step: it allocates the page, copies the data
 * into it and maps it (docs/transfer.md, "The mmap receiver"; the times
 * of each way in docs/results.md).
 *
 * Only for tmpfs (shmem) mappings, and only where userfaultfd is allowed:
 * pagefill_start() fails otherwise, and the caller writes through the
 * mapping as before.  While a range is registered, touching one of its
 * pages that is not filled yet raises SIGBUS (UFFD_FEATURE_SIGBUS) rather
 * than waiting for a fault handler this program does not have: a mistake
 * fails loudly, it never hangs.
 */
#ifndef SYNCDEV_PAGEFILL_H
#define SYNCDEV_PAGEFILL_H

#include <stddef.h>

struct pagefill {
	int fd;			/* the userfaultfd; -1: not filling */
	unsigned char *map;	/* the registered range */
	size_t len;
	size_t page;		/* the page size */
};

/*
 * Register [map, map + len) of a shared tmpfs mapping (map page-aligned,
 * len rounded up to pages here): 0, or -1 with errno (EINVAL: not tmpfs;
 * EPERM or ENOSYS: userfaultfd refused), and u->fd is -1.
 */
int pagefill_start(struct pagefill *u, void *map, size_t len);
/*
 * Fill the pages [off, off + len) from src (off and len page multiples;
 * src any address): 0, or -1 with errno (EEXIST: a page was there
 * already; ENOMEM: no memory or the tmpfs is full).
 */
int pagefill_copy(struct pagefill *u, size_t off, const void *src,
		  size_t len);
/* Unregister; the mapping stays, and its missing pages fault as usual. */
void pagefill_stop(struct pagefill *u);

#endif
