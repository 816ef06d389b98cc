/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The handshake of master and slave before the stream: the slave's hello
 * (frame.h) and, keyed, the key proofs (auth.h), under one deadline
 * (deadline.h, or the kernel's); peers that fail are dropped and logged.
 */
#ifndef SYNCDEV_HANDSHAKE_H
#define SYNCDEV_HANDSHAKE_H

#include "cli/xfer_cli.h"

#include <stdint.h>

struct auth_key;
struct auth_session;

/*
 * Master: wait for a slave (--peer: only that address): a peer that
 * greets as one (frame.h's hello) and, with a key, proves it (auth.h),
 * both within a->handshake_ms of its connection (one deadline: the
 * kernel's, SYNCDEV_IOC_SET_HANDSHAKE, confirmed once the peer proved
 * itself; deadline.h's where the module lacks it).
 * A peer that does not is dropped, counted and logged (the first three,
 * then at most one line per 10 s) and the wait goes on.  0, or -1 after a
 * message.  A keyed handshake that succeeded fills *s.
 */
int xfer_accept(int fd, const struct xfer_args *a, const struct auth_key *k,
		struct auth_session *s);

/*
 * Dropped peers are logged as the kernel's printk_ratelimit() does: the
 * first XFER_DROP_BURST, then at most one line per XFER_DROP_INTERVAL_NS,
 * which says how many went unlogged since the last; every drop is
 * counted.  xfer_note_drop: one more drop, at now (now_ns()).
 */
#define XFER_DROP_BURST		3
#define XFER_DROP_INTERVAL_NS	(10 * 1000000000ull)

struct xfer_drops {
	unsigned long count;	/* every peer dropped */
	unsigned long quiet;	/* dropped since the last line */
	uint64_t last_ns;	/* when that line was written */
};

void xfer_note_drop(struct xfer_drops *d, uint64_t now, const char *what,
		    const char *why);

/*
 * Slave: connect to the master (--peer: refused elsewhere), greet it
 * and, with a key, prove it and check the master's proof, all within
 * a->handshake_ms of the connection (the kernel's deadline or deadline.h's,
 * as for the master).  EXIT_OK, EXIT_FAIL or EXIT_AUTH
 * after a message.
 */
int xfer_connect(int fd, const struct xfer_args *a, const struct auth_key *k,
		 struct auth_session *s);

#endif
