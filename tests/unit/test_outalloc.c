// SPDX-License-Identifier: GPL-2.0
/*
 * outalloc: a mapped output's storage, allocated at once or ahead of the
 * copy by a thread; outalloc_wait() tells when a range may be written,
 * and why not when the allocation stopped.
 */
#include "check.h"
#include "outalloc.h"
#include "tmpdir.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1u << 20)

struct mapped {
	int fd;
	unsigned char *map;
	uint64_t size;
};

/* A file of len bytes (sparse), size bytes of it mapped; 0 or -1. */
static int map_sized(struct mapped *m, const char *name, uint64_t len,
		     uint64_t size)
{
	m->size = size;
	m->fd = open(path(name), O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (m->fd < 0 || ftruncate(m->fd, (off_t)len))
		return -1;
	m->map = mmap(NULL, size, PROT_WRITE, MAP_SHARED, m->fd, 0);
	return m->map == MAP_FAILED ? -1 : 0;
}

static int map_new(struct mapped *m, const char *name, uint64_t size)
{
	return map_sized(m, name, size, size);
}

static void map_free(struct mapped *m)
{
	munmap(m->map, m->size);
	close(m->fd);
}

static uint64_t allocated(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : (uint64_t)st.st_blocks * 512;
}

static void test_small_at_once(void)
{
	struct mapped m;
	struct outalloc a;

	if (map_new(&m, "small", MIB + 5)) {
		CHECK(0, "small: set up");
		return;
	}
	CHECK(outalloc_start(&a, m.fd, m.map, m.size) == 0 && !a.threaded &&
	      allocated(m.fd) >= m.size,
	      "a file under 4 MiB is allocated at once, the odd tail too");
	CHECK(outalloc_wait(&a, 0, m.size) == 0, "small: all of it may be written");
	outalloc_stop(&a);
	map_free(&m);
}

static void test_ahead(void)
{
	uint64_t size = 9 * MIB + 4097, off;
	struct mapped m;
	struct outalloc a;
	int err = 0;

	if (map_new(&m, "ahead", size)) {
		CHECK(0, "ahead: set up");
		return;
	}
	CHECK(outalloc_start(&a, m.fd, m.map, size) == 0,
	      "9 MiB + 4097: started");
	CHECK(a.threaded, "SYNCDEV_ALLOC_AHEAD=1: a thread allocates ahead");
	/* Written as the slave does, each piece once it is allocated. */
	for (off = 0; off < size && !err; off += 65536) {
		uint64_t n = size - off < 65536 ? size - off : 65536;

		err = outalloc_wait(&a, off, off + n);
		if (!err)
			memset(m.map + off, (int)(off >> 16), (size_t)n);
	}
	CHECK(!err, "every piece may be written in turn");
	CHECK(allocated(m.fd) >= size, "the whole file is allocated");
	outalloc_stop(&a);
	CHECK(!a.threaded, "stop ends the thread");
	CHECK(m.map[size - 1] == (unsigned char)((size - 1) >> 16) &&
	      m.map[5 * MIB] == 80, "the bytes are in the file");
	map_free(&m);
}

/* One piece larger than the distance the thread keeps ahead. */
static void test_big_piece(void)
{
	struct mapped m;
	struct outalloc a;

	if (map_new(&m, "bigpiece", 16 * MIB + 1)) {
		CHECK(0, "big piece: set up");
		return;
	}
	CHECK(outalloc_start(&a, m.fd, m.map, m.size) == 0 &&
	      outalloc_wait(&a, 0, m.size) == 0 &&
	      allocated(m.fd) >= m.size,
	      "a 16 MiB + 1 piece at once: allocated, no deadlock");
	outalloc_stop(&a);
	map_free(&m);
}

/*
 * A file that may not grow past 6 MiB (RLIMIT_FSIZE), 5 MiB long and
 * allocated to 8: the allocation's error reaches wait.
 */
static void test_fails(void)
{
	struct rlimit old, low;
	struct mapped m;
	struct outalloc a;
	int started;

	if (map_sized(&m, "toolarge", 5 * MIB, 8 * MIB)) {
		CHECK(0, "fails: set up");
		return;
	}
	/* Only the soft limit, so that it can be raised again. */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	low = old;
	low.rlim_cur = 6 * MIB;
	setrlimit(RLIMIT_FSIZE, &low);
	started = outalloc_start(&a, m.fd, m.map, m.size);
	CHECK(started == 0 || started == EFBIG, "started, or refused at once");
	CHECK(outalloc_wait(&a, 0, 6 * MIB) == 0,
	      "what could be allocated may be written");
	CHECK(outalloc_wait(&a, 6 * MIB, 8 * MIB) == EFBIG,
	      "past the limit: wait gives the allocation's errno (EFBIG)");
	CHECK(outalloc_wait(&a, 6 * MIB, 7 * MIB) == EFBIG, "and keeps giving it");
	outalloc_stop(&a);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	map_free(&m);
}

static void test_never(void)
{
	struct mapped m;
	struct outalloc a;

	if (map_new(&m, "never", 8 * MIB)) {
		CHECK(0, "never: set up");
		return;
	}
	setenv("SYNCDEV_ALLOC_AHEAD", "0", 1);
	CHECK(outalloc_start(&a, m.fd, m.map, m.size) == 0 && !a.threaded &&
	      allocated(m.fd) >= m.size && outalloc_wait(&a, 0, MIB) == 0,
	      "SYNCDEV_ALLOC_AHEAD=0: allocated at once, no thread");
	setenv("SYNCDEV_ALLOC_AHEAD", "1", 1);
	outalloc_stop(&a);
	map_free(&m);
}

static void test_room(void)
{
	int fd = open(path("room"), O_RDWR | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0 && outalloc_room(fd, 4096) == 0,
	      "room: a page fits");
	CHECK(outalloc_room(fd, 1ull << 62) == ENOSPC,
	      "room: 4 EiB does not (ENOSPC before anything is mapped)");
	close(fd);
}

/* Stopped at once: the thread ends, whatever it had allocated. */
static void test_stop_early(void)
{
	struct mapped m;
	struct outalloc a;

	if (map_new(&m, "early", 64 * MIB)) {
		CHECK(0, "stop early: set up");
		return;
	}
	CHECK(outalloc_start(&a, m.fd, m.map, m.size) == 0,
	      "64 MiB: started");
	outalloc_stop(&a);
	CHECK(!a.threaded, "stopped before the end: the thread is gone");
	map_free(&m);
}

int main(void)
{
	/* The thread on any machine; test_never sets 0. */
	setenv("SYNCDEV_ALLOC_AHEAD", "1", 1);
	if (tmpdir_make()) {
		CHECK(0, "scratch directory");
		return check_done();
	}
	test_small_at_once();
	test_ahead();
	test_big_piece();
	test_fails();
	test_stop_early();
	test_never();
	test_room();
	tmpdir_remove();
	return check_done();
}
