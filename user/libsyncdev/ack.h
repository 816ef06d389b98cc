/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The end-to-end acknowledgement: after the stream, the receiver answers
 * with one result message (frame.h) on the same connection, saying that
 * every file is verified and in place, or which file failed and why.
 * The sender exits 0 only on that positive answer.
 *
 * A receiver that fails in the middle answers at once and then reads and
 * drops the rest of the stream until the sender closes, so that the
 * answer is never lost to a reset.  The sender looks for such an early
 * answer after each buffer it sent (one non-blocking read per buffer) and
 * stops as soon as it sees one.
 *
 * On the device the answer always travels by write() on the slave and
 * read() on the master, whichever method (fcntl or mmap) moved the files:
 * it is one small message per run, not worth the mapped buffer.  The same
 * code runs over a plain socket (tcpcopy, the unit tests).
 */
#ifndef SYNCDEV_ACK_H
#define SYNCDEV_ACK_H

#include "frame.h"

#include <stddef.h>
#include <stdint.h>

/*
 * Receiver: write the result for status (FRAME_ST_*), index and files; a
 * failure's reason and errno are the last message printed (msg_last()).
 * Returns 0, or -1 with errno (no message: the caller knows whether the
 * answer mattered).
 */
int ack_send(int fd, unsigned int status, uint32_t index, uint32_t files);

/*
 * Receiver, at the end: ack_send() the outcome of a run that returned ret
 * (an EXIT_* code).  After a failure the answer is best effort (the
 * connection may be what failed), the rest of the stream is read and
 * dropped until the sender closes (unless the connection is what
 * failed), and ret is returned.  After success, a sender that cannot be
 * told would report a failure, so that is one here too: a message and
 * EXIT_FAIL (the files stay: they are complete).
 */
int ack_answer(int fd, int ret, unsigned int status, uint32_t index,
	       uint32_t files, const char *peer);

struct auth_session;

/*
 * Keyed transfers: from now on every answer sent is followed by its MAC,
 * and a positive answer received must be (auth.h).  NULL: none.
 */
void ack_set_auth(const struct auth_session *s);

/* What the sender has received of the answer so far. */
struct ack_in {
	unsigned char buf[FRAME_RESULT_MAX_LEN + 32];	/* + a MAC */
	size_t len;
};

/*
 * Sender, between buffers: read without blocking what the receiver sent
 * into *in; 1 if it has said anything (then it failed: stop sending and
 * ack_wait() for the rest of its answer), else 0.
 */
int ack_early(int fd, struct ack_in *in);

/*
 * Sender, after its last byte (or after ack_early() said 1): the
 * receiver's answer (the start of it in *in) to the n files names[0..n-1]
 * (the sender's names, for messages).  Returns EXIT_OK on a positive
 * answer for all n files, else EXIT_FAIL after a message: the receiver's
 * reason, or why no answer came.  peer names the other side in messages
 * ("slave", "receiver").
 */
int ack_wait(int fd, struct ack_in *in, unsigned int n, char *const *names,
	     const char *peer);

/*
 * Sender, after sending failed, or stopped because ack_early() said 1:
 * the receiver's reason if it gave one (all of it when it had started to
 * answer; else only what already arrived, without blocking: a receiver
 * that failed drains the stream, so this is for one that did not).
 * Returns EXIT_FAIL.
 */
int ack_failed(int fd, struct ack_in *in, unsigned int n, char *const *names,
	       const char *peer);

#endif
