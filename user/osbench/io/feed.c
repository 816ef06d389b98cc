// SPDX-License-Identifier: GPL-2.0
/*
 * osbench feed: the master side of the device mode.  Accept one slave on
 * /dev/master_device and stream the pattern (pattern.h) to it, so that
 * whatever prefix the slave reads has a known XOR value.
 */
#include "device.h"
#include "io.h"
#include "pattern.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: osbench feed [--count BYTES] [--block BYTES]\n\n"
		"Wait for a slave to connect to %s, then write the\n"
		"pattern of docs/io.md to it in --block sized writes (default 1M)\n"
		"until --count bytes are sent, or without --count until the slave\n"
		"closes.  Prints the bytes sent and their XOR value on stderr.\n",
		dev_path(DEV_MASTER));
}

int io_feed_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "count", required_argument, NULL, 'c' },
		{ "block", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t count = UINT64_MAX, sent = 0;
	size_t block = 1u << 20, n;
	const char *path = dev_path(DEV_MASTER);
	unsigned char *buf;
	int c, fd;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (parse_size(optarg, &count))
				die(EXIT_USAGE, "bad --count '%s'", optarg);
			break;
		case 'b':
			block = io_parse_block("--block", optarg);
			break;
		default:
			io_usage_exit(usage, c);
		}
	}
	if (optind != argc)
		die(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	buf = xmalloc(block);
	/* A slave that closes must end the loop, not the process. */
	signal(SIGPIPE, SIG_IGN);

	fd = dev_open(path);
	if (fd < 0 || dev_accept(fd, path))
		exit(EXIT_FAIL);
	while (sent < count) {
		n = count - sent < block ? (size_t)(count - sent) : block;
		pattern_fill(buf, n, sent);
		if (write_full(fd, buf, n) < 0) {
			if (dev_peer_gone(errno))
				break;
			die_errno("write to %s failed after %llu bytes",
				  path, (unsigned long long)sent);
		}
		sent += n;
	}
	close(fd);
	free(buf);
	msg("sent %llu bytes%s, XOR value %08x", (unsigned long long)sent,
	    sent < count && count != UINT64_MAX ? " (the slave closed early)" :
						  "",
	    pattern_xor(sent));
	return EXIT_OK;
}
