// SPDX-License-Identifier: GPL-2.0
/*
 * Asynchronous reads through io_uring or Linux AIO (readq.h says why
 * both, and why io_uring first).
 *
 * The io_uring side is the smallest use of the interface: one ring whose
 * submission and completion queues share a mapping (IORING_FEAT_SINGLE_MMAP,
 * Linux 5.4), IORING_OP_READ (Linux 5.6; IORING_FEAT_RW_CUR_POS came with
 * it and tells it is there), no polling thread.  This process is the only
 * producer of submissions and consumer of completions, so the only
 * ordering needed is the kernel's: the submission tail is published with
 * a release store after the entry is written, and the completion tail is
 * read with an acquire load before the entries are.
 */
#include "readq.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const kind_names[] = {
	[READQ_ANY] = "any",
	[READQ_URING] = "io_uring",
	[READQ_AIO] = "aio",
};

int readq_kind_parse(const char *name)
{
	int k;

	for (k = READQ_ANY; k <= READQ_AIO; k++)
		if (!strcmp(name, kind_names[k]))
			return k;
	return -1;
}

const char *readq_kind_name(enum readq_kind k)
{
	return (unsigned int)k <= READQ_AIO ? kind_names[k] : "?";
}

static void *at(void *base, uint32_t off)
{
	return (unsigned char *)base + off;
}

static int uring_init(struct readq *q)
{
	struct io_uring_params p = { 0 };
	size_t sq_len, cq_len;
	int fd, err;

	fd = (int)syscall(__NR_io_uring_setup, q->depth, &p);
	if (fd < 0)
		return -1;
	if (!(p.features & IORING_FEAT_SINGLE_MMAP) ||
	    !(p.features & IORING_FEAT_RW_CUR_POS)) {
		close(fd);
		errno = ENOSYS;
		return -1;
	}
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	q->rings_len = sq_len > cq_len ? sq_len : cq_len;
	q->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	/* Populated: a page fault costs ~10 us under bhyve. */
	q->rings = mmap(NULL, q->rings_len, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
	if (q->rings == MAP_FAILED)
		goto fail;
	q->sqes = mmap(NULL, q->sqes_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (q->sqes == MAP_FAILED) {
		munmap(q->rings, q->rings_len);
		goto fail;
	}
	q->sq_tail = at(q->rings, p.sq_off.tail);
	q->sq_array = at(q->rings, p.sq_off.array);
	q->sq_mask = *(unsigned int *)at(q->rings, p.sq_off.ring_mask);
	q->cq_head = at(q->rings, p.cq_off.head);
	q->cq_tail = at(q->rings, p.cq_off.tail);
	q->cq_mask = *(unsigned int *)at(q->rings, p.cq_off.ring_mask);
	q->cqes = at(q->rings, p.cq_off.cqes);
	q->ring = fd;
	return 0;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

static int aio_init(struct readq *q)
{
	q->ctx = 0;
	q->cb = calloc(q->depth, sizeof(*q->cb));
	q->list = calloc(q->depth, sizeof(*q->list));
	q->ev = calloc(q->depth, sizeof(*q->ev));
	if (q->cb && q->list && q->ev &&
	    syscall(__NR_io_setup, q->depth, &q->ctx) == 0)
		return 0;
	if (!q->cb || !q->list || !q->ev)
		errno = ENOMEM;
	free(q->cb);
	free(q->list);
	free(q->ev);
	return -1;
}

int readq_init(struct readq *q, unsigned int depth, enum readq_kind want)
{
	*q = (struct readq){ .depth = depth, .ring = -1 };
	if (depth == 0) {
		errno = EINVAL;
		return -1;
	}
	if (want != READQ_AIO) {
		q->kind = READQ_URING;
		if (uring_init(q) == 0)
			return 0;
		if (want == READQ_URING)
			return -1;
	}
	q->kind = READQ_AIO;
	return aio_init(q);
}

int readq_resolve(enum readq_kind want)
{
	struct readq q;

	/* Making an AIO context to look would cost its teardown. */
	if (want == READQ_AIO)
		return READQ_AIO;
	if (readq_init(&q, 1, want))
		return -1;
	readq_free(&q);
	return (int)q.kind;
}

void readq_add(struct readq *q, int fd, void *buf, size_t len, uint64_t off,
	       uint64_t tag)
{
	if (q->kind == READQ_URING) {
		unsigned int tail = *q->sq_tail, i = tail & q->sq_mask;

		q->sqes[i] = (struct io_uring_sqe){
			.opcode = IORING_OP_READ,
			.fd = fd,
			.addr = (uint64_t)(uintptr_t)buf,
			.len = (uint32_t)len,
			.off = off,
			.user_data = tag,
		};
		q->sq_array[i] = i;
		__atomic_store_n(q->sq_tail, tail + 1, __ATOMIC_RELEASE);
	} else {
		q->cb[q->queued] = (struct iocb){
			.aio_data = tag,
			.aio_lio_opcode = IOCB_CMD_PREAD,
			.aio_fildes = (uint32_t)fd,
			.aio_buf = (uint64_t)(uintptr_t)buf,
			.aio_nbytes = len,
			.aio_offset = (int64_t)off,
		};
		q->list[q->queued] = &q->cb[q->queued];
	}
	q->queued++;
}

int readq_submit(struct readq *q)
{
	unsigned int done = 0;
	long r;

	while (done < q->queued) {
		if (q->kind == READQ_URING)
			r = syscall(__NR_io_uring_enter, q->ring,
				    q->queued - done, 0, 0, NULL, 0);
		else
			r = syscall(__NR_io_submit, q->ctx,
				    (long)(q->queued - done), q->list + done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = EAGAIN;
			break;
		}
		done += (unsigned int)r;
		q->inflight += (unsigned int)r;
	}
	/*
	 * What was not taken is dropped (the caller fails): an io_uring
	 * entry left in the queue would go with the next submission.
	 */
	if (done < q->queued && q->kind == READQ_URING)
		__atomic_store_n(q->sq_tail, *q->sq_tail - (q->queued - done),
				 __ATOMIC_RELEASE);
	r = done < q->queued ? -1 : 0;
	q->queued = 0;
	return (int)r;
}

/* The completions the ring holds now, at most max. */
static unsigned int uring_reap(struct readq *q, struct readq_done *d,
			       unsigned int max)
{
	unsigned int head = *q->cq_head, n = 0;
	unsigned int tail = __atomic_load_n(q->cq_tail, __ATOMIC_ACQUIRE);

	for (; head != tail && n < max; head++, n++) {
		const struct io_uring_cqe *c = &q->cqes[head & q->cq_mask];

		d[n] = (struct readq_done){ .tag = c->user_data,
					    .res = c->res };
	}
	__atomic_store_n(q->cq_head, head, __ATOMIC_RELEASE);
	return n;
}

int readq_wait(struct readq *q, unsigned int min, struct readq_done *done,
	       unsigned int max)
{
	unsigned int n = 0, i;
	long r;

	if (max > q->inflight)
		max = q->inflight;
	if (max == 0)
		return 0;
	if (min == 0)
		min = 1;
	if (min > max)
		min = max;
	while (n < min) {
		if (q->kind == READQ_URING) {
			n += uring_reap(q, done + n, max - n);
			if (n >= min)
				break;
			r = syscall(__NR_io_uring_enter, q->ring, 0, min - n,
				    IORING_ENTER_GETEVENTS, NULL, 0);
		} else {
			r = syscall(__NR_io_getevents, q->ctx, (long)(min - n),
				    (long)(max - n), q->ev, NULL);
			for (i = 0; r > 0 && i < (unsigned int)r; i++)
				done[n + i] = (struct readq_done){
					.tag = q->ev[i].data,
					.res = q->ev[i].res };
			if (r > 0)
				n += (unsigned int)r;
		}
		if (r < 0 && errno != EINTR) {
			if (n)
				break;
			return -1;
		}
	}
	q->inflight -= n;
	return (int)n;
}

int readq_drain(struct readq *q)
{
	struct readq_done d[16];
	int n, all = 0;

	while (q->inflight) {
		n = readq_wait(q, q->inflight, d, 16);
		if (n < 0)
			return -1;
		all += n;
	}
	return all;
}

void readq_free(struct readq *q)
{
	/*
	 * The kernel may still write into the callers' buffers.  (AIO's
	 * io_destroy would wait by itself; io_uring's close would not.)
	 */
	readq_drain(q);
	if (q->kind == READQ_URING) {
		munmap(q->sqes, q->sqes_len);
		munmap(q->rings, q->rings_len);
		close(q->ring);
		q->ring = -1;
	} else {
		syscall(__NR_io_destroy, q->ctx);
		free(q->cb);
		free(q->list);
		free(q->ev);
	}
	q->inflight = 0;
}
