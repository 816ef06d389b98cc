// SPDX-License-Identifier: GPL-2.0
#include "auth.h"
#include "deadline.h"
#include "device.h"
#include "frame.h"
#include "netaddr.h"
#include "util.h"
#include "xfer.h"
#include "xfer_cli.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "syncdev.h"

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

enum {
	OPT_DEVICE = 256, OPT_PROGRESS, OPT_KEY, OPT_PEER, OPT_NO_SYNC,
	OPT_HANDSHAKE,
};

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
	case OPT_HANDSHAKE:
		if (parse_uint(arg, 1, XFER_MAX_HANDSHAKE_MS, &v))
			return bad_number("handshake timeout", arg,
					  "milliseconds, 1..3600000");
		a->handshake_ms = (uint32_t)v;
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

/* One option into *a: 0, 1 after --help, or -1 after a message. */
static int parse_option(int c, char **argv, enum xfer_role role,
			struct xfer_args *a)
{
	switch (c) {
	case 'v':
		a->verbose = 1;
		return 0;
	case OPT_DEVICE:
		a->device = optarg;
		return 0;
	case OPT_KEY:
		a->key_path = optarg;
		return 0;
	case OPT_NO_SYNC:
		if (role != ROLE_SLAVE) {
			msg("--no-sync is an option of the slave only");
			return -1;
		}
		a->no_sync = 1;
		return 0;
	case OPT_PEER:
		if (inet_pton(AF_INET, optarg, &a->peer) != 1 ||
		    !a->peer.s_addr)
			return bad_number("peer address", optarg,
					  "an IPv4 address a.b.c.d");
		return 0;
	case 'h':
		return 1;
	case 'b': case 't': case 'w': case OPT_PROGRESS: case OPT_HANDSHAKE:
		return parse_number_opt(c, optarg, a);
	default:
		return bad_option(c, argv);
	}
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
		{ "key", required_argument, NULL, OPT_KEY },
		{ "peer", required_argument, NULL, OPT_PEER },
		{ "no-sync", no_argument, NULL, OPT_NO_SYNC },
		{ "handshake-timeout", required_argument, NULL, OPT_HANDSHAKE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *shortopts = role == ROLE_SLAVE ? ":b:vt:w:h" : ":b:vh";
	int c, ret;

	memset(a, 0, sizeof(*a));
	a->role = role;
	a->device = role == ROLE_MASTER ? SYNCDEV_MASTER_PATH :
					   SYNCDEV_SLAVE_PATH;
	if (role == ROLE_SLAVE)
		a->wait_ms = XFER_DEFAULT_WAIT_MS;
	a->handshake_ms = deadline_handshake_ms();
	optind = 0;	/* GNU: restart the scan (the unit tests parse often) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		ret = parse_option(c, argv, role, a);
		if (ret)
			return ret;
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
	    (a->peer.s_addr && dev_set_peer(fd, a->device, a->peer)) ||
	    devbuf_open(b, fd, a->method, size)) {
		close(fd);
		return -1;
	}
	o->verbose = a->verbose;
	o->print_pages = a->method == METHOD_MMAP;
	o->auth = NULL;
	o->absent = NULL;
	return fd;
}

void xfer_print_time(uint64_t elapsed_ns, uint64_t bytes)
{
	printf("Transmission time: %f ms, File size: %zu bytes\n",
	       (double)elapsed_ns / 1e6, (size_t)bytes);
}

void xfer_note_drop(struct xfer_drops *d, uint64_t now, const char *what,
		    const char *why)
{
	d->count++;
	if (d->count > XFER_DROP_BURST &&
	    now - d->last_ns < XFER_DROP_INTERVAL_NS) {
		d->quiet++;
		return;
	}
	if (d->quiet)
		msg("dropped a peer that %s (%lu so far, %lu not logged): %s",
		    what, d->count, d->quiet, why);
	else
		msg("dropped a peer that %s (%lu so far): %s", what, d->count,
		    why);
	d->quiet = 0;
	d->last_ns = now;
}

/* The progress timeout in ms, 0 if unknown. */
static uint32_t progress_ms(const struct xfer_args *a)
{
	unsigned long long v;

	if (a->progress_s)
		return a->progress_s * 1000u;
	if (dev_module_param("progress_timeout_ms", &v) || v > UINT32_MAX)
		return 0;
	return (uint32_t)v;
}

/*
 * A handshake's read or write that timed out (the kernel's ETIMEDOUT):
 * which of its limits cut it, told by when, into why.  The kernel's is the
 * earliest of the handshake's deadline, the progress timeout, and, while
 * other connections wait, a share of the deadline (a fraction of a
 * second).  Its log line says which for certain.
 */
static void timed_out(char *why, const char *what, const struct deadline *d,
		      const struct xfer_args *a)
{
	uint64_t start = d->end_ns - (uint64_t)d->ms * 1000000u;
	uint64_t took = (now_ns() - start) / 1000000u;
	uint32_t p = progress_ms(a);

	if (p && p < d->ms && took + 100 >= p && took + 100 < d->ms)
		snprintf(why, AUTH_WHY_LEN, "%s within the progress timeout's %u ms",
			 what, p);
	else if (took + 100 >= d->ms)
		snprintf(why, AUTH_WHY_LEN, "%s within the handshake's %u ms",
			 what, d->ms);
	else
		snprintf(why, AUTH_WHY_LEN,
			 "%s within %llu ms, its share of the handshake's %u ms while other connections waited",
			 what, (unsigned long long)took, d->ms);
}

/* The peer's first bytes are a slave's hello; -1 with the reason in why. */
static int greeted(int fd, char *why, const struct deadline *d,
		   const struct xfer_args *a)
{
	unsigned char h[FRAME_HELLO_LEN];
	ssize_t n = deadline_read(fd, h, sizeof(h), d);
	int err;

	if (n < 0 && errno == ETIMEDOUT) {
		timed_out(why, "no hello", d, a);
		return -1;
	}
	if (n < 0) {
		snprintf(why, AUTH_WHY_LEN, "waiting for its hello: %s",
			 strerror(errno));
		return -1;
	}
	err = frame_get_hello(h, (size_t)n);
	if (err == FRAME_ETRUNC)
		snprintf(why, AUTH_WHY_LEN, "it closed the connection %s",
			 n ? "inside its hello" : "without a word");
	else if (err)
		snprintf(why, AUTH_WHY_LEN, "its first bytes are no slave's hello (%s)",
			 frame_strerror(err));
	return err ? -1 : 0;
}

/*
 * After the exchange, with the kernel's deadline: lift it.  It fails only
 * when the deadline passed since the last byte; -1 with why.
 */
static int confirmed(int fd, char *why, const struct deadline *d,
		     const struct xfer_args *a)
{
	if (!dev_confirm(fd))
		return 0;
	if (errno == ETIMEDOUT)
		timed_out(why, "it was not done", d, a);
	else
		snprintf(why, AUTH_WHY_LEN, "confirming it: %s",
			 strerror(errno));
	return -1;
}

/*
 * One connection's hello, key proofs (k set) and, with the kernel's
 * deadline (kernel), its confirmation; 0, or -1 after noting the drop.
 */
static int peer_proven(int fd, const struct xfer_args *a,
		       const struct auth_key *k, struct auth_session *s,
		       int kernel, struct xfer_drops *drops)
{
	const char *what = k ? "failed the key handshake" :
			       "did not greet as a slave";
	char why[AUTH_WHY_LEN];
	struct deadline d;

	deadline_start_dev(&d, fd, a->handshake_ms, kernel);
	if (greeted(fd, why, &d, a))
		what = "did not greet as a slave";
	else if ((!k || !auth_master_by(fd, k, s, why, &d)) &&
		 (!kernel || !confirmed(fd, why, &d, a)))
		return 0;
	/* auth.c says "the handshake's"; the kernel may have cut it sooner. */
	else if (!strncmp(why, AUTH_LATE, strlen(AUTH_LATE)))
		timed_out(why, "no complete answer", &d, a);
	xfer_note_drop(drops, now_ns(), what, why);
	return -1;
}

/*
 * The stream starts only once the peer said it is a slave and, keyed,
 * proved the key, all within one deadline from the connection: one that
 * closes, resets, stays silent or dribbles (a port scanner, a stranger)
 * is dropped like a peer that fails the key handshake, and the wait goes
 * on for the real slave.  The deadline is the kernel's where the module
 * has SYNCDEV_IOC_SET_HANDSHAKE (it then counts the stranger too), else
 * this program's (deadline.h).
 */
int xfer_accept(int fd, const struct xfer_args *a, const struct auth_key *k,
		struct auth_session *s)
{
	struct xfer_drops drops = { 0 };
	int kernel = dev_set_handshake(fd, a->device, a->handshake_ms);

	if (kernel < 0)
		return -1;
	for (;;) {
		if (dev_accept(fd, a->device))
			return -1;
		if (!peer_proven(fd, a, k, s, kernel, &drops))
			return dev_set_timeout(fd, a->device, a->progress_s);
		if (dev_disconnect(fd, a->device))
			return -1;
	}
}

/*
 * The slave's part of the handshake under d (kernel: the module's
 * deadline, confirmed at the end): EXIT_OK, or the exit after a message.
 */
static int slave_handshake(int fd, const struct xfer_args *a,
			 const struct auth_key *k, struct auth_session *s,
			 const struct deadline *d, int kernel)
{
	unsigned char hello[FRAME_HELLO_LEN];

	frame_put_hello(hello);
	if (deadline_write(fd, hello, sizeof(hello), d) !=
	    (ssize_t)sizeof(hello)) {
		msg("greeting the master on %s: %s", a->device, strerror(errno));
		return EXIT_FAIL;
	}
	if (k && auth_slave_by(fd, k, s, d))
		return EXIT_AUTH;
	if (kernel && dev_confirm(fd)) {
		msg("%s: the handshake with the master was not done within %u ms: %s",
		    a->device, d->ms, strerror(errno));
		return k ? EXIT_AUTH : EXIT_FAIL;
	}
	return EXIT_OK;
}

int xfer_connect(int fd, const struct xfer_args *a, const struct auth_key *k,
		 struct auth_session *s)
{
	int kernel = dev_set_handshake(fd, a->device, a->handshake_ms);
	struct deadline d;
	int ret;

	if (kernel < 0 ||
	    dev_connect(fd, a->addr, a->port, a->timeout_ms, a->wait_ms))
		return EXIT_FAIL;
	deadline_start_dev(&d, fd, a->handshake_ms, kernel);
	ret = slave_handshake(fd, a, k, s, &d, kernel);
	if (ret)
		return ret;
	/* A deadline of this program's set the device's timeout: again. */
	if (dev_set_timeout(fd, a->device, a->progress_s))
		return EXIT_FAIL;
	return EXIT_OK;
}

void xfer_cli_usage_common(FILE *f, enum dev_side side)
{
	fprintf(f,
		"\noptions:\n"
		"  -b, --buffer SIZE  bytes per read()/write() or ioctl (default %uM);\n"
		"                     mmap: at most the device buffer's size\n"
		"  -v, --verbose      one line per file (size, CRC32C)\n"
		"      --device PATH  device to use (default %s)\n"
		"      --progress-timeout SECONDS\n"
		"                     give up when nothing moves on the connection for\n"
		"                     this long: the %s stalled or its machine is gone\n"
		"                     (default: the module's progress_timeout_ms)\n",
		XFER_DEFAULT_BUFFER >> 20, dev_path(side),
		side == DEV_MASTER ? "slave" : "master");
}
