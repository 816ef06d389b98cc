/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small io_uring through its system calls (libc has no wrappers, and
 * liburing is not needed for a handful of calls): one ring whose two
 * queues share a mapping, filled by the caller and handed over with one
 * io_uring_enter that waits for every entry.  Linux 5.6 or later
 * (IORING_OP_WRITE, IORING_OP_CLOSE); uring_init fails with errno where
 * io_uring is refused (seccomp: EPERM or ENOSYS; kernel.io_uring_disabled)
 * or too old, and the caller keeps its plain system calls.
 *
 *	struct uring r;
 *	struct io_uring_sqe *s;
 *	struct uring_done d[64];
 *
 *	if (uring_init(&r, 64) == 0) {
 *		s = uring_sqe(&r);	// zeroed; NULL when the queue is full
 *		s->opcode = IORING_OP_WRITE;
 *		...
 *		n = uring_submit_wait(&r, d, 64);	// d[i].tag, d[i].res
 *		uring_free(&r);
 *	}
 */
#ifndef SYNCDEV_URING_H
#define SYNCDEV_URING_H

#include <linux/io_uring.h>
#include <stddef.h>
#include <stdint.h>

struct uring {
	int fd;
	unsigned int entries;	/* submission queue size */
	unsigned int queued;	/* entries filled since the last submit */
	void *rings;
	size_t rings_len;
	struct io_uring_sqe *sqes;
	size_t sqes_len;
	unsigned int *sq_tail, *sq_array, sq_mask;
	unsigned int *cq_head, *cq_tail, cq_mask;
	struct io_uring_cqe *cqes;
};

/* One entry's result: its user_data and res (a count, or -errno). */
struct uring_done {
	uint64_t tag;
	int32_t res;
};

/* A ring of at least entries submissions: 0, or -1 with errno. */
int uring_init(struct uring *r, unsigned int entries);
/* The next submission entry, zeroed; NULL when the queue is full. */
struct io_uring_sqe *uring_sqe(struct uring *r);
/*
 * Hand every queued entry to the kernel and wait until each completed;
 * their results into done (at most max, in completion order, the rest
 * dropped).  The number of results, or -1 with errno: then entries may
 * still be in flight, and only uring_free may follow.
 */
int uring_submit_wait(struct uring *r, struct uring_done *done,
		      unsigned int max);
void uring_free(struct uring *r);

#endif
