// SPDX-License-Identifier: GPL-2.0
/*
 * The TCP connection behind a session.
 *
 * The master side shares one listening socket between the sessions of one
 * user (per network namespace: below).  It exists only while a master
 * session that asked to accept is open, and for listen_linger_ms after
 * the last one closed; while slaves wait in its backlog, up to
 * listen_wait_ms.  So a slave that connected while one master run was
 * finishing waits for the next run instead of being reset
 * with it, and a slave that came too late is reset after a bounded wait.
 * After that the port is free (refusing slaves, which then know no master
 * is there), and rmmod closes a lingering listener at once, so quick
 * rmmod/insmod cycles can bind it again (SO_REUSEADDR covers the
 * connections still in TIME_WAIT).
 *
 * Every blocking call (accept, connect, send, receive) sleeps
 * interruptibly: a signal ends it with -ERESTARTSYS, and what was done so
 * far is kept in the session for the restarted call (see xfer.c for the
 * buffer transfers).  Every connection has TCP keepalive, and every send
 * or receive on it a progress timeout, and, until the program confirms
 * its peer, the session's handshake deadline.
 *
 * Sockets live in the network namespace of the process that opened the
 * device (the session holds a reference on it) and are created as that
 * process's, as socket(2) would: LSMs and the namespace's rules (its
 * addresses, routes, privileged ports) apply.
 */
#include "internal.h"

#include <linux/tcp.h>
#include <net/inet_connection_sock.h>
#include <linux/uio.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/sock.h>

/*
 * Room for many more connections than a run has strangers: a full accept
 * queue makes the kernel drop the real slave's SYN, and its connect time
 * out, however quickly the strangers before it are dropped.
 */
#define SYNCDEV_BACKLOG	128

/*
 * While other connections wait to be accepted, an unconfirmed one has a
 * share of the handshake's deadline from its ACCEPT: 1/SYNCDEV_BUSY_SHARE
 * while its peer has sent nothing, 1/SYNCDEV_BUSY_SPOKE once it has (a
 * slave's hello is there at once, and its key proof needs the time of a
 * slow machine); at least SYNCDEV_BUSY_MIN_MS, at most the deadline.  A
 * connection in its handshake looks at the accept queue as often as the
 * smaller share.  So a silent stranger holds the master for 1/32 of the
 * deadline while a slave waits behind it, one that greets and stalls for
 * 1/8: a slave behind 17 silent strangers, or behind 5 that greet, is
 * accepted within its own deadline with time left for its handshake.
 */
#define SYNCDEV_BUSY_SHARE	32
#define SYNCDEV_BUSY_SPOKE	8
#define SYNCDEV_BUSY_MIN_MS	250

/*
 * One listener per network namespace that a master session accepts in:
 * a process in a container listens on its own namespace's port.  The
 * socket is the opener's (created as by socket(2), so LSMs see it), and
 * holds a reference on its namespace.  It serves the sessions of the user
 * who created it only (syncdev_listener_claim()).
 */
struct syncdev_listener {
	struct list_head node;		/* in listeners */
	struct net *net;		/* pinned by @sock */
	struct socket *sock;
	kuid_t owner;			/* whose masters it serves */
	unsigned int users;
	unsigned long idle_since;	/* jiffies */
	bool dying;			/* module exit owns it */
	struct delayed_work reaper;
};

/* The list and every listener's fields but the work: listener_lock. */
static DEFINE_MUTEX(listener_lock);
static LIST_HEAD(listeners);

/* How often a listener kept for waiting slaves looks for a master. */
#define SYNCDEV_WAIT_POLL	(HZ / 4)

static void syncdev_listener_reap(struct work_struct *work);

/* A socket of the session's namespace, created as the caller's. */
static int syncdev_socket(struct syncdev_session *s, struct socket **res)
{
	return __sock_create(s->net, PF_INET, SOCK_STREAM, IPPROTO_TCP, res,
			     0);
}

static int syncdev_listen(struct syncdev_session *s, struct socket **res)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(syncdev_port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	struct socket *sock;
	int ret;

	ret = syncdev_socket(s, &sock);
	if (ret)
		return ret;
	sock_set_reuseaddr(sock->sk);
	ret = kernel_bind(sock, (struct sockaddr_unsized *)&sin, sizeof(sin));
	if (ret) {
		pr_err_ratelimited("cannot bind port %u: %d\n", syncdev_port,
				   ret);
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

/* Caller holds listener_lock. */
static struct syncdev_listener *syncdev_listener_new(struct syncdev_session *s)
{
	struct syncdev_listener *l;
	int ret;

	l = kzalloc_obj(*l);
	if (!l)
		return ERR_PTR(-ENOMEM);
	ret = syncdev_listen(s, &l->sock);
	if (ret) {
		kfree(l);
		return ERR_PTR(ret);
	}
	l->net = s->net;
	l->owner = s->uid;
	INIT_DELAYED_WORK(&l->reaper, syncdev_listener_reap);
	list_add(&l->node, &listeners);
	return l;
}

/*
 * A listener serves the masters of the user who created it, and no one
 * else's, for as long as it exists (lingering included): the connections
 * it queues are for that user's runs, and its socket was created with that
 * user's rights (a port below 1024, an LSM's label).  Another user's
 * ACCEPT finds the port taken, as bind(2) would, until it is closed.
 */
static int syncdev_listener_claim(struct syncdev_session *s,
				  struct syncdev_listener *l)
{
	if (uid_eq(l->owner, s->uid))
		return 0;
	sess_info_peer(s, "port %u is held by another user's master: EADDRINUSE\n",
		       syncdev_port);
	return -EADDRINUSE;
}

static int syncdev_listener_get(struct syncdev_session *s)
{
	struct syncdev_listener *l, *found = NULL;
	int ret;

	if (s->listener)
		return 0;
	if (mutex_lock_interruptible(&listener_lock))
		return -ERESTARTSYS;
	list_for_each_entry(l, &listeners, node)
		if (net_eq(l->net, s->net))
			found = l;
	if (found) {
		ret = syncdev_listener_claim(s, found);
		if (ret)
			found = ERR_PTR(ret);
	} else {
		found = syncdev_listener_new(s);
	}
	if (IS_ERR(found)) {
		mutex_unlock(&listener_lock);
		return PTR_ERR(found);
	}
	/* A lingering listener is ours again; the reaper rechecks users. */
	cancel_delayed_work(&found->reaper);
	found->users++;
	s->listener = found;
	mutex_unlock(&listener_lock);
	return 0;
}

/* Caller holds listener_lock, or is module exit with the work cancelled. */
static void syncdev_listener_close(struct syncdev_listener *l)
{
	list_del(&l->node);
	sock_release(l->sock);
	kfree(l);
	pr_info("stopped listening on port %u\n", syncdev_port);
}

/* Established connections that wait for an ACCEPT. */
static bool syncdev_listener_queued(struct syncdev_listener *l)
{
	return READ_ONCE(l->sock->sk->sk_ack_backlog);
}

/* Connections established or being set up that no one accepted yet. */
static bool syncdev_listener_has_waiters(struct syncdev_listener *l)
{
	struct sock *sk = l->sock->sk;

	return READ_ONCE(sk->sk_ack_backlog) || inet_csk_reqsk_queue_len(sk);
}

static void syncdev_listener_reap(struct work_struct *work)
{
	struct syncdev_listener *l = container_of(to_delayed_work(work),
						  struct syncdev_listener,
						  reaper);
	unsigned long wait_end;

	mutex_lock(&listener_lock);
	if (l->dying || l->users)
		goto out;
	wait_end = l->idle_since +
		   msecs_to_jiffies(READ_ONCE(syncdev_listen_wait_ms));
	/* Closing now would reset slaves that wait for the next master. */
	if (syncdev_listener_has_waiters(l) && time_before(jiffies, wait_end))
		mod_delayed_work(system_dfl_wq, &l->reaper,
				 min_t(unsigned long, SYNCDEV_WAIT_POLL,
				       wait_end - jiffies));
	else
		syncdev_listener_close(l);
out:
	mutex_unlock(&listener_lock);
}

void syncdev_listener_put(struct syncdev_session *s)
{
	struct syncdev_listener *l = s->listener;

	if (!l)
		return;
	/* Short: no one blocks while holding listener_lock. */
	mutex_lock(&listener_lock);
	if (!--l->users) {
		l->idle_since = jiffies;
		mod_delayed_work(system_dfl_wq, &l->reaper,
				 msecs_to_jiffies(READ_ONCE(syncdev_listen_linger_ms)));
	}
	mutex_unlock(&listener_lock);
	s->listener = NULL;
}

/*
 * Module exit: no file is open, so no session holds a listener.  A reaper
 * that runs meanwhile sees @dying and leaves the listener alone.
 */
void syncdev_listener_shutdown(void)
{
	struct syncdev_listener *l, *tmp;

	mutex_lock(&listener_lock);
	list_for_each_entry(l, &listeners, node)
		l->dying = true;
	mutex_unlock(&listener_lock);
	list_for_each_entry_safe(l, tmp, &listeners, node) {
		cancel_delayed_work_sync(&l->reaper);
		syncdev_listener_close(l);
	}
}

/* The session's peer filter: SET_PEER, else the module's allowed_peer. */
__be32 syncdev_peer_filter(const struct syncdev_session *s)
{
	return s->allowed_peer ? s->allowed_peer : READ_ONCE(syncdev_allowed_peer);
}

/*
 * TCP keepalive, so that a peer that vanished while we wait to receive
 * (its machine powered off, the cable pulled) ends the wait with
 * ETIMEDOUT after keepalive_idle_s + keepalive_cnt * keepalive_intvl_s.
 * The values are range-checked when the parameters are set (main.c).
 */
static void syncdev_keepalive(struct sock *sk)
{
	unsigned int idle = READ_ONCE(syncdev_keepalive_idle_s);

	if (!idle)
		return;
	tcp_sock_set_keepidle(sk, idle);
	tcp_sock_set_keepintvl(sk, READ_ONCE(syncdev_keepalive_intvl_s));
	tcp_sock_set_keepcnt(sk, READ_ONCE(syncdev_keepalive_cnt));
	sock_set_keepalive(sk);
}

/*
 * The handshake's share while other connections wait: 1/@share of it
 * (SYNCDEV_BUSY_SHARE, SYNCDEV_BUSY_SPOKE).
 */
static unsigned long syncdev_busy_jiffies(const struct syncdev_session *s,
					  unsigned int share)
{
	unsigned int ms = max(s->handshake_ms / share,
			      (unsigned int)SYNCDEV_BUSY_MIN_MS);

	return msecs_to_jiffies(min(ms, s->handshake_ms));
}

/* The share of a connection whose peer has or has not sent anything. */
static unsigned int syncdev_busy_share(const struct syncdev_session *s)
{
	return s->bytes_received ? SYNCDEV_BUSY_SPOKE : SYNCDEV_BUSY_SHARE;
}

/* A fresh connection: no Nagle delay for the small file headers. */
static void syncdev_attach(struct syncdev_session *s, struct socket *sock)
{
	tcp_sock_set_nodelay(sock->sk);
	syncdev_keepalive(sock->sk);
	memset(&s->peer, 0, sizeof(s->peer));
	kernel_getpeername(sock, (struct sockaddr *)&s->peer);
	mutex_lock(&s->conn_lock);
	s->sock = sock;
	mutex_unlock(&s->conn_lock);
	s->sock_err = 0;
	s->bytes_sent = 0;
	s->bytes_received = 0;
	s->peer_confirmed = false;
	/* 0 is "none"; a deadline that lands on 0 is one jiffy late. */
	s->handshake_deadline = s->handshake_ms ?
		(jiffies + msecs_to_jiffies(s->handshake_ms)) | 1 : 0;
	s->attached_at = jiffies;
	s->acked_seq = READ_ONCE(tcp_sk(sock->sk)->snd_una);
	s->acked_at = jiffies;
	syncdev_partial_clear(s);
}

/*
 * Whether ACCEPT takes a connection.  A master session takes only its
 * allowed peer, if it has one; a stranger is reset (and logged, within
 * limits: anyone can connect).  A slave only ever closes its connection as
 * a whole, and writes only after it received something, so a connection
 * whose peer already closed it (FIN or RST) before we accepted it is a
 * slave that gave up while it waited for a master: handing it over would
 * only make the master fail.
 */
static bool syncdev_takes(struct syncdev_session *s, struct socket *sock)
{
	__be32 allowed = syncdev_peer_filter(s);
	int state = READ_ONCE(sock->sk->sk_state);
	struct sockaddr_in peer = { };

	kernel_getpeername(sock, (struct sockaddr *)&peer);
	if (allowed && peer.sin_addr.s_addr != allowed) {
		sess_info_peer(s, "refused a connection from %pI4: the allowed peer is %pI4\n",
			       &peer.sin_addr, &allowed);
		sock_no_linger(sock->sk);
		return false;
	}
	if (state == TCP_CLOSE_WAIT || state == TCP_CLOSE) {
		sess_info_peer(s, "skipped a connection whose slave had gone\n");
		return false;
	}
	return true;
}

/*
 * Wait for a slave.  Nothing is half done when a signal interrupts the
 * wait (a connection is either still queued or ours), so the call simply
 * restarts; the listener reference it took stays with the session.
 */
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
		ret = kernel_accept(s->listener->sock, &sock, 0);
		if (ret)
			return ret == -EINTR ? -ERESTARTSYS : ret;
		if (syncdev_takes(s, sock))
			break;
		sock_release(sock);
	}
	syncdev_attach(s, sock);
	sess_info_peer(s, "accepted connection from %pISpc on port %u\n",
		       &s->peer, syncdev_port);
	return 0;
}

/* Caller holds s->lock; conn_lock guards the pointer for DISCONNECT. */
static void syncdev_set_connecting(struct syncdev_session *s,
				   struct socket *sock)
{
	mutex_lock(&s->conn_lock);
	s->connecting = sock;
	mutex_unlock(&s->conn_lock);
}

static void syncdev_connect_abort(struct syncdev_session *s)
{
	struct socket *sock = s->connecting;

	if (!sock)
		return;
	syncdev_set_connecting(s, NULL);
	sock_release(sock);
}

/*
 * TCP lets a socket connect to itself: a connect to a local port in the
 * ephemeral range that nothing listens on may be given that very port as
 * its own, and the handshake then completes with itself (simultaneous
 * open).  No master is on the other end, so that counts as a refusal.
 */
static bool syncdev_self_connected(struct socket *sock)
{
	struct sockaddr_in local, peer;

	if (kernel_getsockname(sock, (struct sockaddr *)&local) < 0 ||
	    kernel_getpeername(sock, (struct sockaddr *)&peer) < 0)
		return false;
	return local.sin_port == peer.sin_port &&
	       local.sin_addr.s_addr == peer.sin_addr.s_addr;
}

/*
 * One wait for the pending connect, at most until its deadline.  The
 * blocking connect waits at most sk_sndtimeo; called again on a socket
 * that is still connecting, it goes on waiting (or reports how the attempt
 * ended meanwhile), so a restarted CONNECT resumes the same attempt.
 */
static int syncdev_connect_wait(struct syncdev_session *s)
{
	struct socket *sock = s->connecting;
	long timeo = MAX_SCHEDULE_TIMEOUT;
	int ret;

	if (s->connect_deadline) {
		timeo = (long)(s->connect_deadline - jiffies);
		/* Past the deadline: one last look at how it went. */
		if (timeo < 1)
			timeo = 1;
	}
	lock_sock(sock->sk);
	sock->sk->sk_sndtimeo = timeo;
	release_sock(sock->sk);
	ret = kernel_connect(sock, (struct sockaddr_unsized *)&s->connect_to,
			     sizeof(s->connect_to), 0);
	if (!ret && syncdev_self_connected(sock)) {
		/*
		 * Closed with a reset, so that no TIME_WAIT keeps the port
		 * from the master that may listen on it next.
		 */
		sock_no_linger(sock->sk);
		return -ECONNREFUSED;
	}
	/* Still connecting when sk_sndtimeo ran out. */
	if (ret == -EINPROGRESS || ret == -EALREADY)
		return -ETIMEDOUT;
	/* A finite sk_sndtimeo makes a signal EINTR instead. */
	if (ret == -EINTR)
		return -ERESTARTSYS;
	return ret;
}

/*
 * Connect to a master within @timeout_ms (0: as long as TCP tries).  A
 * signal leaves the attempt in s->connecting with its deadline: the
 * restarted call (same address) goes on waiting for it, so stop/continue,
 * a freezer or a debugger neither fails nor prolongs a CONNECT.
 */
int syncdev_connect(struct syncdev_session *s, __be32 addr, u16 port,
		    unsigned int timeout_ms)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = addr,
	};
	__be32 allowed = syncdev_peer_filter(s);
	struct socket *sock;
	int ret;

	if (s->sock)
		return -EISCONN;
	if (allowed && addr != allowed)
		return -EACCES;
	if (s->connecting && memcmp(&sin, &s->connect_to, sizeof(sin)))
		syncdev_connect_abort(s);
	if (!s->connecting) {
		ret = syncdev_socket(s, &sock);
		if (ret)
			return ret;
		syncdev_set_connecting(s, sock);
		s->connect_to = sin;
		/* 0 is "none"; a deadline that lands on 0 is one jiffy late. */
		s->connect_deadline = timeout_ms ?
			(jiffies + msecs_to_jiffies(timeout_ms)) | 1 : 0;
	}
	ret = syncdev_connect_wait(s);
	if (ret == -ERESTARTSYS && !fatal_signal_pending(current))
		return ret;
	if (ret) {
		syncdev_connect_abort(s);
		return ret == -ERESTARTSYS ? -EINTR : ret;
	}
	sock = s->connecting;
	syncdev_set_connecting(s, NULL);
	syncdev_attach(s, sock);
	sess_info_peer(s, "connected to %pISpc\n", &s->peer);
	return 0;
}

static void syncdev_log_closed(const struct syncdev_session *s)
{
	sess_info(s, "closed connection with %pISpc: sent %llu bytes, received %llu bytes\n",
		  &s->peer, s->bytes_sent, s->bytes_received);
}

void syncdev_disconnect(struct syncdev_session *s)
{
	struct socket *sock = s->sock;

	syncdev_connect_abort(s);
	if (!sock)
		return;
	/*
	 * The program's own peer's connection is always logged with its byte
	 * counts: they are the kernel's word on what crossed the device,
	 * which a grader reads.  That is a legacy session's (the course's
	 * programs ask no handshake and take each connection they accept)
	 * or one that confirmed its handshake; any other is one of the lines
	 * a remote host can cause.
	 */
	if (s->legacy || s->peer_confirmed || __ratelimit(&s->log_rs))
		syncdev_log_closed(s);
	mutex_lock(&s->conn_lock);
	s->sock = NULL;
	mutex_unlock(&s->conn_lock);
	s->handshake_deadline = 0;
	/* Queued data still goes out before the FIN; nothing is dropped. */
	sock_release(sock);
	syncdev_partial_clear(s);
}

/*
 * DISCONNECT from another thread, before it waits for s->lock: a call
 * blocked on the connection (a receive, a send, a connect) holds that
 * lock while it sleeps, so the connection is shut down under it.  The
 * sleeper wakes up at once (end of stream, EPIPE, or a failed connect)
 * and releases the lock; DISCONNECT then closes the connection.
 */
int syncdev_abort(struct syncdev_session *s)
{
	if (mutex_lock_interruptible(&s->conn_lock))
		return -ERESTARTSYS;
	if (s->sock)
		kernel_sock_shutdown(s->sock, SHUT_RDWR);
	if (s->connecting)
		kernel_sock_shutdown(s->connecting, SHUT_RDWR);
	mutex_unlock(&s->conn_lock);
	return 0;
}

/*
 * End the connection in both directions, keeping the socket (and its
 * counters) until DISCONNECT: from now on every transfer fails with @err.
 */
void syncdev_shutdown(struct syncdev_session *s, int err)
{
	if (!s->sock)
		return;
	kernel_sock_shutdown(s->sock, SHUT_RDWR);
	if (!s->sock_err)
		s->sock_err = err;
	syncdev_partial_clear(s);
}

/* The progress timeout of a session, as a socket timeout. */
static long syncdev_progress_timeo(const struct syncdev_session *s)
{
	unsigned int ms = s->timeout_ms ? s->timeout_ms :
			  READ_ONCE(syncdev_progress_timeout_ms);

	return ms ? msecs_to_jiffies(ms) : MAX_SCHEDULE_TIMEOUT;
}

/*
 * What ends a socket call's wait: the progress timeout, the handshake's
 * deadline, its share while others wait (SYNCDEV_BUSY_SHARE), or a look
 * at the accept queue (the call is made again).
 */
enum syncdev_wait_end {
	SYNCDEV_END_PROGRESS,
	SYNCDEV_END_HANDSHAKE,
	SYNCDEV_END_BUSY,
	SYNCDEV_END_LOOK,
};

/*
 * The peer never proved itself in time (@end: which limit cut it, @ms
 * its length): it goes, whoever it was, and counts as a stranger.
 */
static int syncdev_handshake_expired(struct syncdev_session *s,
				     enum syncdev_wait_end end,
				     unsigned int ms)
{
	static const char *const by[] = {
		[SYNCDEV_END_PROGRESS] = ", the progress timeout",
		[SYNCDEV_END_HANDSHAKE] = "",
		[SYNCDEV_END_BUSY] = ", its share while others waited",
		[SYNCDEV_END_LOOK] = "",
	};

	s->strangers++;
	sess_info_peer(s,
		       "no handshake from %pISpc in %u ms%s: connection shut down (%u so far)\n",
		       &s->peer, ms, by[end], s->strangers);
	s->handshake_deadline = 0;
	syncdev_shutdown(s, -ETIMEDOUT);
	return -ETIMEDOUT;
}

/* How often a blocked send looks at what the peer acknowledged. */
#define SYNCDEV_ACK_LOOK	(HZ / 4)

/*
 * A send's progress is what the peer acknowledged, not what fitted into
 * the socket's buffer: jiffies left of @timeo since its last
 * acknowledgment, or since the buffer held nothing unacknowledged, as
 * seen at most SYNCDEV_ACK_LOOK after it (each wait is that long at most).
 * A peer that never reads then stops the send within the progress
 * timeout, however the buffers fill.
 */
static long syncdev_send_left(struct syncdev_session *s, long timeo)
{
	struct tcp_sock *tp = tcp_sk(s->sock->sk);
	u32 una = READ_ONCE(tp->snd_una);
	long left;

	if (timeo == MAX_SCHEDULE_TIMEOUT)
		return timeo;
	if (una != s->acked_seq || una == READ_ONCE(tp->write_seq)) {
		s->acked_seq = una;
		s->acked_at = jiffies;
	}
	left = (long)(s->acked_at + timeo - jiffies);
	return clamp(left, 0L, (long)SYNCDEV_ACK_LOOK);
}

/*
 * The end of the handshake's wait for an accepted connection: its
 * deadline, its share of it while others wait in the accept queue, or,
 * while none does, a look at the queue after that share.
 */
static unsigned long syncdev_handshake_end(struct syncdev_session *s,
					   enum syncdev_wait_end *end)
{
	unsigned long until = s->handshake_deadline, other;

	*end = SYNCDEV_END_HANDSHAKE;
	if (!s->listener)
		return until;
	if (syncdev_listener_queued(s->listener)) {
		other = s->attached_at +
			syncdev_busy_jiffies(s, syncdev_busy_share(s));
		if (time_before(other, until))
			*end = SYNCDEV_END_BUSY;
	} else {
		other = jiffies + syncdev_busy_jiffies(s, SYNCDEV_BUSY_SHARE);
		if (time_before(other, until))
			*end = SYNCDEV_END_LOOK;
	}
	return *end == SYNCDEV_END_HANDSHAKE ? until : other;
}

/*
 * How long one socket call may wait, and what ends it (*@end); 0 if that
 * limit has passed.  A receive's progress is counted from @since, when
 * its wait began or its last bytes arrived.  Computed before each socket
 * call, so that a peer that sends a byte now and then cannot carry the
 * wait past the deadline.
 */
static long syncdev_call_timeo(struct syncdev_session *s, bool send,
			       unsigned long since, enum syncdev_wait_end *end)
{
	long timeo = syncdev_progress_timeo(s);
	enum syncdev_wait_end hs_end;
	long left;

	*end = SYNCDEV_END_PROGRESS;
	if (send) {
		timeo = syncdev_send_left(s, timeo);
	} else if (timeo != MAX_SCHEDULE_TIMEOUT) {
		left = (long)(since + timeo - jiffies);
		timeo = max(left, 0L);
	}
	if (!timeo || !s->handshake_deadline)
		return timeo;
	left = (long)(syncdev_handshake_end(s, &hs_end) - jiffies);
	if (left < timeo) {
		*end = hs_end;
		return max(left, 0L);
	}
	return timeo;
}

/*
 * CONFIRM: the program trusts its peer; transfers go back to the progress
 * timeout alone.  Too late once the deadline took the connection.
 */
int syncdev_confirm(struct syncdev_session *s)
{
	if (!s->sock)
		return -ENOTCONN;
	if (s->sock_err)
		return s->sock_err;
	if (s->handshake_deadline &&
	    time_after_eq(jiffies, s->handshake_deadline))
		return syncdev_handshake_expired(s, SYNCDEV_END_HANDSHAKE,
						 s->handshake_ms);
	s->handshake_deadline = 0;
	s->peer_confirmed = true;
	return 0;
}

/*
 * After a socket error: is the connection dead?  A signal, a non-blocking
 * call, a bad user pointer or a short allocation leaves it usable; anything
 * else came from the connection itself.  The socket reports an error only
 * once (a reset connection then reads as end of stream), so it is kept.
 */
static void syncdev_note_error(struct syncdev_session *s, int err)
{
	switch (err) {
	case -ERESTARTSYS:
	case -EINTR:
	case -EAGAIN:
	case -EFAULT:
	case -ENOMEM:
	case -ENOBUFS:
		return;
	}
	if (!s->sock_err)
		s->sock_err = err;
}

/*
 * A wait that @end cut with nothing moved: the connection is shut down,
 * -ETIMEDOUT now and for every later transfer on it.  A peer still in its
 * handshake counts as a stranger whichever limit cut it.
 */
static int syncdev_wait_expired(struct syncdev_session *s, bool send,
				enum syncdev_wait_end end)
{
	unsigned int ms = jiffies_to_msecs(syncdev_progress_timeo(s));

	if (end == SYNCDEV_END_HANDSHAKE)
		ms = s->handshake_ms;
	else if (end == SYNCDEV_END_BUSY)
		ms = jiffies_to_msecs(syncdev_busy_jiffies(s,
							   syncdev_busy_share(s)));
	if (s->handshake_deadline)
		return syncdev_handshake_expired(s, end, ms);
	sess_info_peer(s, "nothing %s for %u ms: connection shut down\n",
		       send ? "acknowledged" : "received", ms);
	syncdev_shutdown(s, -ETIMEDOUT);
	return -ETIMEDOUT;
}

/* One socket call: to or from @msg's iterator, or into @dst's pipe. */
static int syncdev_sock_call(struct syncdev_session *s, bool send,
			     struct msghdr *msg,
			     const struct syncdev_pipe_dst *dst)
{
	int ret;

	if (send)
		return syncdev_sock_sendmsg(s->sock, msg);
	if (!dst)
		return sock_recvmsg(s->sock, msg, msg->msg_flags);
	ret = syncdev_sock_splice(s->sock, dst, msg_data_left(msg),
				  msg->msg_flags);
	if (ret > 0)
		iov_iter_advance(&msg->msg_iter, ret);
	return ret;
}

/*
 * Move the bytes described by @iter over the session's connection (a
 * receive into @dst's pipe when there is one, @iter only counting), as
 * nbd's __sock_xmit() does, and keep error and progress apart: the return
 * value is 0 or -errno, and *@moved grows by the bytes moved either way
 * (@iter is advanced by as much).  @how says when the transfer is over:
 *
 *   SYNCDEV_XMIT_ONCE  one socket call: a receive returns what has arrived
 *                      (*@moved unchanged at end of stream);
 *   SYNCDEV_XMIT_FILL  receive until @iter is full or the stream ends;
 *   SYNCDEV_XMIT_ALL   every byte: end of stream first is -EPIPE.
 *
 * A signal stops the loop with -ERESTARTSYS after what it moved so far.
 * A receive that gets nothing for the progress timeout, or a send whose
 * bytes the peer acknowledges none of in it (syncdev_send_left), shuts the
 * connection down: -ETIMEDOUT, now and for every later transfer on it; so
 * does the handshake's deadline (syncdev_call_timeo).  A receive returns
 * as soon as some bytes arrived (no MSG_WAITALL), so its wait starts
 * again after each of them.  A socket call that timed out is made again
 * until one of these limits has passed: the limits may have moved
 * meanwhile (an acknowledgment, a connection in the accept queue).
 */
static int syncdev_xmit_to(struct syncdev_session *s, bool send,
			   struct iov_iter *iter,
			   const struct syncdev_pipe_dst *dst, int flags,
			   enum syncdev_xmit_how how, size_t *moved)
{
	bool nowait = flags & MSG_DONTWAIT;
	unsigned long since = jiffies;
	struct msghdr msg = { };
	enum syncdev_wait_end end;
	long timeo;
	int ret;

	if (!s->sock)
		return -ENOTCONN;
	if (s->sock_err)
		return s->sock_err;
	if (!iov_iter_count(iter))
		return 0;
	msg.msg_iter = *iter;
	for (;;) {
		timeo = syncdev_call_timeo(s, send, since, &end);
		if (!timeo && !(nowait && end == SYNCDEV_END_PROGRESS)) {
			*iter = msg.msg_iter;
			return syncdev_wait_expired(s, send, end);
		}
		WRITE_ONCE(s->sock->sk->sk_sndtimeo, max(timeo, 1L));
		WRITE_ONCE(s->sock->sk->sk_rcvtimeo, max(timeo, 1L));
		msg.msg_flags = flags | MSG_NOSIGNAL;
		ret = syncdev_sock_call(s, send, &msg, dst);
		/* The limits are looked at again: one may have moved. */
		if (ret == -EAGAIN && !nowait)
			continue;
		if (ret <= 0) {
			if (!ret && how == SYNCDEV_XMIT_ALL)
				ret = -EPIPE;	/* short stream */
			break;
		}
		*moved += ret;
		since = jiffies;
		if (send)
			s->bytes_sent += ret;
		else
			s->bytes_received += ret;
		ret = 0;
		if (how == SYNCDEV_XMIT_ONCE || !msg_data_left(&msg))
			break;
	}
	*iter = msg.msg_iter;

	/* A finite socket timeout makes a signal EINTR rather than restart. */
	if (ret == -EINTR)
		return -ERESTARTSYS;
	if (ret)
		syncdev_note_error(s, ret);
	return ret;
}

int syncdev_xmit(struct syncdev_session *s, bool send, struct iov_iter *iter,
		 int flags, enum syncdev_xmit_how how, size_t *moved)
{
	return syncdev_xmit_to(s, send, iter, NULL, flags, how, moved);
}

/* One receive of at most @len bytes into a pipe, as syncdev_xmit() ONCE. */
int syncdev_recv_pipe(struct syncdev_session *s,
		      const struct syncdev_pipe_dst *dst, size_t len, int flags,
		      size_t *moved)
{
	struct iov_iter counter;

	iov_iter_discard(&counter, ITER_DEST, len);
	return syncdev_xmit_to(s, false, &counter, dst, flags,
			       SYNCDEV_XMIT_ONCE, moved);
}

int syncdev_xmit_kernel(struct syncdev_session *s, bool send, void *data,
			size_t len, enum syncdev_xmit_how how, size_t *moved)
{
	struct kvec kv = { .iov_base = data, .iov_len = len };
	struct iov_iter iter;

	iov_iter_kvec(&iter, send ? ITER_SOURCE : ITER_DEST, &kv, 1, len);
	return syncdev_xmit(s, send, &iter, 0, how, moved);
}
