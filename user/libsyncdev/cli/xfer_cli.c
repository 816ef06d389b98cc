// SPDX-License-Identifier: GPL-2.0
#include "deadline.h"
#include "device.h"
#include "netaddr.h"
#include "util.h"
#include "xfer.h"
#include "xfer_cli.h"
#include "xferopt.h"

#include <string.h>
#include <unistd.h>

#include "syncdev_abi.h"

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

int xfer_parse_args(int argc, char **argv, enum xfer_role role,
		    struct xfer_args *a)
{
	int slave = role == ROLE_SLAVE;
	int first;

	memset(a, 0, sizeof(*a));
	a->role = role;
	a->opt.device = slave ? SYNCDEV_SLAVE_PATH : SYNCDEV_MASTER_PATH;
	if (slave)
		a->opt.wait_ms = XFER_DEFAULT_WAIT_MS;
	a->opt.handshake_ms = deadline_handshake_ms();
	first = xferopt_parse(argc, argv, slave ? "slave" : "master",
			      slave ? XO_SLAVE : XO_MASTER, NULL, &a->opt);
	if (first == XFEROPT_HELP)
		return 1;
	if (first < 0 || parse_positional(argc - first, argv + first, a))
		return -1;
	if (a->opt.copy && a->method != METHOD_FCNTL) {
		msg("--copy is for the fcntl method: mmap copies through the device's buffer");
		return -1;
	}
	return 0;
}

int xfer_open_device(const struct xfer_args *a, struct devbuf *b,
		     struct xfer_opts *o)
{
	size_t size = a->opt.buffer;
	int fd;

	/*
	 * mmap mode too: the SEND ioctl copies, so a chunk of the device
	 * buffer is free again as soon as it returns, and 1 MiB chunks let
	 * one side copy and checksum while the other receives.  Filling all
	 * of an 8 MiB buffer before each send made the two sides take turns.
	 */
	if (!size)
		size = XFER_DEFAULT_BUFFER;
	fd = dev_open(a->opt.device);
	if (fd < 0)
		return -1;
	if ((a->opt.progress_s && dev_set_timeout(fd, a->opt.device, a->opt.progress_s)) ||
	    (a->opt.peer.s_addr && dev_set_peer(fd, a->opt.device, a->opt.peer)) ||
	    devbuf_open(b, fd, a->method, size)) {
		close(fd);
		return -1;
	}
	o->verbose = a->opt.verbose;
	o->print_pages = a->method == METHOD_MMAP;
	o->auth = NULL;
	o->absent = NULL;
	o->copy = a->opt.copy;
	return fd;
}

void xfer_print_time(uint64_t elapsed_ns, uint64_t bytes)
{
	printf("Transmission time: %f ms, File size: %zu bytes\n",
	       (double)elapsed_ns / 1e6, (size_t)bytes);
}

void xfer_cli_usage_common(FILE *f, enum xfer_role role)
{
	int slave = role == ROLE_SLAVE;
	struct xferopt def = { .wait_ms = XFER_DEFAULT_WAIT_MS };

	fprintf(f, "\noptions:\n");
	xferopt_usage(f, slave ? XO_SLAVE : XO_MASTER, &def,
		      slave ? SYNCDEV_SLAVE_PATH : SYNCDEV_MASTER_PATH,
		      slave ? "master" : "slave");
}
