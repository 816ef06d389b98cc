// SPDX-License-Identifier: GPL-2.0
/*
 * fast's read engine: each thread pread()s its chunks in blocks into its
 * own buffer, small enough to stay in the core's L2 (fast_block_for_l2),
 * and XORs the block while it is still there.  The kernel's copy reads
 * the page cache once; the XOR then reads the cache, not memory.
 *
 * Each thread opens the file again: the kernel keeps its read-ahead
 * state per open file, and threads sharing one would reset each other's
 * at every jump between their chunks.
 */
#include "fast_method.h"
#include "xor32.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* Warm: large enough to amortise the shared counter, small enough to share. */
#define READ_CHUNK_WARM (8u << 20)
/* Cold: announced ahead of the reader, in steps. */
#define READ_AHEAD_COLD (64u << 20)
#define READ_STEP_COLD (8u << 20)

struct read_thread {
	int fd;
	bool own_fd;
	unsigned char *buf;
	uint64_t hinted;	/* cold: announced up to here */
};

/*
 * Cached: chunks from the counter, for balance.  Cold: one contiguous
 * share per thread, as fio's jobs: each thread is one sequential stream
 * that the read-ahead of its own descriptor can follow.
 */
static size_t read_chunk(const struct fast_file *f, uint64_t len)
{
	return f->cold ? fast_share(f, len, FAST_ALIGN) : READ_CHUNK_WARM;
}

static void *read_start(struct fast_file *f)
{
	struct read_thread *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	if (posix_memalign((void **)&t->buf, 4096, f->block)) {
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	fast_touch(t->buf, f->block);
	t->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	t->own_fd = t->fd >= 0;
	if (!t->own_fd)
		t->fd = f->fd;	/* /proc/self/fd/N of a deleted file, ... */
	return t;
}

static void read_stop(void *ts)
{
	struct read_thread *t = ts;

	if (t->own_fd)
		close(t->fd);
	free(t->buf);
	free(t);
}

/* Fill buf with len bytes at off; a short file is EIO (it shrank). */
int fast_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	unsigned char *p = buf;
	ssize_t n;

	while (len) {
		n = pread(fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Cold: keep READ_AHEAD_COLD bytes announced (WILLNEED) ahead of pos, so
 * that the disk has more in flight than the kernel's read-ahead window.
 */
static void hint(struct read_thread *t, uint64_t pos, uint64_t end)
{
	uint64_t n;

	while (t->hinted < end && t->hinted < pos + READ_AHEAD_COLD) {
		n = end - t->hinted < READ_STEP_COLD ? end - t->hinted :
						       READ_STEP_COLD;
		posix_fadvise(t->fd, (off_t)t->hinted, (off_t)n,
			      POSIX_FADV_WILLNEED);
		t->hinted += n;
	}
}

static int read_xor(void *ts, struct fast_file *f, uint64_t off, size_t len,
		    uint32_t *xor)
{
	struct read_thread *t = ts;
	uint64_t end = off + len;
	size_t n;

	t->hinted = off;
	for (; off < end; off += n) {
		if (f->cold)
			hint(t, off, end);
		n = end - off < f->block ? (size_t)(end - off) : f->block;
		if (fast_pread_full(t->fd, t->buf, n, off))
			return -1;
		*xor ^= xor32(t->buf, n, off);
	}
	return 0;
}

const struct fast_engine fast_engine_read = {
	.name = "read",
	.method = FAST_READ,
	.chunk = read_chunk,
	.thread_start = read_start,
	.xor_chunk = read_xor,
	.thread_stop = read_stop,
};
