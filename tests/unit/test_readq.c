// SPDX-License-Identifier: GPL-2.0
/*
 * The asynchronous read queue of fast's direct engine
 * (user/osbench/io/readq.c), both kinds where the kernel allows them:
 * every read comes back once with its tag and its bytes, a read that
 * crosses the end of the file comes back short, one past it empty, and
 * a drain waits for every read still in flight (as freeing does: their
 * buffers are in use until then).
 */
#include "check.h"
#include "readq.h"
#include "tmpdir.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BLK 4096
#define NREADS 4
#define FILE_SIZE (3 * BLK + 100)

static unsigned char content[FILE_SIZE];

/* tmpdir.h's file, opened, and its bytes in content (plain read()). */
static int make_content(const char *name)
{
	int fd;

	make_file(name, FILE_SIZE, 11);
	fd = open(path(name), O_RDONLY);
	if (fd >= 0 && read(fd, content, FILE_SIZE) != FILE_SIZE) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Slot i holds [i * BLK, i * BLK + len) of the file as read. */
static bool slot_ok(const unsigned char *buf, unsigned int i, int64_t len)
{
	size_t off = (size_t)i * BLK;
	int64_t want = off >= FILE_SIZE ? 0 :
		       FILE_SIZE - off < BLK ? (int64_t)(FILE_SIZE - off) : BLK;

	return len == want && !memcmp(buf + off, content + off, (size_t)len);
}

/* Drained with every read in flight: it waits for all of them. */
static void test_drain(struct readq *q, const char *name, unsigned char *buf,
		       int fd, int dfd)
{
	unsigned int i;

	memset(buf, 0, (NREADS + 1) * BLK);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	for (i = 0; i < NREADS; i++)
		readq_add(q, dfd, buf + i * BLK, BLK, (uint64_t)i * BLK, i);
	CHECK(readq_submit(q) == 0, "%s: submitted again", name);
	CHECK(readq_drain(q) == NREADS && q->inflight == 0,
	      "%s: drain waits for every read in flight", name);
	for (i = 0; i < NREADS; i++)
		if (!slot_ok(buf, i, i + 1 < NREADS ? BLK : FILE_SIZE - i * BLK))
			break;
	CHECK(i == NREADS, "%s: after the drain the buffers hold the file",
	      name);
	readq_add(q, fd, buf, BLK, 0, 0);
	CHECK(readq_submit(q) == 0, "%s: one more in flight", name);
	readq_free(q);
}

static void test_kind(enum readq_kind kind, int fd, int dfd)
{
	const char *name = readq_kind_name(kind);
	/* O_DIRECT (when dfd is) wants aligned buffers. */
	unsigned char *buf = aligned_alloc(BLK, (NREADS + 1) * BLK);
	struct readq_done d[NREADS + 1];
	unsigned int seen = 0, i;
	struct readq q;
	int n, got = 0;

	if (!buf || readq_init(&q, NREADS + 1, kind)) {
		CHECK(0, "%s: a queue of %d", name, NREADS + 1);
		free(buf);
		return;
	}
	CHECK(q.kind == kind, "%s: the queue is of the kind asked", name);
	CHECK(readq_wait(&q, 1, d, NREADS) == 0,
	      "%s: nothing in flight, nothing to wait for", name);
	/* Four blocks and one past the end, tagged 100 + block. */
	for (i = 0; i <= NREADS; i++)
		readq_add(&q, fd, buf + i * BLK, BLK, (uint64_t)i * BLK,
			  100 + i);
	CHECK(readq_submit(&q) == 0 && q.inflight == NREADS + 1,
	      "%s: five reads submitted in one call", name);
	while (got <= NREADS) {
		n = readq_wait(&q, 1, d, NREADS + 1);
		if (n <= 0)
			break;
		for (i = 0; i < (unsigned int)n; i++) {
			unsigned int b = (unsigned int)(d[i].tag - 100);

			if (b <= NREADS && !(seen & 1u << b) &&
			    slot_ok(buf, b, d[i].res))
				seen |= 1u << b;
		}
		got += n;
	}
	CHECK(got == NREADS + 1 && seen == (1u << (NREADS + 1)) - 1,
	      "%s: each read once, by its tag: whole blocks, a short one at the end, none past it",
	      name);
	CHECK(q.inflight == 0, "%s: none left in flight", name);
	test_drain(&q, name, buf, fd, dfd);
	free(buf);
}


/* One byte into the pipe at a time, a pause before each. */
static void *trickle(void *arg)
{
	const struct timespec pause = { .tv_nsec = 20 * 1000 * 1000 };
	int fd = *(int *)arg, i;

	for (i = 0; i < NREADS; i++) {
		nanosleep(&pause, NULL);
		if (write(fd, "x", 1) != 1)
			break;
	}
	return NULL;
}

/*
 * io_uring reads a pipe (AIO cannot): reads that stay in flight until a
 * writer comes, one by one, so a drain that stopped at the first would
 * be seen.  The pauses only spread the completions; nothing is timed.
 */
static void test_drain_pipe(void)
{
	unsigned char b[NREADS];
	struct readq q;
	pthread_t tid;
	int p[2], i, n = -1;

	if (pipe(p) || readq_init(&q, NREADS, READQ_URING)) {
		CHECK(0, "io_uring: a pipe and a queue");
		return;
	}
	for (i = 0; i < NREADS; i++)
		readq_add(&q, p[0], &b[i], 1, (uint64_t)-1, (uint64_t)i);
	if (readq_submit(&q) == 0 && !pthread_create(&tid, NULL, trickle, &p[1])) {
		n = readq_drain(&q);
		pthread_join(tid, NULL);
	}
	CHECK(n == NREADS && q.inflight == 0,
	      "io_uring: drain waits for reads that finish one by one (%d of %d)",
	      n, NREADS);
	readq_free(&q);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	struct readq q;
	int fd, dfd, k;

	for (k = READQ_ANY; k <= READQ_AIO; k++)
		CHECK(readq_kind_parse(readq_kind_name(k)) == k,
		      "kind name '%s' parses back", readq_kind_name(k));
	CHECK(readq_kind_parse("libaio") == -1, "unknown kind refused");
	errno = 0;
	CHECK(readq_init(&q, 0, READQ_ANY) == -1 && errno == EINVAL,
	      "a queue of no reads is EINVAL");
	CHECK(readq_resolve(READQ_AIO) == READQ_AIO,
	      "aio resolves to itself without making a context");
	k = readq_resolve(READQ_ANY);
	CHECK(k == READQ_URING || k == READQ_AIO,
	      "any resolves to io_uring or aio (here: %s)",
	      k < 0 ? "none" : readq_kind_name(k));

	tmpdir_make();
	fd = make_content("f");
	CHECK(fd >= 0, "test file written");
	if (fd >= 0) {
		fsync(fd);
		dfd = open(path("f"), O_RDONLY | O_DIRECT);
		if (dfd < 0)
			printf("no O_DIRECT in %s (%s): the drain is checked on cached reads\n",
			       dir, strerror(errno));
		if (readq_resolve(READQ_URING) == READQ_URING) {
			test_kind(READQ_URING, fd, dfd >= 0 ? dfd : fd);
			test_drain_pipe();
		} else
			printf("io_uring refused here (%s): its checks not run\n",
			       strerror(errno));
		test_kind(READQ_AIO, fd, dfd >= 0 ? dfd : fd);
		if (dfd >= 0)
			close(dfd);
		close(fd);
	}
	tmpdir_remove();
	return check_done();
}
