// SPDX-License-Identifier: GPL-2.0
#include "handshake.h"
#include "auth.h"
#include "deadline.h"
#include "device.h"
#include "frame.h"
#include "util.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

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
