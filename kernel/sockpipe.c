// SPDX-License-Identifier: GPL-2.0
/*
 * A TCP socket's receive queue into a pipe, by reference: the socket's
 * side of the devices' splice_read (splice.c), one socket call of
 * syncdev_xmit()'s loop (transport.c).
 */
#include "internal.h"

#include <linux/pipe_fs_i.h>
#include <linux/sched/signal.h>
#include <linux/splice.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>

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

/*
 * What tcp_read_sock() will not pass, urgent data, is received as read()
 * receives it (the urgent byte left out of the stream), into a page of
 * its own that joins the pipe.
 */
static int syncdev_pipe_copy(struct socket *sock,
			     const struct syncdev_pipe_dst *dst, size_t len,
			     int flags)
{
	/* The kernel's operations, never the module's: the pipe outlives it. */
	struct pipe_buffer buf = { .ops = &nosteal_pipe_buf_ops };
	struct msghdr msg = { .msg_flags = flags };
	struct bio_vec bv;
	ssize_t added;
	int ret;

	if (!dst->pipe->readers) {
		send_sig(SIGPIPE, current, 0);
		return -EPIPE;
	}
	buf.page = alloc_page(GFP_HIGHUSER | __GFP_ACCOUNT);
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
		/* In tcp_recvmsg()'s order: a clean end before an error. */
		if (sock_flag(sk, SOCK_DONE))
			break;
		ret = sock_error(sk);
		if (ret || (sk->sk_shutdown & RCV_SHUTDOWN))
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
