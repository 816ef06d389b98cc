// SPDX-License-Identifier: GPL-2.0
/*
 * fast: read a whole file as fast as this machine allows and print the
 * same "XOR value" as run.
 *
 * Regular files are mapped, not read: read() copies every byte from the
 * page cache into a buffer, which costs as much memory bandwidth as the
 * XOR itself.  The file is cut into windows that the threads (one per
 * core) take in turn, so that the pages in flight stay bounded (files
 * larger than RAM work) and every thread streams through whole windows.
 * Threads are not pinned to cores: on a shared machine a pinned thread
 * waits for its busy core while another core idles (docs/io.md has the
 * measurements behind this and the other choices).
 * Pipes, devices and anything mmap refuses fall back to read() with the
 * block size that the sweep found best.
 */
#include "io.h"
#include "util.h"
#include "xor32.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Big enough to amortise mmap/munmap, small enough to stay in RAM. */
#define FAST_WINDOW (64u << 20)
/* The plateau of the sweep on this machine (docs/io.md). */
#define FAST_READ_BLOCK (256u << 10)
#define FAST_MAX_THREADS 256

struct fast {
	int fd;
	uint64_t size;
	size_t window;
	unsigned int threads;
	atomic_uint_fast64_t next;	/* index of the next window to take */
	int err;			/* errno of the first failure */
	atomic_int failed;
};

struct worker {
	struct fast *f;
	pthread_t tid;
	uint32_t xor;
};

static int xor_window(struct fast *f, uint64_t off, uint32_t *xor)
{
	size_t len = f->size - off < f->window ? (size_t)(f->size - off) :
						  f->window;
	uint64_t ahead = off + (uint64_t)f->threads * f->window;
	void *p;

	/*
	 * Start reading the window that the next free thread will take, so
	 * that the disk works while this one is mapped and XORed: a page
	 * fault only reads around the faulting page and waits for it, and
	 * without this hint a cold file read at a third of the disk's speed
	 * (docs/io.md).  On a cached file it costs a page cache lookup.
	 */
	if (ahead < f->size)
		posix_fadvise(f->fd, (off_t)ahead, (off_t)f->window,
			      POSIX_FADV_WILLNEED);
	/*
	 * MAP_POPULATE maps every page in one call instead of taking a
	 * fault per 16 pages; on a cold file the kernel's readahead still
	 * runs, since populating faults the pages in order.
	 */
	p = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, f->fd,
		 (off_t)off);

	if (p == MAP_FAILED)
		return -1;
	*xor ^= xor32(p, len, off);
	munmap(p, len);
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct fast *f = w->f;
	uint64_t i;

	while (!atomic_load(&f->failed)) {
		i = atomic_fetch_add(&f->next, 1);
		if (i * f->window >= f->size)
			break;
		if (xor_window(f, i * f->window, &w->xor)) {
			if (!atomic_exchange(&f->failed, 1))
				f->err = errno;
			break;
		}
	}
	return NULL;
}

/* 0 with *xor, or -1 with errno when mmap failed (nothing printed). */
static int fast_mmap(struct fast *f, unsigned int threads, uint32_t *xor)
{
	struct worker w[FAST_MAX_THREADS];
	unsigned int i, started = 0;
	int err;

	*xor = 0;
	for (i = 0; i < threads; i++) {
		w[i] = (struct worker){ .f = f };
		/* The last worker is this thread: no start-up cost for one. */
		if (i + 1 == threads)
			break;
		err = pthread_create(&w[i].tid, NULL, worker_main, &w[i]);
		if (err) {
			errno = err;
			die_errno("cannot start a thread");
		}
		started++;
	}
	worker_main(&w[started]);
	for (i = 0; i < started; i++)
		pthread_join(w[i].tid, NULL);
	if (f->failed) {
		errno = f->err;
		return -1;
	}
	for (i = 0; i <= started; i++)
		*xor ^= w[i].xor;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fast [--threads N] [--window BYTES] [--read] <file>\n"
		"       fast --device [--master IP[:PORT]]\n\n"
		"Read the whole file and print \"XOR value: %%08x\", the same value\n"
		"as run; time and MiB/s go to stderr.  Regular files are mapped\n"
		"in windows that one thread per core XORs with a vectorised loop;\n"
		"pipes, devices and --read use read() in %u KiB blocks.\n"
		"--threads N      threads for the mapped file (default: one per core)\n"
		"--window BYTES   mapped window (default %u MiB, a page multiple)\n"
		"--read           use read() even for a regular file\n",
		FAST_READ_BLOCK >> 10, FAST_WINDOW >> 20);
}

/* Map the regular file f->fd; 0, or -1 with errno when mmap failed. */
static int fast_file(struct fast *f, uint64_t threads, uint32_t *xor,
		     char *how, size_t howlen)
{
	uint64_t windows = (f->size + f->window - 1) / f->window;

	if (threads > windows)
		threads = windows ? windows : 1;
	f->threads = (unsigned int)threads;
	snprintf(how, howlen, "mmap, threads: %u, window: %zu KiB",
		 f->threads, f->window >> 10);
	*xor = 0;
	if (f->size == 0)
		return 0;
	return fast_mmap(f, f->threads, xor);
}

/* The fallback: one thread, read() and XOR. Returns the bytes read. */
static uint64_t fast_read(int fd, const char *name, uint32_t *xor)
{
	struct blockreader br;
	uint64_t done, bytes;

	blockreader_init(&br, fd, FAST_READ_BLOCK, true);
	if (blockreader_read(&br, UINT64_MAX, &done))
		die_errno("read from '%s' failed after %llu bytes", name,
			  (unsigned long long)br.offset);
	*xor = br.xor;
	bytes = br.offset;
	blockreader_free(&br);
	return bytes;
}

int io_fast_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "threads", required_argument, NULL, 't' },
		{ "window", required_argument, NULL, 'w' },
		{ "read", no_argument, NULL, 'r' },
		IO_SOURCE_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct io_source src = { 0 };
	struct fast f = { .window = FAST_WINDOW };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t threads = ncpu > 0 ? (uint64_t)ncpu : 1, v, t0, bytes;
	long page = sysconf(_SC_PAGESIZE);
	bool use_read = false;
	char how[96] = "read()";
	struct stat st;
	uint32_t xor;
	double s;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (io_source_opt(&src, c, optarg))
			continue;
		switch (c) {
		case 't':
			if (parse_uint(optarg, 1, FAST_MAX_THREADS, &threads))
				die(EXIT_USAGE, "bad --threads '%s' (1..%d)",
				    optarg, FAST_MAX_THREADS);
			break;
		case 'w':
			if (parse_size(optarg, &v) || v == 0 ||
			    v % (uint64_t)page || v > (1ull << 40))
				die(EXIT_USAGE, "bad --window '%s': a multiple of the %ld-byte page",
				    optarg, page);
			f.window = (size_t)v;
			break;
		case 'r':
			use_read = true;
			break;
		default:
			io_usage_exit(usage, c);
		}
	}
	io_source_operand(&src, argc - optind, argv + optind);
	f.fd = io_source_open(&src);
	if (fstat(f.fd, &st))
		die_errno("cannot stat '%s'", io_source_name(&src));
	f.size = (uint64_t)st.st_size;

	t0 = now_ns();
	if (!use_read && S_ISREG(st.st_mode) &&
	    fast_file(&f, threads, &xor, how, sizeof(how)) == 0) {
		bytes = f.size;
	} else {
		if (!use_read && S_ISREG(st.st_mode)) {
			msg_errno("mmap of '%s' failed; using read()",
				  io_source_name(&src));
			strcpy(how, "read()");
			t0 = now_ns();
		}
		bytes = fast_read(f.fd, io_source_name(&src), &xor);
	}
	s = (double)(now_ns() - t0) / 1e9;
	close(f.fd);
	printf("XOR value: %08x\n", xor);
	msg("%llu bytes in %.6f s, %.1f MiB/s (%s)", (unsigned long long)bytes,
	    s, s > 0 ? (double)bytes / MIB / s : 0, how);
	return EXIT_OK;
}
