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
 *
 * Cold, each thread reads one contiguous share in f->cold_block pieces
 * (1 MiB) and lets the kernel's read-ahead run ahead of it, its window
 * doubled by POSIX_FADV_SEQUENTIAL.  Announcing 64 MiB ahead with
 * POSIX_FADV_WILLNEED instead makes the reader allocate and submit the
 * pages itself, which read a cold GiB slower, idle or busy (docs/io.md,
 * "Design choices and the alternatives measured", 2).
 */
#include "fast_method.h"
#include "util.h"
#include "xor32.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* Warm: large enough to amortise the shared counter, small enough to share. */
#define READ_CHUNK_WARM (8u << 20)

struct read_thread {
	int fd;
	bool own_fd;
	unsigned char *buf;
	size_t block;		/* bytes per pread() */
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
	t->block = f->cold ? f->cold_block : f->block;
	t->buf = fast_buffer(t->block);
	if (!t->buf) {
		free(t);
		return NULL;
	}
	t->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	t->own_fd = t->fd >= 0;
	if (!t->own_fd)
		t->fd = f->fd;	/* /proc/self/fd/N of a deleted file, ... */
	/* Only on a descriptor of its own: the caller's keeps its advice. */
	if (f->cold && t->own_fd)
		posix_fadvise(t->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
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
 * A probe with a deadline stops at a FAST_ALIGN boundary of its chunk
 * once the deadline has passed: a cold chunk is a thread's whole share
 * of the probe, so the phase alone could not stop it.
 */
static int read_xor(void *ts, struct fast_file *f, uint64_t off, size_t len,
		    uint32_t *xor, size_t *done)
{
	struct read_thread *t = ts;
	uint64_t start = off, end = off + len;
	size_t n;

	for (; off < end; off += n) {
		n = end - off < t->block ? (size_t)(end - off) : t->block;
		if (fast_pread_full(t->fd, t->buf, n, off))
			return -1;
		*xor ^= xor32(t->buf, n, off);
		if (f->deadline && off + n < end &&
		    (off + n - start) % FAST_ALIGN == 0 &&
		    now_ns() >= f->deadline) {
			*done = (size_t)(off + n - start);
			return 0;
		}
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
