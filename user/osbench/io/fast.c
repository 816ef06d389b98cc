// SPDX-License-Identifier: GPL-2.0
/*
 * fast: read a whole file as fast as this machine allows and print the
 * same "XOR value" as run.
 *
 * A regular file is read by the method that is fastest for this machine
 * and this file, found by measuring on the file itself (fast_method.h;
 * docs/io.md has the measurements): threads pread()ing into cache-sized
 * buffers, mapped windows, or O_DIRECT with requests in flight.
 * Pipes and devices are read() in blocks of the sweep's plateau.
 */
#include "fast_method.h"
#include "io.h"
#include "readq.h"
#include "util.h"
#include "xor32.h"

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* The plateau of the sweep (docs/io.md): pipes and the device. */
#define FAST_READ_BLOCK (256u << 10)

/* Pipes and devices: one thread, read() and XOR.  The bytes, or -1. */
static int64_t fast_stream(int fd, const char *name, uint32_t *xor)
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
	uint64_t method;	/* enum fast_method */
	uint64_t threads, depth;	/* 0: the machine's default */
	uint64_t queue;			/* enum readq_kind */
	uint64_t block, window, request;
	bool use_read, timeline;
	struct io_source src;
};

/* --block, --window, --request: a multiple of the page size. */
static int page_multiple(const char *what, const char *v, void *dst)
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

/*
 * --request: a page multiple the kernel reads in one call (a read moves
 * at most 2 GiB less a page, and io_uring's length is 32 bits).
 */
static int request_size(const char *what, const char *v, void *dst)
{
	if (page_multiple(what, v, dst))
		return -1;
	if (*(uint64_t *)dst > (1u << 30)) {
		msg("bad %s '%s': at most 1 GiB", what, v);
		return -1;
	}
	return 0;
}

static int queue_value(const char *what, const char *v, void *dst)
{
	int k = readq_kind_parse(v);

	if (k < 0 || k == READQ_ANY) {
		msg("bad %s '%s' (io_uring, aio)", what, v);
		return -1;
	}
	*(uint64_t *)dst = (uint64_t)k;
	return 0;
}

static int method_value(const char *what, const char *v, void *dst)
{
	int m = fast_method_parse(v);

	if (m < 0) {
		msg("bad %s '%s' (auto, read, mmap, direct)", what, v);
		return -1;
	}
	*(uint64_t *)dst = (uint64_t)m;
	return 0;
}

#define FAST_OPT(field) .off = offsetof(struct fast_opts, field)

static const struct opt fast_options[] = {
	{ .name = "method", .kind = OPT_CALL, .arg = "M", FAST_OPT(method),
	  .parse = method_value, .def = "auto",
	  .help = "auto, read, mmap or direct" },
	{ .name = "threads", .kind = OPT_UINT, .arg = "N", .min = 1,
	  .max = FAST_MAX_THREADS, FAST_OPT(threads),
	  .help = "threads (default: one per online CPU)" },
	{ .name = "block", .kind = OPT_CALL, .arg = "BYTES",
	  .parse = page_multiple, FAST_OPT(block),
	  .help = "read: bytes per pread() (default: from the L2 size)" },
	{ .name = "window", .kind = OPT_CALL, .arg = "BYTES",
	  .parse = page_multiple, FAST_OPT(window),
	  .help = "mmap: bytes per mapping (default 64 MiB)" },
	{ .name = "depth", .kind = OPT_UINT, .arg = "N", .min = 1, .max = 64,
	  FAST_OPT(depth), .help = "direct: requests in flight per thread" },
	{ .name = "request", .kind = OPT_CALL, .arg = "BYTES",
	  .parse = request_size, FAST_OPT(request),
	  .help = "direct: bytes per request" },
	{ .name = "queue", .kind = OPT_CALL, .arg = "KIND",
	  .parse = queue_value, FAST_OPT(queue),
	  .help = "direct: io_uring or aio (default: io_uring, aio where "
		  "io_uring is refused)" },
	{ .name = "read", .kind = OPT_FLAG, FAST_OPT(use_read),
	  .help = "--method read" },
	{ .name = "timeline", .kind = OPT_FLAG, FAST_OPT(timeline),
	  .help = "say where the time went: each step's wall and CPU time" },
	IO_SOURCE_OPTIONS(struct fast_opts, src),
	{ 0 },
};

/* The description of the run, and its timeline when asked for. */
struct fast_says {
	char how[384];
	char timeline[2048];
};

/* A regular file by the method chosen; the bytes, or -1 after a message. */
static int64_t fast_regular(const struct fast_opts *o, int fd, uint64_t size,
			    uint32_t *xor, struct fast_says *says)
{
	struct fast_choice c;
	struct fast_file f;

	fast_file_init(&f, fd, size);
	if (o->threads)
		f.threads = (unsigned int)o->threads;
	if (o->depth)
		f.depth = (unsigned int)o->depth;
	if (o->block)
		f.block = f.cold_block = (size_t)o->block;
	if (o->window)
		f.window = (size_t)o->window;
	if (o->request)
		f.request = (size_t)o->request;
	if (o->queue)
		f.queue = (int)o->queue;
	if (fast_xor_file(&f, o->use_read ? FAST_READ :
			  (enum fast_method)o->method, &c, xor)) {
		msg_errno("reading '%s' failed%s", io_source_name(&o->src),
			  o->queue == READQ_URING ? " (--queue io_uring)" : "");
		return -1;
	}
	fast_choice_describe(&f, &c, says->how, sizeof(says->how));
	if (o->timeline)
		fast_timeline_describe(&c, says->timeline,
				       sizeof(says->timeline));
	return (int64_t)size;
}

static const char usage[] =
	"usage: fast [--method auto|read|mmap|direct] [options] <file>\n"
	"       fast --device [--master IP[:PORT]]\n\n"
	"Read the whole file and print \"XOR value: %08x\", the same value\n"
	"as run; the method, time and MiB/s go to stderr.  For a regular\n"
	"file, auto finds the page-cache share (mincore on a sample).  A\n"
	"cached file: read and mmap race side by side (a thread each; one\n"
	"thread: in turn) on the start of the file, which counts towards\n"
	"the result, rated by CPU time, and the faster reads the rest;\n"
	"--timeline ends with the choice and its reason.  A file mostly\n"
	"not cached: direct, then read (by the clock), read cut short once\n"
	"it has taken as long as direct.\n"
	"Files too small to measure (under 64 MiB cached, 32 MiB cold):\n"
	"read (docs/io.md).\n"
	"  read     threads x pread() into cache-sized buffers\n"
	"  mmap     threads x mapped windows (MAP_POPULATE)\n"
	"  direct   threads x O_DIRECT, several requests in flight each\n"
	"           (io_uring, or Linux AIO where io_uring is refused)\n"
	"The file's size at open is what is read: bytes appended later are\n"
	"not.  Pipes and devices use read() in 256 KiB blocks.\n";

static int fast_run(const struct ctx *c, const void *opts)
{
	const struct fast_opts *o = opts;
	struct fast_opts oo = *o;
	struct fast_says says = { .how = "read()" };
	struct stat st;
	uint64_t t0;
	int64_t bytes;
	uint32_t xor;
	double s;
	int fd;

	if (io_source_operand(&oo.src, c->nargs, c->args))
		return EXIT_USAGE;
	fd = io_source_open(&oo.src);
	if (fd < 0)
		return EXIT_FAIL;
	if (fstat(fd, &st)) {
		msg_errno("cannot stat '%s'", io_source_name(&oo.src));
		close(fd);
		return EXIT_FAIL;
	}
	t0 = now_ns();
	if (S_ISREG(st.st_mode))
		bytes = fast_regular(&oo, fd, (uint64_t)st.st_size, &xor,
				     &says);
	else
		bytes = fast_stream(fd, io_source_name(&oo.src), &xor);
	s = (double)(now_ns() - t0) / 1e9;
	close(fd);
	if (bytes < 0)
		return EXIT_FAIL;
	fprintf(c->out, "XOR value: %08x\n", xor);
	msg("%lld bytes in %.6f s, %.1f MiB/s (%s)", (long long)bytes,
	    s, s > 0 ? (double)bytes / MIB / s : 0, says.how);
	/* Into report's file too: stdout keeps the course's one line. */
	if (c->out != stdout)
		fprintf(c->out, "%lld bytes in %.6f s, %.1f MiB/s (%s)\n",
			(long long)bytes, s, s > 0 ? (double)bytes / MIB / s :
			0, says.how);
	if (says.timeline[0])
		msg("%s", says.timeline);
	return EXIT_OK;
}

OSBENCH_COMMAND(fast, "fast", 0,
		"read a whole file as fast as possible, print the XOR",
		COMMAND_OPTIONS(fast_options, struct fast_opts),
		.max_args = 1);
