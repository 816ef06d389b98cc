/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A queue of asynchronous reads, for fast's direct engine: io_uring, or
 * Linux native AIO where io_uring is refused (a container's seccomp
 * profile, kernel.io_uring_disabled) or missing.  Both through their
 * system calls: libc has no wrappers, and liburing or libaio are not
 * needed for a handful of calls.
 *
 * io_uring first because of how each one ends: an AIO context is torn
 * down (io_destroy, or the process's exit) only after RCU grace periods,
 * a good part of a cold GiB's time; closing a ring hands its teardown to
 * a kernel worker and returns (docs/io.md, "Design choices and the
 * alternatives measured", 3).
 *
 *	struct readq q;
 *	struct readq_done d[16];
 *
 *	if (readq_init(&q, 16, READQ_ANY))
 *		return -1;
 *	readq_add(&q, fd, buf, len, off, tag);	// at most 16 outstanding
 *	if (readq_submit(&q) == 0)
 *		n = readq_wait(&q, 1, d, 16);	// d[i].tag, d[i].res
 *	readq_free(&q);		// after the reads still in flight end
 */
#ifndef OSBENCH_READQ_H
#define OSBENCH_READQ_H

#include <linux/aio_abi.h>
#include <linux/io_uring.h>
#include <stddef.h>
#include <stdint.h>

enum readq_kind {
	READQ_ANY,	/* io_uring, else AIO */
	READQ_URING,
	READQ_AIO,
};

/* "any", "io_uring", "aio"; -1 for an unknown name. */
int readq_kind_parse(const char *name);
const char *readq_kind_name(enum readq_kind k);

/*
 * The kind readq_init() would use for want on this system (READQ_ANY:
 * io_uring if a ring can be made, else AIO); -1 with errno when want
 * cannot be had.
 */
int readq_resolve(enum readq_kind want);

struct readq_done {
	uint64_t tag;	/* as given to readq_add() */
	int64_t res;	/* bytes read, or -errno */
};

struct readq {
	enum readq_kind kind;
	unsigned int depth;
	unsigned int queued;	/* added, not yet submitted */
	unsigned int inflight;	/* submitted, not yet reaped */
	/* io_uring: the ring, its mapping (both queues) and its entries */
	int ring;
	void *rings;
	size_t rings_len;
	struct io_uring_sqe *sqes;
	size_t sqes_len;
	unsigned int *sq_tail, *sq_array, sq_mask;
	unsigned int *cq_head, *cq_tail, cq_mask;
	struct io_uring_cqe *cqes;
	/* AIO: the context, and depth control blocks and events */
	aio_context_t ctx;
	struct iocb *cb;
	struct iocb **list;
	struct io_event *ev;
};

/* A queue for up to depth reads at once, of kind want.  0 or -1, errno. */
int readq_init(struct readq *q, unsigned int depth, enum readq_kind want);
/*
 * Queue a read of len bytes at off into buf (what O_DIRECT asks of them
 * is the caller's); queued + inflight must stay within depth.
 */
void readq_add(struct readq *q, int fd, void *buf, size_t len, uint64_t off,
	       uint64_t tag);
/* Hand the queued reads to the kernel.  0, or -1 with errno. */
int readq_submit(struct readq *q);
/*
 * Reap finished reads into done, waiting until there are at least min
 * (at least one; fewer when fewer are in flight), at most max.  The
 * number reaped (0: none in flight), or -1 with errno.
 */
int readq_wait(struct readq *q, unsigned int min, struct readq_done *done,
	       unsigned int max);
/*
 * Wait for every read in flight, dropping their results: the number
 * waited for, or -1 with errno.
 */
int readq_drain(struct readq *q);
/* Drain (the reads in flight still fill their buffers), then free. */
void readq_free(struct readq *q);

#endif
