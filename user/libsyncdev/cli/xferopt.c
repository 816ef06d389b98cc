// SPDX-License-Identifier: GPL-2.0
#include "xferopt.h"
#include "auth.h"
#include "deadline.h"
#include "util.h"

#include <arpa/inet.h>
#include <string.h>

enum {
	OPT_DEVICE = 256, OPT_PROGRESS, OPT_KEY, OPT_PEER, OPT_NO_SYNC,
	OPT_HANDSHAKE, OPT_COPY,
};

/* The table: each option once, with the bit of the programs that take it. */
static const struct {
	unsigned int bit;
	struct option o;
} table[] = {
	{ XO_BUFFER, { "buffer", required_argument, NULL, 'b' } },
	{ XO_VERBOSE, { "verbose", no_argument, NULL, 'v' } },
	{ XO_DEVICE, { "device", required_argument, NULL, OPT_DEVICE } },
	{ XO_VIA_DEVICE, { "device", optional_argument, NULL, OPT_DEVICE } },
	{ XO_TIMEOUT, { "timeout", required_argument, NULL, 't' } },
	{ XO_WAIT, { "wait", required_argument, NULL, 'w' } },
	{ XO_PROGRESS, { "progress-timeout", required_argument, NULL,
			 OPT_PROGRESS } },
	{ XO_KEY, { "key", required_argument, NULL, OPT_KEY } },
	{ XO_PEER, { "peer", required_argument, NULL, OPT_PEER } },
	{ XO_NO_SYNC, { "no-sync", no_argument, NULL, OPT_NO_SYNC } },
	{ XO_HANDSHAKE, { "handshake-timeout", required_argument, NULL,
			  OPT_HANDSHAKE } },
	{ XO_COPY, { "copy", no_argument, NULL, OPT_COPY } },
};
#define NTABLE (sizeof(table) / sizeof(table[0]))
#define MAX_OWN 16

static int bad_value(const char *what, const char *s, const char *range)
{
	msg("bad %s '%s' (expected %s)", what, s, range);
	return -1;
}

/* An option with a number: its value into *v, or -1 after a message. */
static int parse_number(int c, const char *arg, struct xferopt *v)
{
	uint64_t n;

	switch (c) {
	case 'b':
		if (parse_size(arg, &n) || n < 1 || n > XFER_MAX_BUFFER)
			return bad_value("buffer size", arg,
					 "1..1G, suffixes K M G");
		v->buffer = (size_t)n;
		return 0;
	case OPT_PROGRESS:
		if (parse_uint(arg, 1, XFER_MAX_TIMEOUT_S, &n))
			return bad_value("progress timeout", arg,
					 "seconds, 1..4294967");
		v->progress_s = (uint32_t)n;
		return 0;
	case 't':
		if (parse_uint(arg, 1, UINT32_MAX, &n))
			return bad_value("timeout", arg,
					 "milliseconds, at least 1");
		v->timeout_ms = (uint32_t)n;
		return 0;
	case 'w':
		if (parse_uint(arg, 0, UINT32_MAX, &n))
			return bad_value("wait", arg, "milliseconds");
		v->wait_ms = (uint32_t)n;
		return 0;
	default:	/* OPT_HANDSHAKE */
		if (parse_uint(arg, 1, DEADLINE_HANDSHAKE_MAX_MS, &n))
			return bad_value("handshake timeout", arg,
					 "milliseconds, 1..3600000");
		v->handshake_ms = (uint32_t)n;
		return 0;
	}
}

/* One option of the table into *v: 0, or -1 after a message. */
static int parse_table(int c, const char *arg, struct xferopt *v)
{
	switch (c) {
	case 'v':
		v->verbose = 1;
		return 0;
	case OPT_DEVICE:
		v->via_device = 1;
		if (arg)
			v->device = arg;
		return 0;
	case OPT_KEY:
		v->key_path = arg;
		return 0;
	case OPT_NO_SYNC:
		v->no_sync = 1;
		return 0;
	case OPT_COPY:
		v->copy = 1;
		return 0;
	case OPT_PEER:
		if (inet_pton(AF_INET, arg, &v->peer) != 1 || !v->peer.s_addr)
			return bad_value("peer address", arg,
					 "an IPv4 address a.b.c.d");
		return 0;
	default:
		return parse_number(c, arg, v);
	}
}

/* The bit of the table's option c (its code), 0 if none. */
static unsigned int bit_of(int c, unsigned int set)
{
	size_t i;

	for (i = 0; i < NTABLE; i++)
		if (table[i].o.val == c && (table[i].bit & set))
			return table[i].bit;
	for (i = 0; i < NTABLE; i++)
		if (table[i].o.val == c)
			return table[i].bit;
	return 0;
}

/* The table's entry of option c. */
static const struct option *entry_of(int c)
{
	size_t i;

	for (i = 0; i < NTABLE; i++)
		if (table[i].o.val == c)
			return &table[i].o;
	return NULL;
}

/* An unknown option, one without its value, or one of another program's. */
static int bad_option(int c, char **argv, const char *prog)
{
	const struct option *e = entry_of(c);

	if (c == ':')
		msg("option %s needs a value", argv[optind - 1]);
	else if (e && e->val < 256)
		msg("-%c/--%s is not an option of %s (see --help)", e->val,
		    e->name, prog);
	else if (e)
		msg("--%s is not an option of %s (see --help)", e->name, prog);
	/* optopt is set for unknown short options only. */
	else if (optopt)
		msg("unknown option '-%c' (see --help)", optopt);
	else
		msg("unknown option '%s' (see --help)", argv[optind - 1]);
	return -1;
}

/*
 * getopt_long's table: every option of the table (each name once: the
 * set's spelling of --device first), then the program's own.
 */
static void build_longopts(struct option *lo, unsigned int set,
			   const struct xferopt_own *own)
{
	size_t i, n = 0;

	for (i = 0; i < NTABLE; i++)
		if (table[i].bit & set)
			lo[n++] = table[i].o;
	for (i = 0; i < NTABLE; i++) {
		if (table[i].bit & set)
			continue;
		if (table[i].o.val == OPT_DEVICE &&
		    (set & (XO_DEVICE | XO_VIA_DEVICE)))
			continue;
		if (table[i].bit == XO_VIA_DEVICE)
			continue;	/* XO_DEVICE's entry names it */
		lo[n++] = table[i].o;
	}
	for (i = 0; own && own->longopts[i].name && i < MAX_OWN; i++)
		lo[n++] = own->longopts[i];
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	memset(&lo[n], 0, sizeof(lo[n]));
}

/*
 * getopt_long's letters: the set's with their values, the others' bare
 * (refused by name, their value then an operand never read as one).
 */
static void build_shortopts(char *so, size_t len, unsigned int set,
			    const struct xferopt_own *own)
{
	size_t i, n = 0;

	so[n++] = ':';
	so[n++] = 'h';
	for (i = 0; i < NTABLE; i++) {
		if (table[i].o.val >= 256)
			continue;
		so[n++] = (char)table[i].o.val;
		if ((table[i].bit & set) && table[i].o.has_arg)
			so[n++] = ':';
	}
	snprintf(so + n, len - n, "%s", own ? own->shortopts : "");
}

int xferopt_parse(int argc, char **argv, const char *prog, unsigned int set,
		  const struct xferopt_own *own, struct xferopt *v)
{
	struct option lo[NTABLE + MAX_OWN + 2];
	char shortopts[64];
	unsigned int bit;
	int c, ret;

	build_longopts(lo, set, own);
	build_shortopts(shortopts, sizeof(shortopts), set, own);
	optind = 0;	/* GNU: restart the scan (the unit tests parse often) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		if (c == 'h')
			return XFEROPT_HELP;
		if (c == ':' || c == '?')
			return bad_option(c, argv, prog);
		bit = bit_of(c, set);
		if (bit && !(bit & set))
			return bad_option(c, argv, prog);
		ret = bit ? parse_table(c, optarg, v) :
			    own->parse(c, optarg, own->ctx);
		if (ret)
			return -1;
	}
	return optind;
}

/* The lines of the device's options and of the connection's. */
static void usage_device(FILE *f, unsigned int set, const struct xferopt *def,
			 const char *side_dev)
{
	if (set & XO_DEVICE)
		fprintf(f,
			"      --device PATH  the syncdev device (default %s)\n",
			side_dev);
	if (set & XO_VIA_DEVICE)
		fprintf(f,
			"      --device[=PATH]\n"
			"                     through the syncdev device PATH, not a socket\n"
			"                     (default %s)\n", side_dev);
	if (set & XO_TIMEOUT)
		fprintf(f,
			"  -t, --timeout MS   connect timeout (default: the module's)\n");
	if (set & XO_WAIT)
		fprintf(f,
			"  -w, --wait MS      retry a refused connection (no listener yet)\n"
			"                     for up to MS milliseconds (default %u;\n"
			"                     0: fail at once)\n", def->wait_ms);
}

/* The lines of the timeouts' options. */
static void usage_timeouts(FILE *f, unsigned int set)
{
	if (set & XO_PROGRESS)
		fprintf(f,
			"      --progress-timeout SECONDS\n"
			"                     give up when nothing moves on the connection for\n"
			"                     this long: the other side stalled or its machine\n"
			"                     is gone (default: the module's progress_timeout_ms)\n");
	if (set & XO_HANDSHAKE)
		fprintf(f,
			"      --handshake-timeout MS\n"
			"                     the slave's hello and, with --key, the key proofs\n"
			"                     must all be done within MS milliseconds of the\n"
			"                     connection (default $SYNCDEV_HANDSHAKE_MS, else\n"
			"                     %u)\n", DEADLINE_HANDSHAKE_MS);
}

void xferopt_usage(FILE *f, unsigned int set, const struct xferopt *def,
		   const char *side_dev, const char *peer)
{
	if (set & XO_BUFFER)
		fprintf(f,
			"  -b, --buffer SIZE  bytes per read()/write() or ioctl (default %zuM;\n"
			"                     at most 1G; mmap: at most the device buffer's)\n",
			(def->buffer ? def->buffer : XFER_DEFAULT_BUFFER) >> 20);
	if (set & XO_VERBOSE)
		fprintf(f,
			"  -v, --verbose      one line per file (size, CRC32C)\n");
	usage_device(f, set, def, side_dev);
	usage_timeouts(f, set);
	if (set & XO_KEY)
		fprintf(f,
			"      --key FILE     keyed transfer: both sides prove they hold the\n"
			"                     secret in FILE (%d to %d bytes, yours, mode 0600;\n"
			"                     make one with: umask 077; head -c 32 /dev/urandom\n"
			"                     >FILE) before any data\n",
			AUTH_KEY_MIN, AUTH_KEY_MAX - 1);
	if (set & XO_PEER)
		fprintf(f,
			"      --peer ADDR    the %s must be at IPv4 address ADDR\n", peer);
	if (set & XO_NO_SYNC)
		fprintf(f,
			"      --no-sync      confirm files without flushing them to the disk\n"
			"                     (for benchmarks): a crash of this machine after\n"
			"                     the master's exit 0 may lose or empty them\n");
	if (set & XO_COPY)
		fprintf(f,
			"      --copy         fcntl: read() and write() only, as the course's\n"
			"                     programs, where files of 64 KiB and up otherwise\n"
			"                     go by %s (fewer copies)\n",
			set & XO_NO_SYNC ? "splice()" : "sendfile()");
}
