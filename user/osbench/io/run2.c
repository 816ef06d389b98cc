// SPDX-License-Identifier: GPL-2.0
/*
 * run2: the course's second program.  Find a block count whose read takes
 * between 5 and 15 seconds by doubling (calibrate.h), and print it with
 * the size read, the time and the rate.
 */
#include "calibrate.h"
#include "io.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: run2 [--wrap] [--min S] [--max S] <file> <block_size>\n"
		"       run2 --device [--master IP[:PORT]] <block_size>\n\n"
		"Read <file> from the start in blocks of block_size, 1, 2, 4, ...\n"
		"blocks at a time, until one read takes at least 5 s; print that\n"
		"block count, the bytes it read, the time and MiB/s.  If doubling\n"
		"overshoots 15 s, bisect.  A file too small to take 5 s is\n"
		"reported as such, unless --wrap, which re-reads it from the start\n"
		"(and says how often).\n"
		"--min S, --max S  the time window (default 5 and 15 seconds)\n");
}

struct run2 {
	struct blockreader br;
	bool is_file;
	bool wrap;
	uint64_t wraps;		/* times the last try went back to 0 */
};

/* One try of the search: count blocks from the start of the file. */
static int run2_work(void *ctx, uint64_t count, uint64_t *done)
{
	struct run2 *r = ctx;
	uint64_t n;

	r->wraps = 0;
	if (r->is_file && blockreader_rewind(&r->br))
		return -1;
	*done = 0;
	while (*done < count) {
		if (blockreader_read(&r->br, count - *done, &n))
			return -1;
		*done += n;
		if (*done == count || !r->wrap || !r->is_file ||
		    r->br.offset == 0)
			break;
		/* A partial block at the end is re-read whole from 0. */
		if (blockreader_rewind(&r->br))
			return -1;
		r->wraps++;
	}
	return 0;
}

int io_run2_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "wrap", no_argument, NULL, 'W' },
		{ "min", required_argument, NULL, 'm' },
		{ "max", required_argument, NULL, 'x' },
		IO_SOURCE_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct io_source src = { 0 };
	struct run2 r = { 0 };
	struct calibrate cal = { .work = run2_work, .ctx = &r,
				 .lo_ns = 5000000000ull,
				 .hi_ns = 15000000000ull };
	struct calibrate_result res;
	uint64_t bytes;
	double s;
	size_t bs;
	int c, fd;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (io_source_opt(&src, c, optarg))
			continue;
		switch (c) {
		case 'W':
			r.wrap = true;
			break;
		case 'm':
			cal.lo_ns = io_parse_seconds("--min", optarg);
			break;
		case 'x':
			cal.hi_ns = io_parse_seconds("--max", optarg);
			break;
		default:
			io_usage_exit(usage, c);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		die(EXIT_USAGE, "missing block_size; see --help");
	if (cal.hi_ns < cal.lo_ns)
		die(EXIT_USAGE, "--max is below --min");
	io_source_operand(&src, argc - 1, argv);
	bs = io_parse_block("block size", argv[argc - 1]);

	fd = io_source_open(&src);
	r.is_file = src.path != NULL;
	blockreader_init(&r.br, fd, bs, false);
	if (calibrate(&cal, &res))
		die_errno("read from '%s' failed", io_source_name(&src));
	close(fd);

	bytes = res.status == CALIBRATE_SHORT_INPUT ? r.br.offset :
						      res.count * bs;
	s = (double)res.elapsed_ns / 1e9;
	printf("Block count: %llu\n", (unsigned long long)(res.status ==
	       CALIBRATE_SHORT_INPUT ? res.done : res.count));
	printf("Block size: %zu\n", bs);
	printf("File size: %llu bytes (%.3f MiB)\n", (unsigned long long)bytes,
	       (double)bytes / MIB);
	printf("Time: %.6f s\n", s);
	printf("Rate: %.1f MiB/s\n", s > 0 ? (double)bytes / MIB / s : 0);
	if (r.wraps)
		printf("Note: the file is smaller than that; the last try re-read it %llu times\n",
		       (unsigned long long)r.wraps);
	if (res.status == CALIBRATE_SHORT_INPUT) {
		printf("Note: the whole file (%llu bytes) reads in %.6f s, less than %.3g s; use a larger file or --wrap\n",
		       (unsigned long long)bytes, s,
		       (double)cal.lo_ns / 1e9);
		return EXIT_FAIL;
	}
	if (res.status == CALIBRATE_SLOW)
		printf("Note: no block count reads in %.3g..%.3g s; this is the fewest blocks that take longer\n",
		       (double)cal.lo_ns / 1e9, (double)cal.hi_ns / 1e9);
	return EXIT_OK;
}
