/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line of master and slave, in the course's syntax:
 *
 *	master N file1 ... fileN fcntl|mmap [options]
 *	slave  N file1 ... fileN fcntl|mmap a.b.c.d[:port] [options]
 *
 * and the one line of output both print.
 */
#ifndef SYNCDEV_XFER_CLI_H
#define SYNCDEV_XFER_CLI_H

#include "deadline.h"
#include "device.h"
#include "devio.h"
#include "xferopt.h"

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum xfer_role { ROLE_MASTER, ROLE_SLAVE };

/*
 * How long a slave retries a refused connection by default: students
 * start master and slave in two terminals, in either order.
 */
#define XFER_DEFAULT_WAIT_MS	30000u

struct xfer_args {
	enum xfer_role role;
	unsigned int nfiles;
	char **files;
	enum xfer_method method;
	struct in_addr addr;	/* slave */
	uint16_t port;		/* slave; 0 = the module's port */
	struct xferopt opt;	/* the options (xferopt.h) */
};

/* --handshake-timeout: at most what $SYNCDEV_HANDSHAKE_MS may say. */
#define XFER_MAX_HANDSHAKE_MS	DEADLINE_HANDSHAKE_MAX_MS

/*
 * --help's "options:" and the lines of the transfer options role takes
 * (xferopt.h), its defaults filled in; the program adds "-h, --help".
 */
void xfer_cli_usage_common(FILE *f, enum xfer_role role);

/*
 * Parse argv.  Returns 0 when *a is ready, 1 for --help (each program
 * prints its own: user/master/help.c, user/slave/help.c), or -1 after a
 * message (a usage error: exit with EXIT_USAGE).
 */
int xfer_parse_args(int argc, char **argv, enum xfer_role role,
		    struct xfer_args *a);

struct xfer_opts;

/*
 * Open a->device and its buffer for a->method (the default buffer unless
 * --buffer), set its progress timeout (--progress-timeout), and set *o
 * from the options.  The fd, or -1 after a message.
 */
int xfer_open_device(const struct xfer_args *a, struct devbuf *b,
		     struct xfer_opts *o);

/* "Transmission time: %f ms, File size: %zu bytes" on stdout. */
void xfer_print_time(uint64_t elapsed_ns, uint64_t bytes);

#endif
