// SPDX-License-Identifier: GPL-2.0
/*
 * The TCP connection behind a session.
 *
 * The master side shares one listening socket between all of its sessions.
 * It exists only while a master session that asked to accept is open, and
 * for listen_linger_ms after the last one closed; while slaves wait in its
 * backlog, up to listen_wait_ms.  So a slave that connected while one
 * master run was finishing waits for the next run instead of being reset
 * with it, and a slave that came too late is reset after a bounded wait.
 * After that the port is free (refusing slaves, which then know no master
 * is there), and rmmod closes a lingering listener at once, so quick
 * rmmod/insmod cycles can bind it again (SO_REUSEADDR covers the
 * connections still in TIME_WAIT).
 *
 * Every blocking call (accept, connect, send, receive) sleeps
 * interruptibly: a signal ends it with -ERESTARTSYS, or with what was
 * transferred so far.
 */
#include "syncdev.h"

#include <linux/tcp.h>
#include <net/inet_connection_sock.h>
#include <linux/uio.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#define SYNCDEV_BACKLOG	16

static DEFINE_MUTEX(listener_lock);
static struct socket *listener;		/* protected by listener_lock */
static unsigned int listener_users;	/* protected by listener_lock */
static unsigned long listener_idle_since; /* jiffies; listener_lock */

/* How often a listener kept for waiting slaves looks for a master. */
#define SYNCDEV_WAIT_POLL	(HZ / 4)

static void syncdev_listener_reap(struct work_struct *work);
static DECLARE_DELAYED_WORK(listener_reaper, syncdev_listener_reap);

static int syncdev_listen(struct socket **res)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(syncdev_port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	struct socket *sock;
	int ret;

	/*
	 * Kernel sockets do not pin a network namespace, so the listener
	 * belongs to init_net, which outlives the module.
	 */
	ret = sock_create_kern(&init_net, PF_INET, SOCK_STREAM, IPPROTO_TCP,
			       &sock);
	if (ret)
		return ret;
	sock_set_reuseaddr(sock->sk);
	ret = kernel_bind(sock, (struct sockaddr *)&sin, sizeof(sin));
	if (ret) {
		pr_err("cannot bind port %u: %d\n", syncdev_port, ret);
		goto fail;
	}
	ret = kernel_listen(sock, SYNCDEV_BACKLOG);
	if (ret)
		goto fail;
	pr_info("listening on port %u\n", syncdev_port);
	*res = sock;
	return 0;
fail:
	sock_release(sock);
	return ret;
}

static int syncdev_listener_get(struct syncdev_session *s)
{
	int ret = 0;

	if (s->listening)
		return 0;
	if (mutex_lock_interruptible(&listener_lock))
		return -ERESTARTSYS;
	/* A lingering listener is ours again; the reaper rechecks users. */
	cancel_delayed_work(&listener_reaper);
	if (!listener)
		ret = syncdev_listen(&listener);
	if (!ret) {
		listener_users++;
		s->listening = true;
	}
	mutex_unlock(&listener_lock);
	return ret;
}

/* Caller holds listener_lock. */
static void syncdev_listener_close(void)
{
	if (!listener || listener_users)
		return;
	sock_release(listener);
	listener = NULL;
	pr_info("stopped listening on port %u\n", syncdev_port);
}

/* Connections established or being set up that no one accepted yet. */
static bool syncdev_listener_has_waiters(void)
{
	struct sock *sk = listener->sk;

	return READ_ONCE(sk->sk_ack_backlog) || inet_csk_reqsk_queue_len(sk);
}

static void syncdev_listener_reap(struct work_struct *work)
{
	unsigned long wait_end;

	mutex_lock(&listener_lock);
	wait_end = listener_idle_since +
		   msecs_to_jiffies(READ_ONCE(syncdev_listen_wait_ms));
	/* Closing now would reset slaves that wait for the next master. */
	if (listener && !listener_users && syncdev_listener_has_waiters() &&
	    time_before(jiffies, wait_end))
		mod_delayed_work(system_wq, &listener_reaper,
				 min_t(unsigned long, SYNCDEV_WAIT_POLL,
				       wait_end - jiffies));
	else
		syncdev_listener_close();
	mutex_unlock(&listener_lock);
}

void syncdev_listener_put(struct syncdev_session *s)
{
	if (!s->listening)
		return;
	/* Short: no one blocks while holding listener_lock. */
	mutex_lock(&listener_lock);
	if (!--listener_users) {
		listener_idle_since = jiffies;
		mod_delayed_work(system_wq, &listener_reaper,
				 msecs_to_jiffies(READ_ONCE(syncdev_listen_linger_ms)));
	}
	mutex_unlock(&listener_lock);
	s->listening = false;
}

/* Module exit: no file is open, so no session holds the listener. */
void syncdev_listener_shutdown(void)
{
	cancel_delayed_work_sync(&listener_reaper);
	mutex_lock(&listener_lock);
	syncdev_listener_close();
	mutex_unlock(&listener_lock);
}

/* A fresh connection: no Nagle delay for the small file headers. */
static void syncdev_attach(struct syncdev_session *s, struct socket *sock)
{
	tcp_sock_set_nodelay(sock->sk);
	memset(&s->peer, 0, sizeof(s->peer));
	kernel_getpeername(sock, (struct sockaddr *)&s->peer);
	s->sock = sock;
	s->bytes_sent = 0;
	s->bytes_received = 0;
}

/*
 * A slave never sends, so a connection whose peer already closed it (FIN
 * or RST) before we accepted it is a slave that gave up while it waited
 * for a master: handing it over would only make the master fail.
 */
static bool syncdev_peer_gone(struct socket *sock)
{
	int state = READ_ONCE(sock->sk->sk_state);

	return state == TCP_CLOSE_WAIT || state == TCP_CLOSE;
}

int syncdev_accept(struct syncdev_session *s)
{
	struct socket *sock;
	int ret;

	if (s->sock)
		return -EISCONN;
	ret = syncdev_listener_get(s);
	if (ret)
		return ret;
	/* Our reference keeps the listener alive while we sleep here. */
	for (;;) {
		ret = kernel_accept(listener, &sock, 0);
		if (ret)
			return ret;
		if (!syncdev_peer_gone(sock))
			break;
		sess_info(s, "skipped a connection whose slave had gone\n");
		sock_release(sock);
	}
	syncdev_attach(s, sock);
	sess_info(s, "accepted connection from %pISpc on port %u\n", &s->peer,
		  syncdev_port);
	return 0;
}

int syncdev_connect(struct syncdev_session *s, __be32 addr, u16 port,
		    unsigned int timeout_ms)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = addr,
	};
	struct socket *sock;
	int ret;

	if (s->sock)
		return -EISCONN;
	ret = sock_create_kern(&init_net, PF_INET, SOCK_STREAM, IPPROTO_TCP,
			       &sock);
	if (ret)
		return ret;
	/* A blocking connect waits at most sk_sndtimeo, interruptibly. */
	lock_sock(sock->sk);
	sock->sk->sk_sndtimeo = timeout_ms ? msecs_to_jiffies(timeout_ms) :
					     MAX_SCHEDULE_TIMEOUT;
	release_sock(sock->sk);
	ret = kernel_connect(sock, (struct sockaddr *)&sin, sizeof(sin), 0);
	if (ret == -EINPROGRESS)	/* sk_sndtimeo ran out */
		ret = -ETIMEDOUT;
	if (ret) {
		sock_release(sock);
		return ret;
	}
	lock_sock(sock->sk);
	sock->sk->sk_sndtimeo = MAX_SCHEDULE_TIMEOUT;
	release_sock(sock->sk);
	syncdev_attach(s, sock);
	sess_info(s, "connected to %pISpc\n", &s->peer);
	return 0;
}

void syncdev_disconnect(struct syncdev_session *s)
{
	if (!s->sock)
		return;
	sess_info(s, "closed connection with %pISpc: sent %llu bytes, received %llu bytes\n",
		  &s->peer, s->bytes_sent, s->bytes_received);
	/* Queued data still goes out before the FIN; nothing is dropped. */
	sock_release(s->sock);
	s->sock = NULL;
}

/*
 * Move the bytes described by @iter over the session's connection, as
 * nbd's __sock_xmit() does, and keep error and progress apart: the return
 * value is 0 or -errno, and *@moved grows by the bytes moved either way
 * (@iter is advanced by as much).  @how says when the transfer is over:
 *
 *   SYNCDEV_XMIT_ONCE  one socket call: a receive returns what has arrived
 *                      (*@moved unchanged at end of stream);
 *   SYNCDEV_XMIT_FILL  receive until @iter is full or the stream ends;
 *   SYNCDEV_XMIT_ALL   every byte: end of stream first is -EPIPE.
 *
 * A signal stops the loop with -ERESTARTSYS or -EINTR, after what it
 * moved so far.
 */
int syncdev_xmit(struct syncdev_session *s, bool send, struct iov_iter *iter,
		 int flags, enum syncdev_xmit_how how, size_t *moved)
{
	struct msghdr msg = { };
	int ret;

	if (!s->sock)
		return -ENOTCONN;
	msg.msg_iter = *iter;
	do {
		msg.msg_flags = flags | MSG_NOSIGNAL;
		if (send)
			ret = sock_sendmsg(s->sock, &msg);
		else
			ret = sock_recvmsg(s->sock, &msg, msg.msg_flags);
		if (ret <= 0) {
			if (!ret && how == SYNCDEV_XMIT_ALL)
				ret = -EPIPE;	/* short stream */
			break;
		}
		*moved += ret;
		if (send)
			s->bytes_sent += ret;
		else
			s->bytes_received += ret;
		ret = 0;
	} while (how != SYNCDEV_XMIT_ONCE && msg_data_left(&msg));
	*iter = msg.msg_iter;
	return ret;
}

int syncdev_xmit_kernel(struct syncdev_session *s, bool send, void *data,
			size_t len, enum syncdev_xmit_how how, size_t *moved)
{
	struct kvec kv = { .iov_base = data, .iov_len = len };
	struct iov_iter iter;

	iov_iter_kvec(&iter, send ? ITER_SOURCE : ITER_DEST, &kv, 1, len);
	return syncdev_xmit(s, send, &iter, 0, how, moved);
}
