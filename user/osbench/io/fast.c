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
#include <stddef.h>
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
			/* Fewer threads read the same windows. */
			errno = err;
			msg_errno("cannot start a thread; going on with %u",
				  started + 1);
			break;
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

/* The fallback: one thread, read() and XOR.  The bytes read, or -1. */
static int64_t fast_read(int fd, const char *name, uint32_t *xor)
{
	struct blockreader br;
	uint64_t done;
	int64_t bytes;

	if (blockreader_init(&br, fd, FAST_READ_BLOCK, true))
		return -1;
	if (blockreader_read(&br, UINT64_MAX, &done)) {
		msg_errno("read from '%s' failed after %llu bytes", name,
			  (unsigned long long)br.offset);
		bytes = -1;
	} else {
		*xor = br.xor;
		bytes = (int64_t)br.offset;
	}
	blockreader_free(&br);
	return bytes;
}

struct fast_opts {
	uint64_t threads;	/* 0: one per core */
	uint64_t window;
	bool use_read;
	struct io_source src;
};

/* --window: a multiple of the page size. */
static int window_value(const char *what, const char *v, void *dst)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t w;

	if (parse_size(v, &w) || w == 0 || w % (uint64_t)page ||
	    w > (1ull << 40)) {
		msg("bad %s '%s': a multiple of the %ld-byte page", what, v,
		    page);
		return -1;
	}
	*(uint64_t *)dst = w;
	return 0;
}

static const struct opt fast_options[] = {
	{ .name = "threads", .kind = OPT_UINT, .arg = "N", .min = 1,
	  .max = FAST_MAX_THREADS, .off = offsetof(struct fast_opts, threads),
	  .help = "threads for the mapped file (default: one per core)" },
	{ .name = "window", .kind = OPT_CALL, .arg = "BYTES",
	  .parse = window_value, .def = "64M",
	  .off = offsetof(struct fast_opts, window),
	  .help = "mapped window (a page multiple)" },
	{ .name = "read", .kind = OPT_FLAG,
	  .off = offsetof(struct fast_opts, use_read),
	  .help = "use read() even for a regular file" },
	IO_SOURCE_OPTIONS(struct fast_opts, src),
	{ 0 },
};

/* Read the whole input into *xor; the bytes, or -1 after a message. */
static int64_t fast_input(struct fast *f, const struct fast_opts *o,
			  const struct io_source *src, uint32_t *xor,
			  char *how, size_t howlen)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t threads = o->threads ? o->threads :
			   ncpu > 0 ? (uint64_t)ncpu : 1;
	struct stat st;

	if (fstat(f->fd, &st)) {
		msg_errno("cannot stat '%s'", io_source_name(src));
		return -1;
	}
	f->size = (uint64_t)st.st_size;
	if (!o->use_read && S_ISREG(st.st_mode) &&
	    fast_file(f, threads, xor, how, howlen) == 0)
		return (int64_t)f->size;
	if (!o->use_read && S_ISREG(st.st_mode)) {
		msg_errno("mmap of '%s' failed; using read()",
			  io_source_name(src));
		snprintf(how, howlen, "read()");
	}
	return fast_read(f->fd, io_source_name(src), xor);
}

static const char usage[] =
	"usage: fast [--threads N] [--window BYTES] [--read] <file>\n"
	"       fast --device [--master IP[:PORT]]\n\n"
	"Read the whole file and print \"XOR value: %08x\", the same value\n"
	"as run; time and MiB/s go to stderr.  Regular files are mapped\n"
	"in windows that one thread per core XORs with a vectorised loop;\n"
	"pipes, devices and --read use read() in 256 KiB blocks.\n";

static int fast_run(const struct ctx *c, const void *opts)
{
	const struct fast_opts *o = opts;
	struct io_source src = o->src;
	struct fast f = { .window = o->window };
	char how[96] = "read()";
	uint64_t t0;
	int64_t bytes;
	uint32_t xor;
	double s;

	if (io_source_operand(&src, c->nargs, c->args))
		return EXIT_USAGE;
	f.fd = io_source_open(&src);
	if (f.fd < 0)
		return EXIT_FAIL;
	t0 = now_ns();
	bytes = fast_input(&f, o, &src, &xor, how, sizeof(how));
	s = (double)(now_ns() - t0) / 1e9;
	close(f.fd);
	if (bytes < 0)
		return EXIT_FAIL;
	fprintf(c->out, "XOR value: %08x\n", xor);
	msg("%lld bytes in %.6f s, %.1f MiB/s (%s)", (long long)bytes,
	    s, s > 0 ? (double)bytes / MIB / s : 0, how);
	return EXIT_OK;
}

OSBENCH_COMMAND(fast, "fast", 0,
		"read a whole file as fast as possible, print the XOR",
		COMMAND_OPTIONS(fast_options, struct fast_opts),
		.max_args = 1);
