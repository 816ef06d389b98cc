// SPDX-License-Identifier: GPL-2.0
#include "device.h"
#include "netaddr.h"
#include "util.h"
#include "xfer.h"
#include "xfer_cli.h"

#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "syncdev.h"

static void xfer_usage(FILE *f, enum xfer_role role)
{
	if (role == ROLE_MASTER)
		fprintf(f,
			"usage: master N file1 ... fileN fcntl|mmap [options]\n\n"
			"Wait for one slave on /dev/master_device and send it the N files\n"
			"over one connection, each followed by its CRC32C.\n\n"
			"  fcntl             read() the files, write() to the device\n"
			"  mmap              mmap the files, memcpy into the mapped device\n"
			"                    buffer, SYNCDEV_IOC_SEND\n");
	else
		fprintf(f,
			"usage: slave N file1 ... fileN fcntl|mmap a.b.c.d[:port] [options]\n\n"
			"Connect /dev/slave_device to the master at a.b.c.d (port: the\n"
			"module's, 2325 by default) and receive N files into file1..fileN.\n"
			"Each file appears under its name only once its CRC32C verified.\n\n"
			"  fcntl             read() from the device, write() the files\n"
			"  mmap              SYNCDEV_IOC_RECV into the mapped device buffer,\n"
			"                    memcpy into the mmapped files\n");
	fprintf(f,
		"\noptions:\n"
		"  -b, --buffer SIZE  bytes per read()/write() or ioctl (default 1M);\n"
		"                     mmap: at most the device buffer's size\n"
		"  -v, --verbose      one line per file (size, CRC32C)\n"
		"      --device PATH  device to use (default %s)\n",
		role == ROLE_MASTER ? SYNCDEV_MASTER_PATH : SYNCDEV_SLAVE_PATH);
	fprintf(f,
		"      --progress-timeout SECONDS\n"
		"                     give up when nothing moves on the connection for\n"
		"                     this long: the %s stalled or its machine is gone\n"
		"                     (default: the module's progress_timeout_ms)\n",
		role == ROLE_MASTER ? "slave" : "master");
	if (role == ROLE_SLAVE)
		fprintf(f,
			"  -t, --timeout MS   connect timeout (default: the module's)\n"
			"  -w, --wait MS      retry a refused connection (no master yet)\n"
			"                     for up to MS milliseconds (default 30000;\n"
			"                     0: fail at once)\n");
	fprintf(f, "  -h, --help         this text\n\n");
	if (role == ROLE_MASTER)
		fprintf(f,
			"Prints \"Transmission time: T ms, File size: S bytes\": S is the total\n"
			"of all files, T runs from the connection being established to the\n"
			"slave's confirmation.  Exit status: 0 only when the slave confirmed\n"
			"that every file arrived intact and is in place; 1 failure (the\n"
			"slave's reason is printed), 2 usage.\n");
	else
		fprintf(f,
			"Prints \"Transmission time: T ms, File size: S bytes\": S is the total\n"
			"of all files, T runs from the connection being established to the\n"
			"last file verified and renamed.  Then tells the master the outcome.\n"
			"Exit status: 0 every file verified and in place, and the master told;\n"
			"1 failure, 2 usage (e.g. the same output twice), 3 corrupt data (bad\n"
			"framing or CRC mismatch).\n");
}

static int bad_number(const char *what, const char *s, const char *range)
{
	msg("bad %s '%s' (expected %s)", what, s, range);
	return -1;
}

static int is_method(const char *s)
{
	return !strcmp(s, "fcntl") || !strcmp(s, "mmap");
}

/*
 * N files, the method and (slave) the IP do not add up: say what is
 * missing or left over, found from where the method word stands.
 */
static int explain_count(uint64_t n, char **rest, int nrest, int slave)
{
	const char *ip = slave ? " and the master's IP address" : "";
	int k = 0;

	while (k < nrest && !is_method(rest[k]))
		k++;
	if (k == nrest && (uint64_t)nrest == n)
		msg("missing the method (fcntl or mmap)%s after the %d file%s",
		    ip, nrest, nrest == 1 ? "" : "s");
	else if (k == nrest && (uint64_t)nrest < n)
		msg("N is %llu but only %d file%s follow%s it, and no method "
		    "(fcntl or mmap)%s", (unsigned long long)n, nrest,
		    nrest == 1 ? "" : "s", nrest == 1 ? "s" : "", ip);
	else if (k == nrest)
		msg("N is %llu but %d arguments follow it and none is the "
		    "method (fcntl or mmap)", (unsigned long long)n, nrest);
	else if ((uint64_t)k != n)
		msg("N is %llu but %d files were given before the method '%s'",
		    (unsigned long long)n, k, rest[k]);
	else if (slave && k + 1 == nrest)
		msg("missing the master's IP address after the method '%s'",
		    rest[k]);
	else
		msg("unexpected argument '%s' after %s '%s'",
		    rest[k + 1 + slave], slave ? "the address" : "the method",
		    rest[k + slave]);
	return -1;
}

/* The positional arguments: N, the files, the method, the slave's IP. */
static int parse_positional(int argc, char **argv, struct xfer_args *a)
{
	int extra = a->role == ROLE_SLAVE ? 2 : 1;
	const char *method;
	uint64_t n;

	if (argc < 1) {
		msg("missing N (see --help)");
		return -1;
	}
	if (parse_uint(argv[0], 1, 1u << 20, &n))
		return bad_number("file count N", argv[0],
				  "a number 1..1048576");
	if ((uint64_t)argc - 1 != n + (uint64_t)extra)
		return explain_count(n, argv + 1, argc - 1, extra == 2);
	a->nfiles = (unsigned int)n;
	a->files = argv + 1;
	method = argv[1 + n];
	if (!strcmp(method, "fcntl")) {
		a->method = METHOD_FCNTL;
	} else if (!strcmp(method, "mmap")) {
		a->method = METHOD_MMAP;
	} else {
		msg("bad method '%s': expected fcntl or mmap", method);
		return -1;
	}
	if (a->role == ROLE_SLAVE &&
	    parse_ipv4_port(argv[2 + n], 0, &a->addr, &a->port))
		return -1;
	return 0;
}

enum { OPT_DEVICE = 256, OPT_PROGRESS };

/* An option with a number: its value into *a, or -1 after a message. */
static int parse_number_opt(int c, const char *arg, struct xfer_args *a)
{
	uint64_t v;

	if (a->role != ROLE_SLAVE && (c == 't' || c == 'w')) {
		msg("--timeout and --wait are options of the slave only");
		return -1;
	}
	switch (c) {
	case 'b':
		if (parse_size(arg, &v) || v < 1 || v > 1u << 30)
			return bad_number("buffer size", arg,
					  "1..1G, suffixes K M G");
		a->buffer = (size_t)v;
		break;
	case OPT_PROGRESS:
		if (parse_uint(arg, 1, XFER_MAX_TIMEOUT_S, &v))
			return bad_number("progress timeout", arg,
					  "seconds, 1..4294967");
		a->progress_s = (uint32_t)v;
		break;
	case 't':
		if (parse_uint(arg, 1, UINT32_MAX, &v))
			return bad_number("timeout", arg,
					  "milliseconds, at least 1");
		a->timeout_ms = (uint32_t)v;
		break;
	case 'w':
		if (parse_uint(arg, 0, UINT32_MAX, &v))
			return bad_number("wait", arg, "milliseconds");
		a->wait_ms = (uint32_t)v;
		break;
	}
	return 0;
}

/* An unknown option or one without its value: the message; -1. */
static int bad_option(int c, char **argv)
{
	if (c == ':')
		msg("option %s needs a value", argv[optind - 1]);
	/* optopt is set for unknown short options only. */
	else if (optopt)
		msg("unknown option '-%c' (see --help)", optopt);
	else
		msg("unknown option '%s' (see --help)", argv[optind - 1]);
	return -1;
}

int xfer_parse_args(int argc, char **argv, enum xfer_role role,
		    struct xfer_args *a)
{
	static const struct option longopts[] = {
		{ "buffer", required_argument, NULL, 'b' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "timeout", required_argument, NULL, 't' },
		{ "wait", required_argument, NULL, 'w' },
		{ "progress-timeout", required_argument, NULL, OPT_PROGRESS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *shortopts = role == ROLE_SLAVE ? ":b:vt:w:h" : ":b:vh";
	int c;

	memset(a, 0, sizeof(*a));
	a->role = role;
	a->device = role == ROLE_MASTER ? SYNCDEV_MASTER_PATH :
					   SYNCDEV_SLAVE_PATH;
	if (role == ROLE_SLAVE)
		a->wait_ms = XFER_DEFAULT_WAIT_MS;
	optind = 0;	/* GNU: restart the scan (the unit tests parse often) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			a->verbose = 1;
			break;
		case OPT_DEVICE:
			a->device = optarg;
			break;
		case 'h':
			xfer_usage(stdout, role);
			return 1;
		case 'b': case 't': case 'w': case OPT_PROGRESS:
			if (parse_number_opt(c, optarg, a))
				return -1;
			break;
		default:
			return bad_option(c, argv);
		}
	}
	return parse_positional(argc - optind, argv + optind, a);
}

int xfer_open_device(const struct xfer_args *a, struct devbuf *b,
		     struct xfer_opts *o)
{
	size_t size = a->buffer;
	int fd;

	/*
	 * mmap mode too: the SEND ioctl copies, so a chunk of the device
	 * buffer is free again as soon as it returns, and 1 MiB chunks let
	 * one side copy and checksum while the other receives.  Filling all
	 * of an 8 MiB buffer before each send made the two sides take turns.
	 */
	if (!size)
		size = XFER_DEFAULT_BUFFER;
	fd = dev_open(a->device);
	if (fd < 0)
		return -1;
	if ((a->progress_s && dev_set_timeout(fd, a->device, a->progress_s)) ||
	    devbuf_open(b, fd, a->method, size)) {
		close(fd);
		return -1;
	}
	o->verbose = a->verbose;
	o->print_pages = a->method == METHOD_MMAP;
	return fd;
}

void xfer_print_time(uint64_t elapsed_ns, uint64_t bytes)
{
	printf("Transmission time: %f ms, File size: %zu bytes\n",
	       (double)elapsed_ns / 1e6, (size_t)bytes);
}
