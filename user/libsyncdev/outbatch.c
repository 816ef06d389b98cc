// SPDX-License-Identifier: GPL-2.0
/*
 * The writes of small unnamed files, and their closes after the links,
 * handed to io_uring many per system call where that is faster here
 * (outfile.h, "outbatch").
 *
 * Creating files through io_uring (IORING_OP_OPENAT with O_CREAT or
 * O_TMPFILE, IORING_OP_RENAMEAT) took twice as long as the plain calls in
 * the TCG guests on 6.1 and 7.2: the kernel hands those to its io-wq
 * workers, a wake-up each.  So files are created with openat() and linked
 * with linkat(); only their writes and closes may be queued.  Alone in
 * a guest, a thousand writes and closes in batches of 64 took 0.75 of the
 * plain calls' time on 6.1, but in a transfer, where the master keeps the
 * other CPU busy, the slave took twice as long with them (the kernel
 * hands a write to tmpfs to an io-wq worker too, whose CPU the master
 * needed): docs/results.md, "Many files".  A trial inside a transfer,
 * timing its own calls, cannot see the time taken from the master.  So
 * the plain calls are the default, and the batches are taken on request:
 * SYNCDEV_URING=1 (where a ring can be had; else the plain calls).
 *
 * A file's bytes gather in an arena as they arrive and its write is
 * queued at its close; the queue goes out when it or the arena is full
 * and before the commit, whose flush (syncfs) must find every byte
 * written.  A failed write is recorded in the file's entry (outset.c)
 * and fails the commit from that file on, as a failed rename does.
 */
#include "outfile.h"
#include "uring.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Entries per io_uring_enter, and the bytes their writes may gather. */
#define BATCH_DEPTH	64u
#define BATCH_ARENA	(1u << 20)
#define TAG_CLOSE	UINT64_MAX

enum way { UNTRIED, RING, PLAIN };

static struct {
	enum way way;
	struct uring r;
	unsigned char *arena;
	size_t used;
	/* The queued writes, by tag: whose, and how many bytes. */
	struct outpend *pend[BATCH_DEPTH];
	size_t len[BATCH_DEPTH];
	unsigned int nwrites;
} ob;

/* The way of this process, from SYNCDEV_URING and what can be had. */
static enum way first_way(void)
{
	const char *env = getenv("SYNCDEV_URING");

	if (!env || strcmp(env, "1"))
		return PLAIN;
	ob.arena = malloc(BATCH_ARENA);
	if (ob.arena && uring_init(&ob.r, BATCH_DEPTH) == 0)
		return RING;
	free(ob.arena);
	ob.arena = NULL;
	return PLAIN;
}

/* The results of a batch into the writes' entries. */
static void record(const struct uring_done *d, int n)
{
	uint64_t t;
	int i;

	for (i = 0; i < n; i++) {
		t = d[i].tag;
		if (t == TAG_CLOSE || t >= ob.nwrites)
			continue;
		if (d[i].res < 0)
			outpend_set_failed(ob.pend[t], -d[i].res);
		else if ((size_t)d[i].res != ob.len[t])
			outpend_set_failed(ob.pend[t], ENOSPC);
	}
}

void outbatch_flush(void)
{
	struct uring_done d[BATCH_DEPTH];
	unsigned int i;
	int n;

	if (ob.way != RING || !ob.r.queued) {
		ob.used = 0;
		return;
	}
	n = uring_submit_wait(&ob.r, d, BATCH_DEPTH);
	if (n < 0) {
		/* Nothing known of them: every write failed, no more batches. */
		for (i = 0; i < ob.nwrites; i++)
			outpend_set_failed(ob.pend[i], errno);
		uring_free(&ob.r);
		ob.way = PLAIN;
	} else {
		record(d, n);
	}
	ob.nwrites = 0;
	ob.used = 0;
}

unsigned char *outbatch_reserve(uint64_t size)
{
	unsigned char *p;

	if (ob.way == UNTRIED)
		ob.way = first_way();
	if (!size || size > OUTBATCH_FILE_MAX || ob.way == PLAIN)
		return NULL;
	if (ob.used + size > BATCH_ARENA || ob.nwrites == BATCH_DEPTH)
		outbatch_flush();
	if (ob.way == PLAIN)
		return NULL;
	p = ob.arena + ob.used;
	ob.used += (size_t)size;
	return p;
}

void outbatch_write(int fd, const unsigned char *data, size_t n,
		    struct outpend *p)
{
	struct io_uring_sqe *s = NULL;

	/* Room was made at its reserve: the arena is not reused under it. */
	if (ob.way == RING && ob.nwrites < BATCH_DEPTH)
		s = uring_sqe(&ob.r);
	if (!s) {
		/* The ring failed since: this one alone. */
		if (write_full(fd, data, n) < 0)
			outpend_set_failed(p, errno);
		return;
	}
	s->opcode = IORING_OP_WRITE;
	s->fd = fd;
	s->addr = (uint64_t)(uintptr_t)data;
	s->len = (uint32_t)n;
	s->off = 0;
	s->user_data = ob.nwrites;
	ob.pend[ob.nwrites] = p;
	ob.len[ob.nwrites++] = n;
}

void outbatch_close(int fd)
{
	struct io_uring_sqe *s = NULL;

	if (ob.way == RING) {
		s = uring_sqe(&ob.r);
		if (!s) {
			outbatch_flush();
			s = ob.way == RING ? uring_sqe(&ob.r) : NULL;
		}
	}
	if (!s) {
		close(fd);
		return;
	}
	s->opcode = IORING_OP_CLOSE;
	s->fd = fd;
	s->user_data = TAG_CLOSE;
}
