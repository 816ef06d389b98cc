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
#include "util.h"
#include "xor32.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The plateau of the sweep (docs/io.md): pipes and the device. */
#define FAST_READ_BLOCK (256u << 10)
#define FAST_MAX_THREADS 256

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fast [--method auto|read|mmap|direct] [--threads N]\n"
		"            [--block BYTES] [--window BYTES] [--depth N]\n"
		"            [--request BYTES] <file>\n"
		"       fast --device [--master IP[:PORT]]\n\n"
		"Read the whole file and print \"XOR value: %%08x\", the same value\n"
		"as run; the method, time and MiB/s go to stderr.  For a regular\n"
		"file, auto finds the page-cache share (mincore on a sample) and\n"
		"times the candidate methods on the first slices of the file, which\n"
		"count towards the result; the fastest reads the rest:\n"
		"  read     threads x pread() into cache-sized buffers\n"
		"  mmap     threads x mapped windows (MAP_POPULATE)\n"
		"  direct   threads x O_DIRECT, several requests in flight each\n"
		"The file's size at open is what is read: bytes appended later are\n"
		"not.  Pipes and devices use read() in %u KiB blocks.\n"
		"--method M       force a method (--read: --method read)\n"
		"--threads N      threads (default: one per online CPU)\n"
		"--block BYTES    read: bytes per pread() (default: from the L2 size)\n"
		"--window BYTES   mmap: bytes per mapping (default 64 MiB, pages)\n"
		"--depth N        direct: requests in flight per thread\n"
		"--request BYTES  direct: bytes per request (a page multiple)\n",
		FAST_READ_BLOCK >> 10);
}

/* Pipes and devices: one thread, read() and XOR.  Returns the bytes. */
static uint64_t fast_stream(int fd, const char *name, uint32_t *xor)
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

/* A page multiple in [page, max]; exits 2 otherwise. */
static size_t page_size_opt(const char *what, const char *arg, uint64_t max)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t v;

	if (parse_size(arg, &v) || v == 0 || v % (uint64_t)page || v > max)
		die(EXIT_USAGE, "bad %s '%s': a multiple of the %ld-byte page",
		    what, arg, page);
	return (size_t)v;
}

struct fast_opts {
	struct io_source src;
	int method;
	uint64_t threads, depth;
	size_t block, window, request;
};

static void parse_opts(struct fast_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "method", required_argument, NULL, 'm' },
		{ "threads", required_argument, NULL, 't' },
		{ "block", required_argument, NULL, 'b' },
		{ "window", required_argument, NULL, 'w' },
		{ "depth", required_argument, NULL, 'd' },
		{ "request", required_argument, NULL, 'q' },
		{ "read", no_argument, NULL, 'r' },
		IO_SOURCE_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (io_source_opt(&o->src, c, optarg))
			continue;
		if (c == 'm' && (o->method = fast_method_parse(optarg)) < 0)
			die(EXIT_USAGE, "bad --method '%s' (auto, read, mmap, direct)",
			    optarg);
		else if (c == 't' &&
			 parse_uint(optarg, 1, FAST_MAX_THREADS, &o->threads))
			die(EXIT_USAGE, "bad --threads '%s' (1..%d)", optarg,
			    FAST_MAX_THREADS);
		else if (c == 'd' && parse_uint(optarg, 1, 64, &o->depth))
			die(EXIT_USAGE, "bad --depth '%s' (1..64)", optarg);
		else if (c == 'b')
			o->block = page_size_opt("--block", optarg, 1u << 30);
		else if (c == 'q')
			o->request = page_size_opt("--request", optarg, 1u << 30);
		else if (c == 'w')
			o->window = page_size_opt("--window", optarg, 1ull << 40);
		else if (c == 'r')
			o->method = FAST_READ;
		else if (!strchr("mtdbqw", c))
			io_usage_exit(usage, c);
	}
	io_source_operand(&o->src, argc - optind, argv + optind);
}

/* A regular file by the method chosen; exits on a read error. */
static void fast_regular(const struct fast_opts *o, int fd, uint64_t size,
			 uint32_t *xor, char *how, size_t howlen)
{
	struct fast_choice c;
	struct fast_file f;

	fast_file_init(&f, fd, size);
	if (o->threads)
		f.threads = (unsigned int)o->threads;
	if (o->depth)
		f.depth = (unsigned int)o->depth;
	if (o->block)
		f.block = o->block;
	if (o->window)
		f.window = o->window;
	if (o->request)
		f.request = o->request;
	if (fast_xor_file(&f, (enum fast_method)o->method, &c, xor))
		die_errno("reading '%s' failed", io_source_name(&o->src));
	fast_choice_describe(&f, &c, how, howlen);
}

int io_fast_main(int argc, char **argv)
{
	struct fast_opts o = { .method = FAST_AUTO };
	uint64_t t0, bytes;
	char how[256] = "read()";
	struct stat st;
	uint32_t xor;
	double s;
	int fd;

	parse_opts(&o, argc, argv);
	fd = io_source_open(&o.src);
	if (fstat(fd, &st))
		die_errno("cannot stat '%s'", io_source_name(&o.src));
	t0 = now_ns();
	if (S_ISREG(st.st_mode)) {
		bytes = (uint64_t)st.st_size;
		fast_regular(&o, fd, bytes, &xor, how, sizeof(how));
	} else {
		bytes = fast_stream(fd, io_source_name(&o.src), &xor);
	}
	s = (double)(now_ns() - t0) / 1e9;
	close(fd);
	printf("XOR value: %08x\n", xor);
	msg("%llu bytes in %.6f s, %.1f MiB/s (%s)", (unsigned long long)bytes,
	    s, s > 0 ? (double)bytes / MIB / s : 0, how);
	return EXIT_OK;
}
