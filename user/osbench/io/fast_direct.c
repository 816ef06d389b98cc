// SPDX-License-Identifier: GPL-2.0
/*
 * fast's direct engine, for files that are not in the page cache: each
 * thread keeps f->depth requests of f->request bytes in flight on an
 * O_DIRECT descriptor (readq.h: io_uring, or Linux native AIO where
 * io_uring is refused), and XORs each buffer as it completes.  The disk sees threads x depth
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
#include "readq.h"
#include "xor32.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DIRECT_MAX_DEPTH 64

struct direct_thread {
	struct readq q;
	unsigned char *buf;		/* depth buffers of f->request */
	struct readq_done done[DIRECT_MAX_DEPTH];
	uint64_t off[DIRECT_MAX_DEPTH];	/* where slot i reads */
	size_t want[DIRECT_MAX_DEPTH];	/* bytes of the file in slot i */
	unsigned int free[DIRECT_MAX_DEPTH], nfree;
};

static int direct_open(struct fast_file *f)
{
	int kind;

	if (f->depth == 0 || f->depth > DIRECT_MAX_DEPTH ||
	    f->request % f->align) {
		errno = EINVAL;
		return -1;
	}
	/* Once for all threads, so that stderr can say which. */
	kind = readq_resolve((enum readq_kind)f->queue);
	if (kind < 0)
		return -1;
	f->queue = kind;
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
 * at the end of a phase, and each thread is one sequential stream: 32 MiB
 * chunks from the shared counter, each drained at its end, read a cold
 * GiB slower (docs/io.md, "Design choices and the alternatives
 * measured", 4).
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
	if (readq_init(&t->q, f->depth, (enum readq_kind)f->queue)) {
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

	readq_free(&t->q);	/* first: reads in flight fill t->buf */
	free(t->buf);
	free(t);
}

/* Queue free slots for [*next, end) and submit them in one call. */
static int submit(struct direct_thread *t, struct fast_file *f,
		  uint64_t *next, uint64_t end)
{
	unsigned int s, n = 0;
	size_t len;

	while (t->nfree && *next < end) {
		s = t->free[--t->nfree];
		len = end - *next < f->request ? (size_t)(end - *next) :
						  f->request;
		t->want[s] = len;
		t->off[s] = *next;
		readq_add(&t->q, f->dfd, t->buf + s * f->request,
			  (len + f->align - 1) / f->align * f->align, *next, s);
		*next += len;
		n++;
	}
	return n ? readq_submit(&t->q) : 0;
}

/* XOR one completed request (finishing a short one); frees its slot. */
static int complete(struct direct_thread *t, struct fast_file *f,
		    const struct readq_done *d, uint32_t *xor)
{
	unsigned int s = (unsigned int)d->tag;
	unsigned char *buf = t->buf + s * f->request;
	size_t got;

	if (d->res < 0) {
		errno = (int)-d->res;
		return -1;
	}
	got = (size_t)d->res;
	if (got < t->want[s] &&
	    fast_pread_full(f->fd, buf + got, t->want[s] - got,
			    t->off[s] + got))
		return -1;
	*xor ^= xor32(buf, t->want[s], t->off[s]);
	t->free[t->nfree++] = s;
	return 0;
}

static int direct_xor(void *ts, struct fast_file *f, uint64_t off,
		      size_t len, uint32_t *xor, size_t *done)
{
	struct direct_thread *t = ts;
	uint64_t next = off, end = off + len;
	int n, i;

	(void)done;	/* probed first, never cut short (fast_choose.c) */
	while (next < end || t->nfree < f->depth) {
		if (submit(t, f, &next, end))
			return -1;
		n = readq_wait(&t->q, 1, t->done, f->depth);
		if (n < 0)
			return -1;
		/*
		 * Each buffer goes back to the disk as soon as it is XORed,
		 * not after the whole batch: the queue stays full.
		 */
		for (i = 0; i < n; i++)
			if (complete(t, f, &t->done[i], xor) ||
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
