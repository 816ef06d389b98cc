// SPDX-License-Identifier: GPL-2.0
/*
 * tcpcopy send FILE [options] | tcpcopy recv IP[:port] OUT [options]
 */
#include "tcpcopy.h"
#include "netaddr.h"
#include "util.h"
#include "xfer_cli.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tcpcopy send FILE [-p PORT] [-b SIZE] [-c]\n"
		"       tcpcopy recv a.b.c.d[:port] OUT [-b SIZE] [-w MS] [-c]\n\n"
		"Copy one file over a plain userspace TCP connection: the baseline\n"
		"that master and slave are measured against (make bench-transfer).\n"
		"send listens on PORT (default %d), sends FILE to the first client\n"
		"and closes; recv connects and writes everything until end of\n"
		"stream to OUT (under a temporary name until complete).\n\n"
		"options:\n"
		"  -p, --port PORT    send: the port to listen on\n"
		"  -b, --buffer SIZE  read()/write() buffer (default 1M)\n"
		"  -c, --crc          check the data with CRC32C, as master and slave\n"
		"                     do (both sides must say it)\n"
		"  -w, --wait MS      recv: retry a refused connection for up to MS\n"
		"                     milliseconds (default 0)\n"
		"  -h, --help         this text\n\n"
		"Prints \"Transmission time: T ms, File size: S bytes\", T from the\n"
		"connection being established to the last byte handled.  Exit\n"
		"status: 0 ok, 1 failure, 2 usage, 3 CRC32C mismatch.\n",
		TCPCOPY_DEFAULT_PORT);
}

struct options {
	uint64_t port, buf, wait;
	int crc;
};

/* The options; returns the index of the first operand, exits 0 or 2. */
static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "buffer", required_argument, NULL, 'b' },
		{ "wait", required_argument, NULL, 'w' },
		{ "crc", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:b:w:ch", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_uint(optarg, 1, 65535, &o->port))
				die(EXIT_USAGE, "bad port '%s' (expected 1..65535)",
				    optarg);
			break;
		case 'b':
			if (parse_size(optarg, &o->buf) || o->buf < 1 ||
			    o->buf > 1u << 30)
				die(EXIT_USAGE, "bad buffer size '%s' (expected 1..1G)",
				    optarg);
			break;
		case 'w':
			if (parse_uint(optarg, 0, UINT32_MAX, &o->wait))
				die(EXIT_USAGE, "bad wait '%s' (expected milliseconds)",
				    optarg);
			break;
		case 'c':
			o->crc = 1;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_OK);
		case ':':
			die(EXIT_USAGE, "option %s needs a value", argv[optind - 1]);
		default:
			die(EXIT_USAGE, "unknown option '%s' (see --help)",
			    argv[optind - 1]);
		}
	}
	return optind;
}

int main(int argc, char **argv)
{
	struct options o = { .port = TCPCOPY_DEFAULT_PORT,
			     .buf = XFER_DEFAULT_BUFFER };
	struct in_addr addr;
	uint16_t rport;
	int first, send;

	set_progname(argv[0]);
	first = parse_options(argc, argv, &o);
	argc -= first;
	argv += first;
	send = argc > 0 && !strcmp(argv[0], "send");
	if (!send && !(argc > 0 && !strcmp(argv[0], "recv"))) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (argc != (send ? 2 : 3))
		die(EXIT_USAGE, send ? "usage: tcpcopy send FILE [options]" :
			"usage: tcpcopy recv a.b.c.d[:port] OUT [options]");
	signal(SIGPIPE, SIG_IGN);
	if (send)
		return tcpcopy_send(argv[1], (uint16_t)o.port, (size_t)o.buf,
				    o.crc);
	if (parse_ipv4_port(argv[1], TCPCOPY_DEFAULT_PORT, &addr, &rport))
		return EXIT_USAGE;
	return tcpcopy_recv(addr, rport, argv[2], (size_t)o.buf,
			    (uint32_t)o.wait, o.crc);
}
