// SPDX-License-Identifier: GPL-2.0
/*
 * run2: the course's second program.  Find a block count whose read takes
 * at least 5 s and at most 15 s, the course's window, by doubling
 * (calibrate.h), and print it with the size read, the time and the rate.
 */
#include "calibrate.h"
#include "io.h"
#include "util.h"

#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

static const char usage[] =
	"usage: run2 [--wrap] [--min S] [--max S] <file> <block_size>\n"
	"       run2 --device [--master IP[:PORT]] <block_size>\n\n"
	"Read <file> from the start in blocks of block_size, 1, 2, 4, ...\n"
	"blocks at a time, until one read takes at least 5 s; print that\n"
	"block count, the bytes it read, the time and MiB/s.  If doubling\n"
	"overshoots 15 s, bisect.  A file too small to take 5 s is\n"
	"reported as such, unless --wrap, which re-reads it from the start\n"
	"(and says how often).\n";

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

/* The course's lines on out; EXIT_FAIL when the input was too short. */
static int print_result(FILE *out, const struct run2 *r,
			const struct calibrate *cal,
			const struct calibrate_result *res, uint64_t bs)
{
	bool shortin = res->status == CALIBRATE_SHORT_INPUT;
	uint64_t bytes = shortin ? r->br.offset : res->count * bs;
	double s = (double)res->elapsed_ns / 1e9;

	fprintf(out, "Block count: %llu\n",
		(unsigned long long)(shortin ? res->done : res->count));
	fprintf(out, "Block size: %llu\n", (unsigned long long)bs);
	fprintf(out, "File size: %llu bytes (%.3f MiB)\n",
		(unsigned long long)bytes, (double)bytes / MIB);
	fprintf(out, "Time: %.6f s\n", s);
	fprintf(out, "Rate: %.1f MiB/s\n", s > 0 ? (double)bytes / MIB / s : 0);
	if (r->wraps)
		fprintf(out, "Note: the file is smaller than that; the last try re-read it %llu times\n",
			(unsigned long long)r->wraps);
	if (shortin) {
		fprintf(out, "Note: the whole file (%llu bytes) reads in %.6f s, less than %.3g s; use a larger file or --wrap\n",
			(unsigned long long)bytes, s,
			(double)cal->lo_ns / 1e9);
		return EXIT_FAIL;
	}
	if (res->status == CALIBRATE_SLOW)
		fprintf(out, "Note: no block count reads in %.3g..%.3g s; this is the fewest blocks that take longer\n",
			(double)cal->lo_ns / 1e9, (double)cal->hi_ns / 1e9);
	return EXIT_OK;
}

struct run2_opts {
	bool wrap;
	uint64_t min_ns, max_ns;
	struct io_source src;
};

static const struct opt run2_options[] = {
	{ .name = "wrap", .kind = OPT_FLAG,
	  .off = offsetof(struct run2_opts, wrap),
	  .help = "re-read a file too small to take --min from its start" },
	{ .name = "min", .kind = OPT_SECONDS, .arg = "S", .def = "5",
	  .off = offsetof(struct run2_opts, min_ns),
	  .help = "shortest read time wanted" },
	{ .name = "max", .kind = OPT_SECONDS, .arg = "S", .def = "15",
	  .off = offsetof(struct run2_opts, max_ns),
	  .help = "longest read time wanted" },
	IO_SOURCE_OPTIONS(struct run2_opts, src),
	{ 0 },
};

static int run2_run(const struct ctx *c, const void *opts)
{
	static const char *const names[] = { "block_size" };
	const struct run2_opts *o = opts;
	struct run2 r = { .wrap = o->wrap };
	struct io_source src = o->src;
	struct calibrate cal = { .work = run2_work, .ctx = &r,
				 .lo_ns = o->min_ns, .hi_ns = o->max_ns };
	struct calibrate_result res;
	uint64_t bs;
	int fd;

	if (io_operands_check(&src, c->nargs, c->args, names, 1,
			      src.device || src.master ?
			      "run2 --device BLOCK_SIZE" :
			      "run2 FILE BLOCK_SIZE"))
		return EXIT_USAGE;
	if (cal.hi_ns < cal.lo_ns) {
		msg("--max is below --min");
		return EXIT_USAGE;
	}
	if (io_source_operand(&src, c->nargs - 1, c->args) ||
	    io_parse_block("block size", c->args[c->nargs - 1], &bs))
		return EXIT_USAGE;

	fd = io_source_open(&src);
	if (fd < 0)
		return EXIT_FAIL;
	r.is_file = src.path != NULL;
	if (blockreader_init(&r.br, fd, bs, false)) {
		close(fd);
		return EXIT_FAIL;
	}
	if (calibrate(&cal, &res)) {
		msg_errno("read from '%s' failed", io_source_name(&src));
		close(fd);
		blockreader_free(&r.br);
		return EXIT_FAIL;
	}
	close(fd);
	blockreader_free(&r.br);
	return print_result(c->out, &r, &cal, &res, bs);
}

OSBENCH_COMMAND(run2, "run2", 0,
		"block count that reads in 5-15 s (course step 2)",
		COMMAND_OPTIONS(run2_options, struct run2_opts),
		.max_args = 2);
