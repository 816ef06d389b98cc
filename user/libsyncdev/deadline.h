/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One deadline for a whole exchange (the greeting and the key handshake),
 * not a limit per read: a peer that sends a byte just before each read
 * would time out would otherwise hold the other side for as long as it
 * likes.  Each read or write waits at most for what is left: on a socket
 * or pipe by poll(), on the syncdev device (whose poll() does not wait)
 * by its progress timeout (SYNCDEV_IOC_SET_TIMEOUT) set to what is left
 * before each call.  The caller sets the device's own timeout again after.
 */
#ifndef SYNCDEV_DEADLINE_H
#define SYNCDEV_DEADLINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How long a handshake may take unless told: 10 s. */
#define DEADLINE_HANDSHAKE_MS	10000u
/* The longest handshake that may be asked for: an hour. */
#define DEADLINE_HANDSHAKE_MAX_MS	3600000u

struct deadline {
	uint64_t end_ns;	/* CLOCK_MONOTONIC, now_ns() */
	uint32_t ms;		/* its length, for messages */
	int device;		/* the fd is a character device */
	int off;		/* no deadline: plain reads and writes */
};

/* A deadline ms milliseconds from now for the exchange on fd. */
void deadline_start(struct deadline *d, int fd, uint32_t ms);
/*
 * The same on a socket or pipe; on the device, no deadline: each call
 * waits as the device's own timeout says, which is left as it was (for
 * callers that cannot set it again after).
 */
void deadline_start_keep(struct deadline *d, int fd, uint32_t ms);

/*
 * The same where the kernel may hold the deadline itself: kernel set when
 * SYNCDEV_IOC_SET_HANDSHAKE took (dev_set_handshake), and fd is the
 * device, means no deadline here.  The kernel bounds each call by what is
 * left of it as this code would, and shuts the connection down and counts
 * the stranger at it; a second deadline here, started a little later,
 * would only race the kernel's for which of the two ends the connection.
 * On a socket, or without the kernel's, as deadline_start().
 */
void deadline_start_dev(struct deadline *d, int fd, uint32_t ms, int kernel);

/*
 * The handshake's length: SYNCDEV_HANDSHAKE_MS from the environment when
 * it is a number of 1 to DEADLINE_HANDSHAKE_MAX_MS, else
 * DEADLINE_HANDSHAKE_MS.
 */
uint32_t deadline_handshake_ms(void);

/*
 * Exactly len bytes before the deadline: len, fewer when the stream
 * ended, or -1 with errno (ETIMEDOUT: the deadline passed first).
 */
ssize_t deadline_read(int fd, void *buf, size_t len, const struct deadline *d);
/* All len bytes before the deadline: len, or -1 with errno. */
ssize_t deadline_write(int fd, const void *buf, size_t len,
		       const struct deadline *d);

#endif
