// SPDX-License-Identifier: GPL-2.0
/*
 * tcpcopy send FILE [options] | tcpcopy recv IP[:port] OUT [options]
 */
#include "tcpcopy.h"
#include "deadline.h"
#include "netaddr.h"
#include "util.h"
#include "xfer_cli.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* The options of --help, and the output and exit statuses. */
static void usage_options(FILE *f)
{
	fprintf(f,
		"options:\n"
		"  -p, --port PORT    send: the port to listen on\n"
		"  -b, --buffer SIZE  read()/write() buffer (default %uM)\n"
		"  -c, --crc          check the data with CRC32C, as master and slave\n"
		"                     do (both sides must say it)\n"
		"  -w, --wait MS      recv: retry a refused connection for up to MS\n"
		"                     milliseconds (default 0)\n"
		"      --progress-timeout SECONDS\n"
		"                     give up when nothing moves on the connection\n"
		"                     for this long (default: no limit; with -d the\n"
		"                     module's progress_timeout_ms)\n"
		"  -d, --device       the same copy, size and answer through syncdev:\n"
		"                     send on /dev/master_device, recv on\n"
		"                     /dev/slave_device (port: the module's unless\n"
		"                     given; -p is ignored by send)\n"
		"      --key FILE     keyed, as master and slave --key: both prove\n"
		"                     the secret in FILE before any data, the data\n"
		"                     and the answer carry its HMAC-SHA-256; a\n"
		"                     peer that fails, or is not done within\n"
		"                     $SYNCDEV_HANDSHAKE_MS (else %u) ms of the\n"
		"                     connection, ends the program with exit 4\n"
		"  -z, --zerocopy     the kernel's zero-copy path: send with\n"
		"                     sendfile(), recv with splice() from the\n"
		"                     socket through a pipe into the file (plain\n"
		"                     TCP, one file, no -c, -d or --key)\n"
		"  -t, --tar          the files as tar | nc moves them (above); both\n"
		"                     sides must say it\n"
		"      --rename       recv --tar: temporary names, renamed at the end\n"
		"  -h, --help         this text\n\n"
		"Without --key, anyone who can reach the port can take the other\n"
		"side's place and fake the data or the answer.\n\n"
		"Prints \"Transmission time: T ms, File size: S bytes\", T from the\n"
		"connection being established (with --key: from the end of its\n"
		"handshake) to the last byte handled (send: to the receiver's\n"
		"answer).  Exit status: 0 ok (send: the receiver confirmed),\n"
		"1 failure, 2 usage, 3 CRC32C or MAC mismatch, 4 the peer failed\n"
		"the key handshake.\n",
		XFER_DEFAULT_BUFFER >> 20, DEADLINE_HANDSHAKE_MS);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tcpcopy send FILE [-p PORT] [-b SIZE] [-c | -d | -z] [--progress-timeout S]\n"
		"       tcpcopy recv a.b.c.d[:port] OUT [-b SIZE] [-w MS] [-c | -d | -z]\n"
		"                                          [--progress-timeout S]\n"
		"       tcpcopy send FILE... --tar [-p PORT] [-b SIZE]\n"
		"       tcpcopy recv a.b.c.d[:port] OUT... --tar [--rename] [-b SIZE] [-w MS]\n\n"
		"Copy one file over a plain userspace TCP connection: the baseline\n"
		"that master and slave are measured against (make bench-transfer).\n"
		"send listens on PORT (default %d), sends the size and FILE to the\n"
		"first client and waits for its answer; recv connects, writes the\n"
		"data to OUT (under a temporary name until complete) and answers\n"
		"that the file is in place, or why not, as the slave answers the\n"
		"master.\n\n"
		"With --tar (implied by several files: the \"tar | nc\" baseline of\n"
		"osbench transfer --files): one connection, the file count, each\n"
		"file's size then its data, and each written as tar -x writes it:\n"
		"open, write, close under its final name, no temporary file, no\n"
		"flush to the disk, no CRC; -c, -d and --key are refused there.\n"
		"With --rename, recv writes them as the slave does, each under a\n"
		"temporary name renamed into place after the last (still no flush\n"
		"and no CRC): what never showing a partial file costs.\n\n",
		TCPCOPY_DEFAULT_PORT);
	usage_options(f);
}

enum { OPT_PROGRESS = 256, OPT_KEY, OPT_RENAME };

/* One option into *port or *o; exits with EXIT_USAGE on a bad one. */
static void parse_option(int c, char **argv, uint64_t *port,
			 struct tcpcopy_opts *o)
{
	uint64_t v;

	switch (c) {
	case 'p':
		if (parse_uint(optarg, 1, 65535, port))
			die(EXIT_USAGE, "bad port '%s' (expected 1..65535)",
			    optarg);
		break;
	case 'b':
		if (parse_size(optarg, &v) || v < 1 || v > 1u << 30)
			die(EXIT_USAGE, "bad buffer size '%s' (expected 1..1G)",
			    optarg);
		o->bufsize = (size_t)v;
		break;
	case 'w':
		if (parse_uint(optarg, 0, UINT32_MAX, &v))
			die(EXIT_USAGE, "bad wait '%s' (expected milliseconds)",
			    optarg);
		o->wait_ms = (uint32_t)v;
		break;
	case OPT_PROGRESS:
		if (parse_uint(optarg, 1, XFER_MAX_TIMEOUT_S, &v))
			die(EXIT_USAGE, "bad progress timeout '%s' (expected seconds, 1..%u)",
			    optarg, XFER_MAX_TIMEOUT_S);
		o->progress_s = (uint32_t)v;
		break;
	case 'c':
		o->crc = 1;
		break;
	case OPT_KEY:
		o->key_path = optarg;
		break;
	case 'd':
		o->device = 1;
		break;
	case 'z':
		o->zerocopy = 1;
		break;
	case 't':
		o->tar = 1;
		break;
	case OPT_RENAME:
		o->rename = 1;
		break;
	case ':':
		die(EXIT_USAGE, "option %s needs a value", argv[optind - 1]);
	default:
		die(EXIT_USAGE, "unknown option '%s' (see --help)",
		    argv[optind - 1]);
	}
}

/* Options that do not go together: exits with EXIT_USAGE. */
static void check_modes(const struct tcpcopy_opts *o, int send)
{
	if (o->tar && (o->crc || o->device || o->key_path))
		die(EXIT_USAGE, "--tar (or several files) is plain TCP only: no --crc, --device or --key");
	if (o->zerocopy && (o->crc || o->device || o->key_path || o->tar))
		die(EXIT_USAGE, "--zerocopy is one file over plain TCP: no --crc, --device, --key or --tar");
	if (o->rename && (send || !o->tar))
		die(EXIT_USAGE, "--rename is for recv --tar (or recv with several files)");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "buffer", required_argument, NULL, 'b' },
		{ "wait", required_argument, NULL, 'w' },
		{ "crc", no_argument, NULL, 'c' },
		{ "device", no_argument, NULL, 'd' },
		{ "tar", no_argument, NULL, 't' }, { "zerocopy", no_argument, NULL, 'z' },
		{ "rename", no_argument, NULL, OPT_RENAME },
		{ "progress-timeout", required_argument, NULL, OPT_PROGRESS },
		{ "key", required_argument, NULL, OPT_KEY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct tcpcopy_opts o = { .bufsize = XFER_DEFAULT_BUFFER };
	uint64_t port = TCPCOPY_DEFAULT_PORT;
	struct in_addr addr;
	uint16_t rport;
	int c, send;

	set_progname(argv[0]);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:b:w:cdtzh", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		parse_option(c, argv, &port, &o);
	}
	argc -= optind;
	argv += optind;
	send = argc > 0 && !strcmp(argv[0], "send");
	if (!send && !(argc > 0 && !strcmp(argv[0], "recv"))) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (argc < (send ? 2 : 3))
		die(EXIT_USAGE, send ? "usage: tcpcopy send FILE... [options]" :
			"usage: tcpcopy recv a.b.c.d[:port] OUT... [options]");
	o.tar |= argc > (send ? 2 : 3);
	check_modes(&o, send);
	if (o.key_path && auth_load_key(o.key_path, &o.key))
		return EXIT_FAIL;
	signal(SIGPIPE, SIG_IGN);
	if (send && o.tar)
		return tcpcopy_send_files(argv + 1, (unsigned int)argc - 1,
					  (uint16_t)port, &o);
	if (send)
		return tcpcopy_send(argv[1], (uint16_t)port, &o);
	/* Through the device, the port defaults to the module's (0). */
	if (parse_ipv4_port(argv[1], o.device ? 0 : TCPCOPY_DEFAULT_PORT,
			    &addr, &rport))
		return EXIT_USAGE;
	if (o.tar)
		return tcpcopy_recv_files(addr, rport, argv + 2,
					  (unsigned int)argc - 2, &o);
	return tcpcopy_recv(addr, rport, argv[2], &o);
}
