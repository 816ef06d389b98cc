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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: run <file> -r|-w <block_size> <block_count>\n"
		"       run --device [--master IP[:PORT]] -r <block_size> <block_count>\n\n"
		"-r  read block_count blocks of block_size bytes and print\n"
		"    \"XOR value: %%08x\", the XOR of all 32-bit little-endian\n"
		"    words read (a final partial word zero-padded).  Stops early\n"
		"    at end of file and says how much it read.\n"
		"-w  create or truncate <file> and write block_count blocks of the\n"
		"    reproducible pattern (docs/io.md); prints the XOR value that\n"
		"    reading them back will give.\n"
		"--device  read /dev/slave_device, connected to the master given\n"
		"    by --master (default 127.0.0.1), which runs \"osbench feed\".\n\n"
		"Sizes accept K, M, G suffixes (powers of 1024); block_size is\n"
		"1 byte to 1 GiB.  Time and MiB/s go to stderr.\n");
}

static void summary(const char *verb, uint64_t bytes, uint64_t ns)
{
	double s = (double)ns / 1e9;

	msg("%s %llu bytes in %.6f s, %.1f MiB/s", verb,
	    (unsigned long long)bytes, s, s > 0 ? (double)bytes / MIB / s : 0);
}

static int do_read(const struct io_source *src, size_t bs, uint64_t count)
{
	struct blockreader br;
	uint64_t done, t0, t;
	int fd = io_source_open(src);

	blockreader_init(&br, fd, bs, true);
	t0 = now_ns();
	if (blockreader_read(&br, count, &done))
		die_errno("read from '%s' failed after %llu bytes",
			  io_source_name(src), (unsigned long long)br.offset);
	t = now_ns() - t0;
	close(fd);
	printf("XOR value: %08x\n", br.xor);
	if (done < count)
		msg("end of input after %llu bytes: %llu full blocks and %llu bytes of the %llu blocks asked for",
		    (unsigned long long)br.offset, (unsigned long long)done,
		    (unsigned long long)(br.offset - done * bs),
		    (unsigned long long)count);
	summary("read", br.offset, t);
	blockreader_free(&br);
	return EXIT_OK;
}

static int do_write(const char *path, size_t bs, uint64_t count)
{
	unsigned char *buf = xmalloc(bs);
	uint64_t i, t0, t;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die_errno("cannot create '%s'", path);
	t0 = now_ns();
	for (i = 0; i < count; i++) {
		/* The fill is part of the cost, as it would be for real data. */
		pattern_fill(buf, bs, i * bs);
		if (write_full(fd, buf, bs) < 0)
			die_errno("write to '%s' failed after %llu bytes", path,
				  (unsigned long long)(i * bs));
	}
	t = now_ns() - t0;
	if (close(fd))
		die_errno("close '%s'", path);
	printf("expected XOR value: %08x\n", pattern_xor(count * bs));
	summary("wrote", count * bs, t);
	free(buf);
	return EXIT_OK;
}

int io_run_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		IO_SOURCE_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct io_source src = { 0 };
	uint64_t count;
	size_t bs;
	int c, mode = 0;

	while ((c = getopt_long(argc, argv, "rwh", opts, NULL)) != -1) {
		if (io_source_opt(&src, c, optarg))
			continue;
		switch (c) {
		case 'r':
		case 'w':
			if (mode && mode != c)
				die(EXIT_USAGE, "-r and -w exclude each other");
			mode = c;
			break;
		default:
			io_usage_exit(usage, c);
		}
	}
	if (!mode)
		die(EXIT_USAGE, "say -r (read) or -w (write); see --help");
	argc -= optind;
	argv += optind;
	if (argc < 2)
		die(EXIT_USAGE, "missing block_size and block_count; see --help");
	io_source_operand(&src, argc - 2, argv);
	bs = io_parse_block("block size", argv[argc - 2]);
	if (parse_size(argv[argc - 1], &count))
		die(EXIT_USAGE, "bad block count '%s'", argv[argc - 1]);
	if (count && bs > UINT64_MAX / count)
		die(EXIT_USAGE, "block_size * block_count overflows");
	if (mode == 'w') {
		if (!src.path)
			die(EXIT_USAGE, "-w writes a file, not the device");
		return do_write(src.path, bs, count);
	}
	return do_read(&src, bs, count);
}
