// SPDX-License-Identifier: GPL-2.0
/*
 * tcpcopy send FILE [options] | tcpcopy recv IP[:port] OUT [options]
 */
#include "tcpcopy.h"
#include "deadline.h"
#include "netaddr.h"
#include "util.h"
#include "cli/xferopt.h"

#include <getopt.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* The transfer options' defaults (--wait: none, fail at once). */
static const struct xferopt defaults = { .buffer = XFER_DEFAULT_BUFFER };

/* The options of --help, and the output and exit statuses. */
static void usage_options(FILE *f)
{
	fprintf(f,
		"options:\n"
		"  -p, --port PORT    send: the port to listen on\n"
		"  -c, --crc          check the data with CRC32C, as master and slave\n"
		"                     do (both sides must say it)\n"
		"  -z, --zerocopy     the kernel's zero-copy path: send with\n"
		"                     sendfile(), recv with splice() from the\n"
		"                     socket through a pipe into the file (one\n"
		"                     file, no -c or --key); with --device,\n"
		"                     sendfile() into the master device and\n"
		"                     read() from the slave device\n"
		"      --tar          the files as tar | nc moves them (above); both\n"
		"                     sides must say it\n"
		"      --rename       recv --tar: temporary names, renamed at the end\n");
	xferopt_usage(f, XO_TCPCOPY, &defaults,
		      "send /dev/master_device, recv /dev/slave_device", "peer");
	fprintf(f,
		"  -h, --help         this text\n\n"
		"--wait is recv's.  On a plain socket there is no progress timeout\n"
		"unless given.  Through the device the port is the module's unless\n"
		"given, and send ignores -p.  With --key the data and the answer carry\n"
		"the key's HMAC-SHA-256; a peer that fails the handshake, or is not\n"
		"done within $SYNCDEV_HANDSHAKE_MS (else %u) ms of the connection,\n"
		"ends the program with exit 4.\n\n"
		"Without --key, anyone who can reach the port can take the other\n"
		"side's place and fake the data or the answer.\n\n"
		"Prints \"Transmission time: T ms, File size: S bytes\", T from the\n"
		"connection being established (with --key: from the end of its\n"
		"handshake) to the last byte handled (send: to the receiver's\n"
		"answer).  Exit status: 0 ok (send: the receiver confirmed),\n"
		"1 failure, 2 usage, 3 CRC32C or MAC mismatch, 4 the peer failed\n"
		"the key handshake.\n",
		DEADLINE_HANDSHAKE_MS);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tcpcopy send FILE [-p PORT] [-b SIZE] [-c | --device | -z] [--progress-timeout S]\n"
		"       tcpcopy recv a.b.c.d[:port] OUT [-b SIZE] [-w MS] [-c | --device | -z]\n"
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
		"flush to the disk, no CRC; -c, --device and --key are refused there.\n"
		"With --rename, recv writes them as the slave does, each under a\n"
		"temporary name renamed into place after the last (still no flush\n"
		"and no CRC): what never showing a partial file costs.\n\n"
		"The options -b, -w, --device, --progress-timeout and --key are\n"
		"master's and slave's, with the same meaning (xferopt).\n\n",
		TCPCOPY_DEFAULT_PORT);
	usage_options(f);
}

enum { OPT_RENAME = XFEROPT_OWN, OPT_TAR };

/* What tcpcopy's own options set (struct xferopt_own's ctx). */
struct own_opts {
	uint64_t port;
	struct tcpcopy_opts *o;
};

/* One of tcpcopy's own options into ctx: 0, or -1 after a message. */
static int parse_own(int c, const char *arg, void *ctx)
{
	struct own_opts *w = ctx;

	switch (c) {
	case 'p':
		if (parse_uint(arg, 1, 65535, &w->port)) {
			msg("bad port '%s' (expected 1..65535)", arg);
			return -1;
		}
		break;
	case 'c':
		w->o->crc = 1;
		break;
	case 'z':
		w->o->zerocopy = 1;
		break;
	case OPT_TAR:
		w->o->tar = 1;
		break;
	case OPT_RENAME:
		w->o->rename = 1;
		break;
	}
	return 0;
}

/* The transfer options (xferopt.h) into *o. */
static void take_xferopt(const struct xferopt *x, struct tcpcopy_opts *o)
{
	o->bufsize = x->buffer;
	o->wait_ms = x->wait_ms;
	o->progress_s = x->progress_s;
	o->device = x->via_device;
	o->device_path = x->device;
	o->key_path = x->key_path;
}

/*
 * The options into *o and *port; the index of the first operand, or
 * exits (0 after --help, EXIT_USAGE after a message).
 */
static int parse_options(int argc, char **argv, uint64_t *port,
			 struct tcpcopy_opts *o)
{
	static const struct option own_long[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "crc", no_argument, NULL, 'c' },
		{ "zerocopy", no_argument, NULL, 'z' },
		{ "tar", no_argument, NULL, OPT_TAR },
		{ "rename", no_argument, NULL, OPT_RENAME },
		{ NULL, 0, NULL, 0 },
	};
	struct own_opts w = { .port = TCPCOPY_DEFAULT_PORT, .o = o };
	const struct xferopt_own own = { own_long, "p:cz", parse_own, &w };
	struct xferopt x = defaults;
	int first = xferopt_parse(argc, argv, "tcpcopy", XO_TCPCOPY, &own, &x);

	if (first == XFEROPT_HELP) {
		usage(stdout);
		exit(EXIT_OK);
	}
	if (first < 0)
		exit(EXIT_USAGE);
	take_xferopt(&x, o);
	*port = w.port;
	return first;
}

/* Options that do not go together: exits with EXIT_USAGE. */
static void check_modes(const struct tcpcopy_opts *o, int send)
{
	if (o->tar && (o->crc || o->device || o->key_path))
		die(EXIT_USAGE, "--tar (or several files) is plain TCP only: no --crc, --device or --key");
	if (o->zerocopy && (o->crc || o->key_path || o->tar))
		die(EXIT_USAGE, "--zerocopy is one file without checks: no --crc, --key or --tar");
	if (o->rename && (send || !o->tar))
		die(EXIT_USAGE, "--rename is for recv --tar (or recv with several files)");
}

int main(int argc, char **argv)
{
	static struct tcpcopy_opts o;
	uint64_t port;
	struct in_addr addr;
	uint16_t rport;
	int first, send;

	set_progname(argv[0]);
	first = parse_options(argc, argv, &port, &o);
	argc -= first;
	argv += first;
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
