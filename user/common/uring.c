// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring through its system calls (uring.h).  This process is the only
 * producer of submissions and consumer of completions, so the only
 * ordering needed is the kernel's: the submission tail is published with
 * a release store after the entry is written, the completion tail read
 * with an acquire load before the entries are.
 */
#include "uring.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *at(void *base, uint32_t off)
{
	return (unsigned char *)base + off;
}

/* The two mappings of the ring, per the offsets in p: 0 or -1. */
static int map_rings(struct uring *r, const struct io_uring_params *p)
{
	size_t sq_len = p->sq_off.array + p->sq_entries * sizeof(unsigned int);
	size_t cq_len = p->cq_off.cqes +
			p->cq_entries * sizeof(struct io_uring_cqe);

	r->rings_len = sq_len > cq_len ? sq_len : cq_len;
	r->sqes_len = p->sq_entries * sizeof(struct io_uring_sqe);
	r->rings = mmap(NULL, r->rings_len, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	if (r->rings == MAP_FAILED)
		return -1;
	r->sqes = mmap(NULL, r->sqes_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED) {
		munmap(r->rings, r->rings_len);
		return -1;
	}
	r->sq_tail = at(r->rings, p->sq_off.tail);
	r->sq_array = at(r->rings, p->sq_off.array);
	r->sq_mask = *(unsigned int *)at(r->rings, p->sq_off.ring_mask);
	r->cq_head = at(r->rings, p->cq_off.head);
	r->cq_tail = at(r->rings, p->cq_off.tail);
	r->cq_mask = *(unsigned int *)at(r->rings, p->cq_off.ring_mask);
	r->cqes = at(r->rings, p->cq_off.cqes);
	r->entries = p->sq_entries;
	return 0;
}

int uring_init(struct uring *r, unsigned int entries)
{
	struct io_uring_params p;
	int err;

	memset(r, 0, sizeof(*r));
	memset(&p, 0, sizeof(p));
	r->fd = (int)syscall(__NR_io_uring_setup, entries, &p);
	if (r->fd < 0)
		return -1;
	/*
	 * SINGLE_MMAP (5.4); NODROP (5.5): no completion lost to a full
	 * queue; RW_CUR_POS came with IORING_OP_WRITE and CLOSE (5.6).
	 */
	if ((p.features & IORING_FEAT_SINGLE_MMAP) &&
	    (p.features & IORING_FEAT_NODROP) &&
	    (p.features & IORING_FEAT_RW_CUR_POS) && map_rings(r, &p) == 0)
		return 0;
	err = (p.features & IORING_FEAT_RW_CUR_POS) ? errno : ENOSYS;
	close(r->fd);
	r->fd = -1;
	errno = err;
	return -1;
}

struct io_uring_sqe *uring_sqe(struct uring *r)
{
	unsigned int tail = *r->sq_tail, i = tail & r->sq_mask;
	struct io_uring_sqe *s;

	if (r->queued == r->entries)
		return NULL;
	s = &r->sqes[i];
	memset(s, 0, sizeof(*s));
	r->sq_array[i] = i;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	r->queued++;
	return s;
}

/* The completions the ring holds into done[*n .. max): how many there were. */
static unsigned int reap(struct uring *r, struct uring_done *done,
			 unsigned int *n, unsigned int max)
{
	unsigned int head = *r->cq_head, seen = 0;
	unsigned int tail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);

	for (; head != tail; head++, seen++) {
		const struct io_uring_cqe *c = &r->cqes[head & r->cq_mask];

		if (*n < max)
			done[(*n)++] = (struct uring_done){ .tag = c->user_data,
							    .res = c->res };
	}
	__atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
	return seen;
}

int uring_submit_wait(struct uring *r, struct uring_done *done,
		      unsigned int max)
{
	unsigned int want = r->queued, sent = 0, seen = 0, n = 0;
	long k;

	while (seen < want) {
		k = syscall(__NR_io_uring_enter, r->fd, want - sent,
			    want - seen, IORING_ENTER_GETEVENTS, NULL, 0);
		if (k < 0 && errno != EINTR)
			return -1;
		if (k > 0)
			sent += (unsigned int)k;
		seen += reap(r, done, &n, max);
		if (k == 0 && sent < want) {
			errno = EAGAIN;
			return -1;
		}
	}
	r->queued = 0;
	return (int)n;
}

void uring_free(struct uring *r)
{
	if (r->fd < 0)
		return;
	munmap(r->sqes, r->sqes_len);
	munmap(r->rings, r->rings_len);
	close(r->fd);
	r->fd = -1;
}
