// SPDX-License-Identifier: GPL-2.0
/*
 * Transfers of the session's buffer (SEND, RECV, the legacy transfer) that
 * survive signals.
 *
 * A SEND is all or nothing for its caller: the ioctl cannot say "part of
 * it went".  So when a signal stops one part-way (stop/continue, a cgroup
 * freezer, a debugger attaching, a handler), the progress is kept in the
 * session and the call returns -ERESTARTSYS.  The kernel restarts it with
 * the same arguments by itself after a stop, a freeze or a handler with
 * SA_RESTART; a program that saw EINTR calls it again.  Either way it
 * resumes where it stopped, as nbd resumes a request from its "sent"
 * count.  A receive that waits for the whole range (WAITALL, legacy) does
 * the same, and so does a legacy slave's read() (syncdev_fill_read()).
 * Any other transfer in that direction first would leave the peer with
 * part of a message, or lose bytes already received: instead the
 * connection is shut down and that call fails with EPIPE.  A fatal signal
 * shuts it down too, so the peer sees a short stream, never a shifted one.
 */
#include "internal.h"

#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/uio.h>

static struct syncdev_partial *syncdev_partial(struct syncdev_session *s,
					       bool send)
{
	return send ? &s->tx : &s->rx;
}

static int syncdev_abandon(struct syncdev_session *s, bool send)
{
	struct syncdev_partial *p = syncdev_partial(s, send);

	sess_info(s, "an interrupted %s had moved %llu of %llu bytes and was not resumed: connection shut down\n",
		  send ? "send" : "receive", p->done, p->len);
	syncdev_shutdown(s, -EPIPE);
	return -EPIPE;
}

/* Before a read() or write(): an interrupted transfer that way ends here. */
int syncdev_partial_check(struct syncdev_session *s, bool send)
{
	if (!syncdev_partial(s, send)->len)
		return 0;
	return syncdev_abandon(s, send);
}

/* The unit of the 2020 starter module's read(): its one krecv(). */
#define SYNCDEV_STARTER_UNIT	512

/*
 * legacy_read=starter: drop what a short read left of its unit, before
 * anything else is taken from the stream.  Returns 0 (done, or the stream
 * ended) or -errno; what was dropped before an error stays dropped.
 */
static int syncdev_starter_skip(struct syncdev_session *s, int flags)
{
	struct iov_iter iter;
	size_t done = 0;
	int ret;

	if (!s->legacy_skip)
		return 0;
	iov_iter_discard(&iter, ITER_DEST, s->legacy_skip);
	ret = syncdev_xmit(s, false, &iter, flags, SYNCDEV_XMIT_FILL, &done);
	s->legacy_skip = ret ? s->legacy_skip - done : 0;
	return ret;
}

/*
 * Move [@offset, @offset + @len) of the buffer as @how says; the caller
 * checked the range and allocated the buffer.  Returns 0 (send), the byte
 * count (receive: short only at end of stream, or before an error that the
 * next call reports), or -errno.
 */
long syncdev_buf_xfer(struct syncdev_session *s, bool send, u64 offset,
		      u64 len, enum syncdev_xmit_how how)
{
	struct syncdev_partial *p = syncdev_partial(s, send);
	size_t done = 0;
	int ret;

	if (p->len) {
		if (p->offset != offset || p->len != len || p->how != how)
			return syncdev_abandon(s, send);
		done = p->done;
		memset(p, 0, sizeof(*p));
	} else if (!send) {
		ret = syncdev_starter_skip(s, 0);
		if (ret)
			return ret;
	}
	if (!len && !send)
		return 0;
	ret = syncdev_xmit_kernel(s, send, s->buf + offset + done, len - done,
				  how, &done);
	if (!ret)
		return send ? 0 : done;
	if (!done)
		return ret;
	if (ret == -ERESTARTSYS && !fatal_signal_pending(current)) {
		p->offset = offset;
		p->len = len;
		p->done = done;
		p->how = how;
		return ret;
	}
	if (ret == -ERESTARTSYS || send) {
		/* Part of it moved and the rest never will. */
		syncdev_shutdown(s, -EPIPE);
		return ret == -ERESTARTSYS ? -EINTR : ret;
	}
	/* The bytes are in the buffer; the error is kept for the next call. */
	return done;
}

/* s->rx.offset of a read() that a signal stopped: no buffer offset. */
#define SYNCDEV_READ_PARTIAL	U64_MAX

/*
 * legacy_read=starter: the 2020 course's starter module read() with one
 * receive of up to 512 bytes, whatever the count, and a short read lost
 * the rest of it.  Behind a sender that writes 512-byte chunks (its
 * master.c did), every receive was one chunk, and programs rely on that:
 * the last read of a file asks for the bytes left of it and the padding
 * of its chunk goes.  So the stream is cut into units of 512 bytes from
 * the start of the connection; a read() takes the rest of the current
 * unit (waiting for all of it unless the stream ends), returns at most
 * @len of it, and the rest of the unit is dropped before the next
 * receive.  A non-blocking read() that finds less leaves the rest of the
 * unit in the stream.  Returns how much of @iter to fill.
 */
static size_t syncdev_starter_len(struct syncdev_session *s, size_t len,
				  bool resumed)
{
	size_t rest = SYNCDEV_STARTER_UNIT -
		      s->bytes_received % SYNCDEV_STARTER_UNIT;

	/* A resumed read already set the unit's skip: what is left of it. */
	if (!resumed)
		s->legacy_skip = rest > len ? rest - len : 0;
	return rest - s->legacy_skip;
}

/*
 * A legacy slave's read(), as legacy_read says: until @iter is full or
 * the stream ends (fill), or one 512-byte unit of it (starter, above).
 * Course programs were written against a module on one fast machine,
 * where a read() of 512 bytes always got them, and many write the k-th
 * read() at byte 512 * k, or stop at the first short one.  A socket
 * returns what has arrived, so whether a read() came back short depended
 * on where the kernel's TCP put the edge of the receive window that the
 * sender stopped at (docs/design.md, "Full reads").
 *
 * A signal does not make it short either: the bytes are in the caller's
 * buffer, so the count is kept and the read() restarted with the same
 * length (after a stop, a freeze, a handler with SA_RESTART, or by a
 * program that saw EINTR) goes on from there.  A non-blocking read()
 * returns what has arrived, as always.  Returns the count (short only at
 * the end of the stream, or before an error that the next call reports)
 * or -errno.
 */
ssize_t syncdev_fill_read(struct syncdev_session *s, struct iov_iter *iter,
			  int flags)
{
	bool starter = READ_ONCE(syncdev_legacy_read) ==
		       SYNCDEV_LEGACY_READ_STARTER;
	struct syncdev_partial *p = &s->rx;
	size_t len = iov_iter_count(iter);
	bool resumed = false;
	size_t done = 0;
	int ret;

	if (p->len) {
		if (p->offset != SYNCDEV_READ_PARTIAL || p->len != len)
			return syncdev_abandon(s, false);
		done = p->done;
		memset(p, 0, sizeof(*p));
		iov_iter_advance(iter, done);
		resumed = true;
	} else {
		ret = syncdev_starter_skip(s, flags);
		if (ret)
			return ret;
	}
	if (starter)
		iov_iter_truncate(iter, syncdev_starter_len(s, len - done,
							    resumed));
	ret = syncdev_xmit(s, false, iter, flags, SYNCDEV_XMIT_FILL, &done);
	if (ret == -ERESTARTSYS && done && !fatal_signal_pending(current)) {
		p->offset = SYNCDEV_READ_PARTIAL;
		p->len = len;
		p->done = done;
		p->how = SYNCDEV_XMIT_FILL;
		return ret;
	}
	/*
	 * Short of its part of the unit (non-blocking, the end of the
	 * stream, an error): the rest of the unit stays for the next read.
	 */
	if (iov_iter_count(iter))
		s->legacy_skip = 0;
	return done ? done : ret;
}
