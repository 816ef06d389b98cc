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
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct feed_opts {
	uint64_t count;
	uint64_t block;
};

static const struct opt feed_options[] = {
	{ .name = "count", .kind = OPT_SIZE, .arg = "BYTES",
	  .off = offsetof(struct feed_opts, count),
	  .help = "bytes to send (default: until the slave closes)" },
	{ .name = "block", IO_BLOCK, .def = "1M",
	  .off = offsetof(struct feed_opts, block),
	  .help = "bytes per write" },
	{ 0 },
};

/* The pattern from offset 0 until count bytes or the slave leaves. */
static int feed_stream(int fd, const char *path, unsigned char *buf,
		       size_t block, uint64_t count, uint64_t *sent)
{
	size_t n;

	for (*sent = 0; *sent < count; *sent += n) {
		n = count - *sent < block ? (size_t)(count - *sent) : block;
		pattern_fill(buf, n, *sent);
		if (write_full(fd, buf, n) < 0) {
			if (dev_peer_gone(errno))
				return 0;
			msg_errno("write to %s failed after %llu bytes",
				  path, (unsigned long long)*sent);
			return -1;
		}
	}
	return 0;
}

static const char usage[] =
	"usage: osbench feed [--count BYTES] [--block BYTES]\n\n"
	"Wait for a slave to connect to /dev/master_device, then write the\n"
	"pattern of docs/io.md to it in --block sized writes until --count\n"
	"bytes are sent, or without --count until the slave closes.  Prints\n"
	"the bytes sent and their XOR value on stderr.\n";

static int feed_run(const struct ctx *c, const void *opts)
{
	const struct feed_opts *o = opts;
	uint64_t count = o->count ? o->count : UINT64_MAX, sent = 0;
	const char *path = dev_path(DEV_MASTER);
	unsigned char *buf;
	int fd, rc;

	(void)c;
	/* A slave that closes must end the loop, not the process. */
	signal(SIGPIPE, SIG_IGN);
	fd = dev_open(path);
	if (fd < 0)
		return EXIT_FAIL;
	if (dev_accept(fd, path)) {
		close(fd);
		return EXIT_FAIL;
	}
	buf = xmalloc(o->block);
	rc = feed_stream(fd, path, buf, o->block, count, &sent);
	close(fd);
	free(buf);
	if (rc)
		return EXIT_FAIL;
	msg("sent %llu bytes%s, XOR value %08x", (unsigned long long)sent,
	    sent < count && count != UINT64_MAX ? " (the slave closed early)" :
						  "",
	    pattern_xor(sent));
	return EXIT_OK;
}

OSBENCH_COMMAND(feed, "feed", 0,
		"master side of sweep --device: stream the pattern",
		COMMAND_OPTIONS(feed_options, struct feed_opts));
