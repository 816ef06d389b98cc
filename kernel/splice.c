// SPDX-License-Identifier: GPL-2.0
/*
 * splice() and sendfile() on the devices, the kernel's zero-copy path.
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
#include <linux/sched/signal.h>
#include <linux/splice.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>

/* A splice never waits on a non-blocking device file. */
static int syncdev_file_msg_flags(const struct file *file)
{
	return file->f_flags & O_NONBLOCK ? MSG_DONTWAIT : 0;
}

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

static int syncdev_pipe_actor(read_descriptor_t *desc, struct sk_buff *skb,
			      unsigned int offset, size_t len)
{
	struct syncdev_pipe_dst *dst = desc->arg.data;
	int ret;

	ret = skb_splice_bits(skb, skb->sk, offset, dst->pipe,
			      min(desc->count, len), dst->flags);
	if (ret > 0)
		desc->count -= ret;
	return ret;
}

static const struct pipe_buf_operations syncdev_copied_buf_ops = {
	.release = generic_pipe_buf_release,
	.try_steal = generic_pipe_buf_try_steal,
	.get = generic_pipe_buf_get,
};

/*
 * What tcp_read_sock() will not pass, urgent data, is received as read()
 * receives it (the urgent byte left out of the stream), into a page of
 * its own that joins the pipe.
 */
static int syncdev_pipe_copy(struct socket *sock,
			     const struct syncdev_pipe_dst *dst, size_t len,
			     int flags)
{
	struct pipe_buffer buf = { .ops = &syncdev_copied_buf_ops };
	struct msghdr msg = { .msg_flags = flags };
	struct bio_vec bv;
	ssize_t added;
	int ret;

	if (!dst->pipe->readers) {
		send_sig(SIGPIPE, current, 0);
		return -EPIPE;
	}
	buf.page = alloc_page(GFP_KERNEL);
	if (!buf.page)
		return -ENOMEM;
	bvec_set_page(&bv, buf.page, min_t(size_t, len, PAGE_SIZE), 0);
	iov_iter_bvec(&msg.msg_iter, ITER_DEST, &bv, 1, bv.bv_len);
	ret = sock_recvmsg(sock, &msg, flags);
	if (ret <= 0) {
		put_page(buf.page);
		return ret;
	}
	buf.len = ret;
	/* The pipe is locked, has a reader and had room for this call. */
	added = add_to_pipe(dst->pipe, &buf);
	return added < 0 ? added : ret;
}

/*
 * One receive into a pipe: what has arrived, up to @len bytes, its pages
 * taken by reference from the socket's buffers; 0 at the end of the
 * stream, or -errno.  It waits as long as the socket's receive timeout
 * says (MSG_DONTWAIT: not at all), as sock_recvmsg() does.  This is
 * tcp_splice_read() (net/ipv4/tcp.c), which a kernel socket cannot use:
 * it reads the flags of the socket's file, and a kernel socket has none.
 */
int syncdev_sock_splice(struct socket *sock,
			const struct syncdev_pipe_dst *dst, size_t len,
			int flags)
{
	read_descriptor_t desc = { .arg.data = (void *)dst, .count = len };
	struct sock *sk = sock->sk;
	long timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	int ret;

	lock_sock(sk);
	for (;;) {
		ret = tcp_read_sock(sk, &desc, syncdev_pipe_actor);
		if (ret)
			break;
		if (!skb_queue_empty(&sk->sk_receive_queue)) {
			release_sock(sk);
			return syncdev_pipe_copy(sock, dst, len, flags);
		}
		ret = sock_error(sk);
		if (ret || sock_flag(sk, SOCK_DONE) ||
		    (sk->sk_shutdown & RCV_SHUTDOWN))
			break;
		if (sk->sk_state == TCP_CLOSE) {
			ret = -ENOTCONN;
			break;
		}
		if (!timeo) {
			ret = -EAGAIN;
			break;
		}
		sk_wait_data(sk, &timeo, NULL);
		if (signal_pending(current)) {
			ret = sock_intr_errno(timeo);
			break;
		}
	}
	release_sock(sk);
	return ret;
}

/*
 * splice() into a pipe, and the kernel's reads for sendfile() out of the
 * device: what read() returns, by reference.  A legacy slave session's
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
