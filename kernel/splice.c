// SPDX-License-Identifier: GPL-2.0
/*
 * splice() and sendfile() on the devices, the kernel's zero-copy path
 * (the socket's side of splice_read is in sockpipe.c).
 *
 * splice_write (splice() from a pipe, and sendfile(), a splice through the
 * kernel's own pipe) sends each pipe buffer's page to the socket by
 * reference, as splice() to a TCP socket does.  splice_read moves the
 * socket's buffers into the pipe by reference, as splice() from a TCP
 * socket does: a byte that crosses the device this way is never copied
 * by it.  Both behave as write() and read() on the same bytes: the same
 * timeouts, signals and sticky errors (transport.c), the same interrupted
 * transfer rule (xfer.c), a short count after a signal or an error.
 *
 * Locks: the kernel calls splice_read with the pipe's lock held, and
 * __splice_from_pipe() drops and retakes it while it waits for a writer,
 * so the session's lock is always taken second, inside the pipe's, and
 * per pipe buffer in splice_write: never held across a wait for the pipe.
 */
#include "internal.h"

#include <linux/pipe_fs_i.h>
#include <linux/splice.h>
#include <linux/uio.h>

/*
 * One pipe buffer, to the socket as a bvec.  With MSG_SPLICE_PAGES
 * (compat.h before 6.5) the socket buffers take its page by reference:
 * no byte is copied on this side, and the page stays referenced until the
 * peer's socket has let go of it, after the call returned (the sendfile()
 * contract, docs/design.md).  A page the network stack may not hold
 * (slab) is copied.  MSG_MORE while more of this splice waits in the
 * pipe, so that TCP sends full segments.
 */
static int syncdev_splice_actor(struct pipe_inode_info *pipe,
				struct pipe_buffer *buf,
				struct splice_desc *sd)
{
	struct syncdev_session *s = sd->u.file->private_data;
	int flags = syncdev_file_msg_flags(sd->u.file);
	struct iov_iter iter;
	struct bio_vec bv;
	size_t moved = 0;
	int ret;

	ret = syncdev_lock(s, flags);
	if (ret)
		return ret;
	if (sendpage_ok(buf->page))
		flags |= SYNCDEV_MSG_SPLICE_PAGES;
	if ((sd->flags & SPLICE_F_MORE) ||
	    (sd->len < sd->total_len &&
	     pipe_occupancy(pipe->head, pipe->tail) > 1))
		flags |= MSG_MORE;
	bvec_set_page(&bv, buf->page, sd->len, buf->offset);
	iov_iter_bvec(&iter, ITER_SOURCE, &bv, 1, sd->len);
	ret = syncdev_partial_check(s, true);
	if (!ret)
		ret = syncdev_xmit(s, true, &iter, flags, SYNCDEV_XMIT_ALL,
				   &moved);
	mutex_unlock(&s->lock);
	return moved ? moved : ret;
}

ssize_t syncdev_splice_write(struct pipe_inode_info *pipe, struct file *out,
			     loff_t *ppos, size_t len, unsigned int flags)
{
	struct splice_desc sd = {
		.total_len = len,
		.flags = flags,
		.pos = *ppos,
		.u.file = out,
	};
	ssize_t ret;

	pipe_lock(pipe);
	ret = __splice_from_pipe(pipe, &sd, syncdev_splice_actor);
	pipe_unlock(pipe);
	return ret;
}

/*
 * splice() into a pipe, and sendfile() out of the device into a pipe:
 * what read() returns, by reference.  A legacy slave session's
 * read() fills whole units for course programs (xfer.c), which a pipe's
 * room cannot promise, so it has no splice.
 */
ssize_t syncdev_splice_read(struct file *in, loff_t *ppos,
			    struct pipe_inode_info *pipe, size_t len,
			    unsigned int flags)
{
	struct syncdev_session *s = in->private_data;
	struct syncdev_pipe_dst dst = { .pipe = pipe, .flags = flags };
	int mflags = syncdev_file_msg_flags(in);
	size_t moved = 0;
	int ret;

	if (!len)
		return 0;
	ret = syncdev_lock(s, mflags);
	if (ret)
		return ret;
	if (s->dev->role == SYNCDEV_SLAVE && READ_ONCE(s->legacy))
		ret = -EINVAL;
	else
		ret = syncdev_partial_check(s, false);
	if (!ret)
		ret = syncdev_recv_pipe(s, &dst, len, mflags, &moved);
	mutex_unlock(&s->lock);
	return moved ? moved : ret;
}
