// SPDX-License-Identifier: GPL-2.0
/*
 * run: the course's first program.  Read or write exactly block_count
 * blocks of block_size bytes with read()/write(); reading prints the XOR
 * check value (xor32.h), writing writes the pattern (pattern.h).
 */
#include "io.h"
#include "pattern.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char usage[] =
	"usage: run <file> -r|-w <block_size> <block_count>\n"
	"       run --device [--master IP[:PORT]] -r <block_size> <block_count>\n\n"
	"-r  read block_count blocks of block_size bytes and print\n"
	"    \"XOR value: %08x\", the XOR of all 32-bit little-endian\n"
	"    words read (a final partial word zero-padded).  Stops early\n"
	"    at end of file and says how much it read.\n"
	"-w  create or truncate <file> and write block_count blocks of the\n"
	"    reproducible pattern (docs/io.md); prints the XOR value that\n"
	"    reading them back will give.\n"
	"--device  read /dev/slave_device, connected to the master given\n"
	"    by --master (default 127.0.0.1), which runs \"osbench feed\".\n\n"
	"Sizes accept K, M, G suffixes (powers of 1024); block_size is\n"
	"1 byte to 1 GiB.  Time and MiB/s go to stderr.\n";

static void summary(const char *verb, uint64_t bytes, uint64_t ns)
{
	double s = (double)ns / 1e9;

	msg("%s %llu bytes in %.6f s, %.1f MiB/s", verb,
	    (unsigned long long)bytes, s, s > 0 ? (double)bytes / MIB / s : 0);
}

static int do_read(FILE *out, const struct io_source *src, size_t bs,
		   uint64_t count)
{
	struct blockreader br;
	uint64_t done, t0, t;
	int fd = io_source_open(src);

	if (fd < 0)
		return EXIT_FAIL;
	if (blockreader_init(&br, fd, bs, true)) {
		close(fd);
		return EXIT_FAIL;
	}
	t0 = now_ns();
	if (blockreader_read(&br, count, &done)) {
		msg_errno("read from '%s' failed after %llu bytes",
			  io_source_name(src), (unsigned long long)br.offset);
		close(fd);
		blockreader_free(&br);
		return EXIT_FAIL;
	}
	t = now_ns() - t0;
	close(fd);
	fprintf(out, "XOR value: %08x\n", br.xor);
	if (done < count)
		msg("end of input after %llu bytes: %llu full blocks and %llu bytes of the %llu blocks asked for",
		    (unsigned long long)br.offset, (unsigned long long)done,
		    (unsigned long long)(br.offset - done * bs),
		    (unsigned long long)count);
	summary("read", br.offset, t);
	blockreader_free(&br);
	return EXIT_OK;
}

/* count blocks of the pattern to fd: 0, or -1 after a message. */
static int write_blocks(int fd, const char *path, size_t bs, uint64_t count)
{
	unsigned char *buf = xmalloc(bs);
	uint64_t i;

	for (i = 0; i < count; i++) {
		/* The fill is part of the cost, as it would be for real data. */
		pattern_fill(buf, bs, i * bs);
		if (write_full(fd, buf, bs) < 0) {
			msg_errno("write to '%s' failed after %llu bytes",
				  path, (unsigned long long)(i * bs));
			break;
		}
	}
	free(buf);
	return i < count ? -1 : 0;
}

static int do_write(FILE *out, const char *path, size_t bs, uint64_t count)
{
	uint64_t t0, t;
	int fd, rc;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		msg_errno("cannot create '%s'", path);
		return EXIT_FAIL;
	}
	t0 = now_ns();
	rc = write_blocks(fd, path, bs, count);
	t = now_ns() - t0;
	if (close(fd) && !rc)
		rc = fail_errno("close '%s'", path);
	if (rc)
		return EXIT_FAIL;
	fprintf(out, "expected XOR value: %08x\n", pattern_xor(count * bs));
	summary("wrote", count * bs, t);
	return EXIT_OK;
}

struct run_opts {
	bool read, write;
	struct io_source src;
};

static const struct opt run_options[] = {
	{ .letter = 'r', .kind = OPT_FLAG, .off = offsetof(struct run_opts, read),
	  .help = "read block_count blocks, print the XOR value" },
	{ .letter = 'w', .kind = OPT_FLAG,
	  .off = offsetof(struct run_opts, write),
	  .help = "write block_count blocks of the pattern" },
	IO_SOURCE_OPTIONS(struct run_opts, src),
	{ 0 },
};

/* The operands: [file] block_size block_count.  0 or -1 (usage). */
static int run_operands(const struct ctx *c, struct io_source *src,
			uint64_t *bs, uint64_t *count)
{
	static const char *const names[] = { "block_size", "block_count" };
	char **v = c->args;
	int n = c->nargs;

	if (io_operands_check(src, n, v, names, 2, src->device ||
			      src->master ? "run --device -r BLOCK_SIZE "
			      "BLOCK_COUNT" : "run FILE -r|-w BLOCK_SIZE "
			      "BLOCK_COUNT"))
		return -1;
	if (io_source_operand(src, n - 2, v) ||
	    io_parse_block("block size", v[n - 2], bs))
		return -1;
	if (parse_size(v[n - 1], count)) {
		msg("bad block count '%s'", v[n - 1]);
		return -1;
	}
	if (*count && *bs > UINT64_MAX / *count) {
		msg("block_size * block_count overflows");
		return -1;
	}
	return 0;
}

static int run_run(const struct ctx *c, const void *opts)
{
	const struct run_opts *o = opts;
	struct io_source src = o->src;
	uint64_t bs, count;

	if (o->read && o->write) {
		msg("-r and -w exclude each other");
		return EXIT_USAGE;
	}
	if (!o->read && !o->write) {
		msg("say -r (read) or -w (write); see --help");
		return EXIT_USAGE;
	}
	if (run_operands(c, &src, &bs, &count))
		return EXIT_USAGE;
	if (o->write) {
		if (!src.path) {
			msg("-w writes a file, not the device");
			return EXIT_USAGE;
		}
		return do_write(c->out, src.path, bs, count);
	}
	return do_read(c->out, &src, bs, count);
}

OSBENCH_COMMAND(run, "run", 0,
		"read/write N blocks, print the XOR (course step 1)",
		COMMAND_OPTIONS(run_options, struct run_opts), .max_args = 3);
