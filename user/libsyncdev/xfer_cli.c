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
	if (role == ROLE_SLAVE)
		fprintf(f,
			"  -t, --timeout MS   connect timeout (default: the module's)\n"
			"  -w, --wait MS      retry a refused connection for up to MS\n"
			"                     milliseconds (default 0: fail at once)\n");
	fprintf(f,
		"  -h, --help         this text\n\n"
		"Prints \"Transmission time: T ms, File size: S bytes\": S is the total\n"
		"of all files, T runs from the connection being established to the\n"
		"last byte handled.  Exit status: 0 ok, 1 failure, 2 usage,\n"
		"3 corrupt data (bad framing or CRC mismatch).\n");
}

static int bad_number(const char *what, const char *s, const char *range)
{
	msg("bad %s '%s' (expected %s)", what, s, range);
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
	if ((uint64_t)argc - 1 != n + (uint64_t)extra) {
		if (argc - 1 - extra < 0)
			msg("N is %llu but too few arguments follow: expected %llu files, then fcntl|mmap%s",
			    (unsigned long long)n, (unsigned long long)n,
			    extra == 2 ? " and the master's address" : "");
		else
			msg("N is %llu but %d files were given (expected: N files, then fcntl|mmap%s)",
			    (unsigned long long)n, argc - 1 - extra,
			    extra == 2 ? " and the master's address" : "");
		return -1;
	}
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

enum { OPT_DEVICE = 256 };

/* --timeout and --wait: the slave's only.  0, or -1 after a message. */
static int slave_option(int c, const char *arg, struct xfer_args *a)
{
	uint64_t v;

	if (a->role != ROLE_SLAVE) {
		msg("--timeout and --wait are options of the slave only");
		return -1;
	}
	if (c == 't') {
		if (parse_uint(arg, 1, UINT32_MAX, &v))
			return bad_number("timeout", arg,
					  "milliseconds, at least 1");
		a->timeout_ms = (uint32_t)v;
	} else {
		if (parse_uint(arg, 0, UINT32_MAX, &v))
			return bad_number("wait", arg, "milliseconds");
		a->wait_ms = (uint32_t)v;
	}
	return 0;
}

/* One option from getopt_long: 0, 1 after --help, -1 after a message. */
static int one_option(int c, char **argv, struct xfer_args *a)
{
	uint64_t v;

	switch (c) {
	case 'b':
		if (parse_size(optarg, &v) || v < 1 || v > 1u << 30)
			return bad_number("buffer size", optarg,
					  "1..1G, suffixes K M G");
		a->buffer = (size_t)v;
		return 0;
	case 'v':
		a->verbose = 1;
		return 0;
	case OPT_DEVICE:
		a->device = optarg;
		return 0;
	case 't':
	case 'w':
		return slave_option(c, optarg, a);
	case 'h':
		xfer_usage(stdout, a->role);
		return 1;
	case ':':
		msg("option %s needs a value", argv[optind - 1]);
		return -1;
	}
	/* optopt is set for unknown short options only. */
	if (optopt)
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *shortopts = role == ROLE_SLAVE ? ":b:vt:w:h" : ":b:vh";
	int c, rc;

	memset(a, 0, sizeof(*a));
	a->role = role;
	a->device = role == ROLE_MASTER ? SYNCDEV_MASTER_PATH :
					   SYNCDEV_SLAVE_PATH;
	optind = 0;	/* GNU: restart the scan (the unit tests parse often) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		rc = one_option(c, argv, a);
		if (rc)
			return rc;
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
	if (devbuf_open(b, fd, a->method, size)) {
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
