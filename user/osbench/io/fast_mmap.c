// SPDX-License-Identifier: GPL-2.0
/*
 * fast's mmap engine: each chunk is one window, mapped with MAP_POPULATE
 * (one call instead of a fault per 16 pages), XORed in place and
 * unmapped, so that memory use stays bounded (files larger than RAM
 * work).  No copy at all, but every page is mapped and unmapped: cheap
 * for the large folios read-ahead makes, dear for the small ones a
 * fresh write() leaves (docs/io.md measured both), which is why fast
 * measures before it trusts this engine.
 */
#include "fast_method.h"
#include "xor32.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>

static size_t mmap_chunk(const struct fast_file *f, uint64_t len)
{
	(void)len;
	return f->window;
}

/* Nothing per thread; any non-NULL pointer will do. */
static void *mmap_start(struct fast_file *f)
{
	return f;
}

static void mmap_stop(void *ts)
{
	(void)ts;
}

static int mmap_xor(void *ts, struct fast_file *f, uint64_t off, size_t len,
		    uint32_t *xor, size_t *done)
{
	uint64_t ahead = off + (uint64_t)f->threads * f->window;
	void *p;

	(void)ts;
	(void)done;	/* a window is read whole */
	/*
	 * Start reading the window the next free thread will take, so that
	 * the disk works while this one is mapped and XORed: a fault reads
	 * only around the faulting page and waits for it (docs/io.md).
	 */
	if (f->cold && ahead < f->end)
		posix_fadvise(f->fd, (off_t)ahead,
			      (off_t)(f->end - ahead < f->window ?
				      f->end - ahead : f->window),
			      POSIX_FADV_WILLNEED);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, f->fd,
		 (off_t)off);
	if (p == MAP_FAILED)
		return -1;
	*xor ^= xor32(p, len, off);
	munmap(p, len);
	return 0;
}

const struct fast_engine fast_engine_mmap = {
	.name = "mmap",
	.method = FAST_MMAP,
	.chunk = mmap_chunk,
	.thread_start = mmap_start,
	.xor_chunk = mmap_xor,
	.thread_stop = mmap_stop,
};
