// SPDX-License-Identifier: GPL-2.0
/* Block-at-a-time reading with counters: the core of run and the sweep. */
#include "io.h"
#include "util.h"
#include "xor32.h"

#include <stdlib.h>
#include <unistd.h>

int blockreader_init(struct blockreader *br, int fd, size_t block,
		     bool do_xor)
{
	*br = (struct blockreader){ .fd = fd, .block = block,
				    .do_xor = do_xor };
	/* Page-aligned, so that copies run at the kernel's best speed. */
	if (posix_memalign((void **)&br->buf, 4096, block)) {
		br->buf = NULL;
		return fail("cannot allocate a %zu-byte block", block);
	}
	return 0;
}

void blockreader_free(struct blockreader *br)
{
	free(br->buf);
	br->buf = NULL;
}

int blockreader_read(struct blockreader *br, uint64_t count, uint64_t *done)
{
	uint64_t i;

	for (i = 0; i < count; i++) {
		/* One block: read() until it is full or the input ends. */
		ssize_t n = read_full_counted(br->fd, br->buf, br->block,
					      &br->calls);

		if (n < 0) {
			*done = i;
			return -1;
		}
		if (br->do_xor)
			br->xor ^= xor32(br->buf, (size_t)n, br->offset);
		br->offset += (uint64_t)n;
		if ((size_t)n < br->block)
			break;
	}
	*done = i;
	return 0;
}

int blockreader_rewind(struct blockreader *br)
{
	if (lseek(br->fd, 0, SEEK_SET) < 0)
		return -1;
	br->offset = 0;
	br->calls = 0;
	br->xor = 0;
	return 0;
}
