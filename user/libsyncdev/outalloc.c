// SPDX-License-Identifier: GPL-2.0
#include "outalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

/*
 * Allocation steps.  tmpfs gives up a fallocate() with EINTR on any
 * signal, even a stop/continue, and frees what that call allocated: one
 * call for the whole file, retried, never finished on a slow machine
 * whose slave was stopped and continued every 90 ms (tests/vm/80-stopcont
 * under the debug kernel).  A step is redone alone; the others stay.
 */
#define ALLOC_STEP (1u << 20)
/* Smaller files are allocated at once: a thread would cost more. */
#define AHEAD_MIN (4 * (uint64_t)ALLOC_STEP)
/*
 * How far the thread runs ahead of the piece being copied (or to that
 * piece's end, if further): pages zeroed much earlier
 * than they are copied into have left the caches by then (one thread
 * populating a whole 64 MiB file before the copy made a slave 10 %
 * slower than populating each piece just before its copy).
 */
#define AHEAD_WINDOW (4 * (uint64_t)ALLOC_STEP)

/*
 * Map [off, off + n) for writing now.  Only a head start for the copy,
 * which faults in what is not mapped yet: EINVAL before Linux 5.14 is no
 * error.
 */
static void populate(struct outalloc *a, uint64_t off, uint64_t n)
{
	uint64_t start = off & ~(uint64_t)4095;

	madvise(a->map + start, (size_t)(off + n - start),
		MADV_POPULATE_WRITE);
}

/* Allocate the step at off: 0 or an errno value. */
static int alloc_step(struct outalloc *a, uint64_t off, uint64_t n)
{
	int err;

	do
		err = posix_fallocate(a->fd, (off_t)off, (off_t)n);
	while (err == EINTR);
	return err;
}

static uint64_t step_at(const struct outalloc *a, uint64_t off)
{
	return a->size - off < ALLOC_STEP ? a->size - off : ALLOC_STEP;
}

static void *alloc_ahead(void *arg)
{
	struct outalloc *a = arg;
	uint64_t off, n;
	int err = 0;
	bool stop = false;

	for (off = 0; off < a->size && !err && !stop; off += n) {
		pthread_mutex_lock(&a->lock);
		while (off >= a->copied + AHEAD_WINDOW && off >= a->wanted &&
		       !a->stop)
			pthread_cond_wait(&a->room, &a->lock);
		stop = a->stop;
		pthread_mutex_unlock(&a->lock);
		if (stop)
			break;
		n = step_at(a, off);
		err = alloc_step(a, off, n);
		if (!err)
			populate(a, off, n);
		pthread_mutex_lock(&a->lock);
		if (err)
			a->err = err;
		else
			a->ready = off + n;
		pthread_cond_signal(&a->cond);
		pthread_mutex_unlock(&a->lock);
	}
	return NULL;
}

static void destroy(struct outalloc *a)
{
	pthread_cond_destroy(&a->room);
	pthread_cond_destroy(&a->cond);
	pthread_mutex_destroy(&a->lock);
}

/* Start alloc_ahead with every signal blocked: they are the program's. */
static bool start_thread(struct outalloc *a)
{
	sigset_t all, old;
	bool ok;

	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->cond, NULL);
	pthread_cond_init(&a->room, NULL);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ok = pthread_create(&a->thread, NULL, alloc_ahead, a) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!ok)
		destroy(a);
	return ok;
}

/*
 * A thread for a file of AHEAD_MIN or more, with a second CPU (on one it
 * made the slave 10 % slower) or when SYNCDEV_ALLOC_AHEAD says so: 1
 * always, 0 never (the tests run the thread in one-CPU guests).
 */
static bool want_thread(uint64_t size)
{
	const char *force = getenv("SYNCDEV_ALLOC_AHEAD");

	if (size < AHEAD_MIN)
		return false;
	if (force && *force)
		return strcmp(force, "0") != 0;
	return sysconf(_SC_NPROCESSORS_ONLN) > 1;
}

int outalloc_room(int fd, uint64_t size)
{
	struct statvfs v;

	if (fstatvfs(fd, &v) || v.f_frsize == 0)
		return 0;	/* not known: the allocation will tell */
	return size / v.f_frsize > v.f_bfree ? ENOSPC : 0;
}

int outalloc_start(struct outalloc *a, int fd, unsigned char *map,
		   uint64_t size)
{
	uint64_t off, n;
	int err = 0;

	*a = (struct outalloc){ .fd = fd, .map = map, .size = size };
	if (want_thread(size) && start_thread(a)) {
		a->threaded = true;
		return 0;
	}
	for (off = 0; off < size && !err; off += n) {
		n = step_at(a, off);
		err = alloc_step(a, off, n);
	}
	a->ready = err ? 0 : size;
	a->err = err;
	return err;
}

int outalloc_wait(struct outalloc *a, uint64_t off, uint64_t end)
{
	int err;

	if (!a->threaded) {
		if (end > a->ready)
			return a->err ? a->err : EIO;
		populate(a, off, end - off);
		return 0;
	}
	pthread_mutex_lock(&a->lock);
	if (off > a->copied || end > a->wanted) {
		a->copied = off;
		a->wanted = end;
		pthread_cond_signal(&a->room);
	}
	while (a->ready < end && !a->err)
		pthread_cond_wait(&a->cond, &a->lock);
	err = a->ready < end ? a->err : 0;
	pthread_mutex_unlock(&a->lock);
	return err;
}

void outalloc_stop(struct outalloc *a)
{
	if (!a->threaded)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_signal(&a->room);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	destroy(a);
	a->threaded = false;
}
