// SPDX-License-Identifier: GPL-2.0
#include "auth.h"
#include "deadline.h"
#include "device.h"
#include "frame.h"
#include "netaddr.h"
#include "util.h"
#include "xfer.h"
#include "xfer_cli.h"
#include "xferopt.h"

#include <arpa/inet.h>
#include <errno.h>
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
	if (first < 0)
		return -1;
	return parse_positional(argc - first, argv + first, a);
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

	if (a->opt.progress_s)
		return a->opt.progress_s * 1000u;
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

	deadline_start_dev(&d, fd, a->opt.handshake_ms, kernel);
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
	int kernel = dev_set_handshake(fd, a->opt.device, a->opt.handshake_ms);

	if (kernel < 0)
		return -1;
	for (;;) {
		if (dev_accept(fd, a->opt.device))
			return -1;
		if (!peer_proven(fd, a, k, s, kernel, &drops))
			return dev_set_timeout(fd, a->opt.device, a->opt.progress_s);
		if (dev_disconnect(fd, a->opt.device))
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
		msg("greeting the master on %s: %s", a->opt.device, strerror(errno));
		return EXIT_FAIL;
	}
	if (k && auth_slave_by(fd, k, s, d))
		return EXIT_AUTH;
	if (kernel && dev_confirm(fd)) {
		msg("%s: the handshake with the master was not done within %u ms: %s",
		    a->opt.device, d->ms, strerror(errno));
		return k ? EXIT_AUTH : EXIT_FAIL;
	}
	return EXIT_OK;
}

int xfer_connect(int fd, const struct xfer_args *a, const struct auth_key *k,
		 struct auth_session *s)
{
	int kernel = dev_set_handshake(fd, a->opt.device, a->opt.handshake_ms);
	struct deadline d;
	int ret;

	if (kernel < 0 ||
	    dev_connect(fd, a->addr, a->port, a->opt.timeout_ms, a->opt.wait_ms))
		return EXIT_FAIL;
	deadline_start_dev(&d, fd, a->opt.handshake_ms, kernel);
	ret = slave_handshake(fd, a, k, s, &d, kernel);
	if (ret)
		return ret;
	/* A deadline of this program's set the device's timeout: again. */
	if (dev_set_timeout(fd, a->opt.device, a->opt.progress_s))
		return EXIT_FAIL;
	return EXIT_OK;
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
