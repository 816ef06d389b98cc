// SPDX-License-Identifier: GPL-2.0
/*
 * fast's direct engine, for files that are not in the page cache: each
 * thread keeps f->depth requests of f->request bytes in flight on an
 * O_DIRECT descriptor (Linux native AIO, io_submit(2), called directly:
 * libc has no wrapper and libaio is not needed for four system calls),
 * and XORs each buffer as it completes.  The disk sees threads x depth
 * requests at once, where a buffered reader has only the read-ahead
 * window in flight; the page cache is neither filled nor searched.
 *
 * Offsets and lengths are multiples of f->align (4096: every logical
 * block size in use, and the page, which O_DIRECT buffers must respect).
 * The last request is rounded up and comes back short at end of file;
 * a request short before the size at open (a file that shrank, or a
 * file system that returns less) is completed with plain pread(), which
 * reports EIO when the bytes are gone.
 */
#include "fast_method.h"
#include "xor32.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DIRECT_MAX_DEPTH 64

struct direct_thread {
	aio_context_t ctx;
	unsigned char *buf;		/* depth buffers of f->request */
	struct iocb cb[DIRECT_MAX_DEPTH];
	struct iocb *list[DIRECT_MAX_DEPTH];
	struct io_event ev[DIRECT_MAX_DEPTH];
	size_t want[DIRECT_MAX_DEPTH];	/* bytes of the file in slot i */
	unsigned int free[DIRECT_MAX_DEPTH], nfree;
};

static int direct_open(struct fast_file *f)
{
	if (f->depth == 0 || f->depth > DIRECT_MAX_DEPTH ||
	    f->request % f->align) {
		errno = EINVAL;
		return -1;
	}
	f->dfd = open(f->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	return f->dfd < 0 ? -1 : 0;
}

static void direct_close(struct fast_file *f)
{
	if (f->dfd >= 0)
		close(f->dfd);
	f->dfd = -1;
}

/*
 * One contiguous share per thread, as fio's jobs: the queue drains only
 * at the end of a phase, and each thread is one sequential stream.  (32
 * MiB chunks from the shared counter, each drained at its end, read a
 * cold GiB at 1.5-1.7 GB/s where whole shares did 1.7-2.1, on the first
 * machine, interleaved; docs/io.md.)
 */
static size_t direct_chunk(const struct fast_file *f, uint64_t len)
{
	return fast_share(f, len, f->request);
}

static void *direct_start(struct fast_file *f)
{
	struct direct_thread *t = calloc(1, sizeof(*t));
	unsigned int i;

	if (!t)
		return NULL;
	/* depth x request bytes (16 MiB): huge pages, fast_buffer(). */
	t->buf = fast_buffer(f->request * f->depth);
	if (!t->buf) {
		free(t);
		return NULL;
	}
	if (syscall(SYS_io_setup, f->depth, &t->ctx)) {
		free(t->buf);
		free(t);
		return NULL;
	}
	for (i = 0; i < f->depth; i++)
		t->free[t->nfree++] = f->depth - 1 - i;
	return t;
}

static void direct_stop(void *ts)
{
	struct direct_thread *t = ts;

	syscall(SYS_io_destroy, t->ctx);
	free(t->buf);
	free(t);
}

/* Queue free slots for [*next, end) and submit them in one call. */
static int submit(struct direct_thread *t, struct fast_file *f,
		  uint64_t *next, uint64_t end)
{
	unsigned int n = 0, s;
	size_t len;
	long r;

	while (t->nfree && *next < end) {
		s = t->free[--t->nfree];
		len = end - *next < f->request ? (size_t)(end - *next) :
						  f->request;
		t->want[s] = len;
		t->cb[s] = (struct iocb){
			.aio_data = s,
			.aio_lio_opcode = IOCB_CMD_PREAD,
			.aio_fildes = (uint32_t)f->dfd,
			.aio_buf = (uint64_t)(uintptr_t)(t->buf + s * f->request),
			.aio_nbytes = (len + f->align - 1) / f->align * f->align,
			.aio_offset = (int64_t)*next,
		};
		t->list[n++] = &t->cb[s];
		*next += len;
	}
	for (s = 0; s < n; s += (unsigned int)r) {
		r = syscall(SYS_io_submit, t->ctx, (long)(n - s), t->list + s);
		if (r < 0 && errno == EINTR)
			r = 0;
		else if (r <= 0)
			return -1;
	}
	return 0;
}

/* XOR one completed request (finishing a short one); frees its slot. */
static int complete(struct direct_thread *t, struct fast_file *f,
		    const struct io_event *e, uint32_t *xor)
{
	unsigned int s = (unsigned int)e->data;
	unsigned char *buf = t->buf + s * f->request;
	uint64_t off = (uint64_t)t->cb[s].aio_offset;
	size_t got;

	if (e->res < 0) {
		errno = (int)-e->res;
		return -1;
	}
	got = (size_t)e->res;
	if (got < t->want[s] &&
	    fast_pread_full(f->fd, buf + got, t->want[s] - got, off + got))
		return -1;
	*xor ^= xor32(buf, t->want[s], off);
	t->free[t->nfree++] = s;
	return 0;
}

static int direct_xor(void *ts, struct fast_file *f, uint64_t off,
		      size_t len, uint32_t *xor)
{
	struct direct_thread *t = ts;
	uint64_t next = off, end = off + len;
	long n, i;

	while (next < end || t->nfree < f->depth) {
		if (submit(t, f, &next, end))
			return -1;
		n = syscall(SYS_io_getevents, t->ctx, 1L, (long)f->depth,
			    t->ev, NULL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		/*
		 * Each buffer goes back to the disk as soon as it is XORed,
		 * not after the whole batch: the queue stays full.
		 */
		for (i = 0; i < n; i++)
			if (complete(t, f, &t->ev[i], xor) ||
			    (i + 1 < n && submit(t, f, &next, end)))
				return -1;
	}
	return 0;
}

const struct fast_engine fast_engine_direct = {
	.name = "direct",
	.method = FAST_DIRECT,
	.open = direct_open,
	.close = direct_close,
	.chunk = direct_chunk,
	.thread_start = direct_start,
	.xor_chunk = direct_xor,
	.thread_stop = direct_stop,
};
