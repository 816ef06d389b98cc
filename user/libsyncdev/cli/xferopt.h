/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transfer options, one parser and one help text for every program
 * that moves files (master, slave, tcpcopy): a letter or a name means
 * the same in each, and a program takes the subset it names (set, the
 * XO_* bits) plus options of its own (struct xferopt_own).
 *
 *	-b, --buffer SIZE         bytes per read()/write() or ioctl
 *	-v, --verbose             one line per file
 *	    --device PATH         the syncdev device (master, slave)
 *	    --device[=PATH]       through the syncdev device, not a socket
 *	                          (tcpcopy: PATH only as --device=PATH)
 *	-t, --timeout MS          connect timeout
 *	-w, --wait MS             retry a refused connection this long
 *	    --progress-timeout S  give up when nothing moves this long
 *	    --key FILE            keyed transfer (auth.h)
 *	    --peer ADDR           the only peer
 *	    --no-sync             no flush before confirming
 *	    --handshake-timeout MS  hello and key proofs within MS
 *	    --copy                fcntl: read() and write() only
 *	-h, --help
 *
 * An option of the table that the program does not take is refused by
 * name ("--wait is not an option of master"), never read as another.
 */
#ifndef SYNCDEV_XFEROPT_H
#define SYNCDEV_XFEROPT_H

#include <getopt.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum xferopt_bit {
	XO_BUFFER	= 1u << 0,
	XO_VERBOSE	= 1u << 1,
	XO_DEVICE	= 1u << 2,	/* --device PATH */
	XO_VIA_DEVICE	= 1u << 3,	/* --device[=PATH] */
	XO_TIMEOUT	= 1u << 4,
	XO_WAIT		= 1u << 5,
	XO_PROGRESS	= 1u << 6,
	XO_KEY		= 1u << 7,
	XO_PEER		= 1u << 8,
	XO_NO_SYNC	= 1u << 9,
	XO_HANDSHAKE	= 1u << 10,
	XO_COPY		= 1u << 11,
};

/* The sets of the programs. */
#define XO_MASTER (XO_BUFFER | XO_VERBOSE | XO_DEVICE | XO_PROGRESS | \
		   XO_KEY | XO_PEER | XO_HANDSHAKE | XO_COPY)
#define XO_SLAVE  (XO_MASTER | XO_TIMEOUT | XO_WAIT | XO_NO_SYNC)
#define XO_TCPCOPY (XO_BUFFER | XO_VIA_DEVICE | XO_WAIT | XO_PROGRESS | \
		    XO_KEY)

/* The default buffer of every program. */
#define XFER_DEFAULT_BUFFER	(1u << 20)
/* --buffer: at most this many bytes. */
#define XFER_MAX_BUFFER		(1u << 30)
/* --progress-timeout: at most this many seconds (u32 milliseconds). */
#define XFER_MAX_TIMEOUT_S	4294967u

/* The values; the caller sets the defaults before xferopt_parse. */
struct xferopt {
	size_t buffer;		/* 0 = the method's default */
	int verbose;
	const char *device;	/* the device's path (NULL: the side's) */
	int via_device;		/* --device given (XO_VIA_DEVICE) */
	uint32_t timeout_ms;	/* connect timeout, 0 = the module's */
	uint32_t wait_ms;	/* retry a refused connect this long */
	uint32_t progress_s;	/* progress timeout, 0 = the default */
	const char *key_path;	/* --key, or NULL */
	struct in_addr peer;	/* --peer, 0 = any */
	int no_sync;
	uint32_t handshake_ms;
	int copy;		/* --copy: no sendfile()/splice() */
};

/*
 * A program's own options: getopt_long entries (ending with a zeroed
 * one) whose names and letters the table does not use, with a letter
 * or a value from XFEROPT_OWN up, their short letters ("p:c"), and
 * parse(), which stores one (c, optarg) in ctx: 0, or -1 after a message.
 */
#define XFEROPT_OWN	512
struct xferopt_own {
	const struct option *longopts;
	const char *shortopts;
	int (*parse)(int c, const char *arg, void *ctx);
	void *ctx;
};

#define XFEROPT_HELP	(-2)

/*
 * Parse argv's options (set: the table's that prog takes; own: NULL or
 * the program's) into *v; the operands are then argv[ret..argc-1], in
 * order (getopt_long moved them there).  XFEROPT_HELP for -h/--help, -1
 * after a message for a usage error.
 */
int xferopt_parse(int argc, char **argv, const char *prog, unsigned int set,
		  const struct xferopt_own *own, struct xferopt *v);

/*
 * The help lines of the options in set, one text for every program,
 * with the defaults in *def (side_dev: the default device's path,
 * peer: "master", "slave" or "peer", the side that may stall).
 */
void xferopt_usage(FILE *f, unsigned int set, const struct xferopt *def,
		   const char *side_dev, const char *peer);

#endif
