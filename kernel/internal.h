/* SPDX-License-Identifier: GPL-2.0 */
/*
 * syncdev internals: the two devices, the per-open-file session and the
 * pieces each file implements: the module's own header, which userspace never
 * sees.  The kernel-user ABI is uapi/syncdev_abi.h.
 */
#ifndef SYNCDEV_INTERNAL_H
#define SYNCDEV_INTERNAL_H

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/in.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/net.h>
#include <linux/ratelimit.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include "compat.h"

enum syncdev_role { SYNCDEV_MASTER, SYNCDEV_SLAVE };

/* Module parameters (main.c). */
extern unsigned short syncdev_port;
extern unsigned long syncdev_buf_size;
extern unsigned long syncdev_max_buffer_bytes;
extern unsigned long syncdev_max_user_buffer_bytes;
extern unsigned int syncdev_connect_timeout_ms;
extern unsigned int syncdev_listen_linger_ms;
extern unsigned int syncdev_listen_wait_ms;
extern unsigned int syncdev_progress_timeout_ms;
extern unsigned int syncdev_keepalive_idle_s;
extern unsigned int syncdev_keepalive_intvl_s;
extern unsigned int syncdev_keepalive_cnt;
extern __be32 syncdev_allowed_peer;

/* legacy_send_result: what a master's legacy transfer returns. */
enum syncdev_send_result {
	SYNCDEV_SEND_RESULT_BYTES,	/* the bytes sent */
	SYNCDEV_SEND_RESULT_ZERO,
};

/* legacy_read: what a legacy slave's read() takes from the stream. */
enum syncdev_legacy_read {
	SYNCDEV_LEGACY_READ_FILL,	/* the count, unless the stream ends */
	SYNCDEV_LEGACY_READ_STARTER,	/* one 512-byte unit (xfer.c) */
};

extern unsigned int syncdev_legacy_send_result;
extern unsigned int syncdev_legacy_read;

struct syncdev_device {
	struct miscdevice misc;
	enum syncdev_role role;
};

/*
 * A buffer transfer (SEND, RECV with WAITALL, legacy) that a signal
 * stopped part-way: what it was asked to move and how far it got, so that
 * the same call, restarted, resumes (as nbd keeps "sent" in its command).
 * len == 0: none.
 */
struct syncdev_partial {
	u64 offset;
	u64 len;
	u64 done;
	int how;			/* enum syncdev_xmit_how */
};

/*
 * One per open file.  @lock serialises everything that touches the
 * connection, and is held across blocking socket calls; it is always taken
 * interruptibly, so a waiter can be killed.  The buffer pointer is set once
 * (cmpxchg) and never changes until release, so mmap, the fault handler
 * and the page dump read it without @lock; the record of the last mapping
 * is written by mmap (under mmap_lock) and read by the ioctls, so it has a
 * spinlock of its own.
 */
struct syncdev_listener;

struct syncdev_session {
	struct syncdev_device *dev;
	unsigned int id;		/* for log lines: master#3 */
	struct net *net;		/* the opener's; every socket lives there */
	/*
	 * Who opened the file (its effective uid): its buffer is charged to
	 * that user, and its ACCEPT shares a listener only with that user's.
	 * What the opener's capabilities allowed, checked once at open as
	 * /proc/PID/pagemap does: a file handed to another process keeps
	 * what its opener could do, never more.
	 */
	kuid_t uid;
	/*
	 * Whose share of the buffers it is charged to: @uid, or for an
	 * opener inside a user namespace the owner of the outermost one
	 * (buffer.c).
	 */
	kuid_t share_uid;
	bool show_pfn;			/* CAP_SYS_ADMIN: pfn, flags, counts */
	bool no_user_limit;		/* CAP_SYS_RESOURCE: no per-user share */
	struct mutex lock;
	/*
	 * Held (briefly, never across a blocking call) with @lock to set or
	 * clear @sock and @connecting, and alone by DISCONNECT to shut them
	 * down under a call that sleeps holding @lock.
	 */
	struct mutex conn_lock;
	struct socket *sock;		/* connected socket, or NULL */
	struct sockaddr_in peer;
	int sock_err;			/* set once the connection is dead */
	/* The listener of @net this session holds a reference on, or NULL. */
	struct syncdev_listener *listener;
	/* Lines a remote host can cause (connections, timeouts). */
	struct ratelimit_state log_rs;
	u64 bytes_sent;
	u64 bytes_received;
	struct syncdev_partial tx;	/* interrupted buffer send */
	struct syncdev_partial rx;	/* interrupted buffer receive */
	/* legacy_read=starter: bytes of the unit a short read left */
	unsigned int legacy_skip;
	unsigned int timeout_ms;	/* SET_TIMEOUT; 0 = progress_timeout_ms */
	__be32 allowed_peer;		/* SET_PEER; 0 = allowed_peer */
	unsigned int handshake_ms;	/* SET_HANDSHAKE; 0 = none */
	/* jiffies by which CONFIRM must come; 0 = none or confirmed */
	unsigned long handshake_deadline;
	/* jiffies when the connection became ours (its share: transport.c) */
	unsigned long attached_at;
	unsigned int strangers;		/* connections dropped at it */
	bool peer_confirmed;		/* CONFIRM: the program's own peer */
	/* The peer's last acknowledgment: where (snd_una) and when. */
	u32 acked_seq;
	unsigned long acked_at;
	/* A CONNECT that a signal interrupted, resumed by its restart. */
	struct socket *connecting;
	struct sockaddr_in connect_to;
	unsigned long connect_deadline;	/* jiffies; 0 = none */

	void *buf;			/* see buffer.c */
	bool buf_charged;		/* to @uid's share (buffer.c) */
	spinlock_t map_lock;
	unsigned long map_addr;		/* start of the last mmap() of it */
	unsigned long map_pgoff;	/* the buffer's page it shows first */
	unsigned long map_pages;	/* and its length */
	bool legacy;			/* used a legacy number: see ioctl.c */
};

static inline const char *syncdev_role_name(const struct syncdev_session *s)
{
	return s->dev->role == SYNCDEV_MASTER ? "master" : "slave";
}

/*
 * log.c, below every other file: pr_info() with the session's name
 * ("master#3: ") in front.
 */
__printf(2, 3)
void sess_info(const struct syncdev_session *s, const char *fmt, ...);

/* sess_info() within the session's rate limit: what a peer can cause. */
__printf(2, 3)
void sess_info_peer(struct syncdev_session *s, const char *fmt, ...);

/* session.c: the file operations of both devices. */
extern const struct file_operations syncdev_fops;

/* A call on a non-blocking file never waits for the connection. */
static inline int syncdev_file_msg_flags(const struct file *file)
{
	return file->f_flags & O_NONBLOCK ? MSG_DONTWAIT : 0;
}

/* A non-blocking call does not wait behind another one either. */
static inline int syncdev_lock(struct syncdev_session *s, int flags)
{
	if (flags & MSG_DONTWAIT)
		return mutex_trylock(&s->lock) ? 0 : -EAGAIN;
	if (mutex_lock_interruptible(&s->lock))
		return -ERESTARTSYS;
	return 0;
}

/* splice.c: splice() and sendfile() on the devices. */
struct pipe_inode_info;
struct syncdev_pipe_dst {
	struct pipe_inode_info *pipe;
	unsigned int flags;		/* SPLICE_F_* */
};

ssize_t syncdev_splice_write(struct pipe_inode_info *pipe, struct file *out,
			     loff_t *ppos, size_t len, unsigned int flags);
ssize_t syncdev_splice_read(struct file *in, loff_t *ppos,
			    struct pipe_inode_info *pipe, size_t len,
			    unsigned int flags);

/* sockpipe.c: the socket's side of splice_read. */
int syncdev_sock_splice(struct socket *sock,
			const struct syncdev_pipe_dst *dst, size_t len,
			int flags);

/* transport.c: the TCP connection of a session; callers hold s->lock. */
int syncdev_accept(struct syncdev_session *s);
int syncdev_connect(struct syncdev_session *s, __be32 addr, u16 port,
		    unsigned int timeout_ms);
void syncdev_disconnect(struct syncdev_session *s);
int syncdev_abort(struct syncdev_session *s);
int syncdev_confirm(struct syncdev_session *s);
void syncdev_shutdown(struct syncdev_session *s, int err);
void syncdev_listener_put(struct syncdev_session *s);
void syncdev_listener_shutdown(void);
__be32 syncdev_peer_filter(const struct syncdev_session *s);

/* How much a transfer must move before it is over (see syncdev_xmit()). */
enum syncdev_xmit_how {
	SYNCDEV_XMIT_ONCE,
	SYNCDEV_XMIT_FILL,
	SYNCDEV_XMIT_ALL,
};

int syncdev_xmit(struct syncdev_session *s, bool send, struct iov_iter *iter,
		 int flags, enum syncdev_xmit_how how, size_t *moved);
int syncdev_xmit_kernel(struct syncdev_session *s, bool send, void *data,
			size_t len, enum syncdev_xmit_how how, size_t *moved);
int syncdev_recv_pipe(struct syncdev_session *s,
		      const struct syncdev_pipe_dst *dst, size_t len, int flags,
		      size_t *moved);

/* xfer.c: transfers of the buffer that survive signals; s->lock held. */
long syncdev_buf_xfer(struct syncdev_session *s, bool send, u64 offset,
		      u64 len, enum syncdev_xmit_how how);
int syncdev_partial_check(struct syncdev_session *s, bool send);
ssize_t syncdev_fill_read(struct syncdev_session *s, struct iov_iter *iter,
			  int flags);

/*
 * Forget an interrupted transfer and a starter read's rest: the
 * connection they belonged to is gone (transport.c).  Inline, so that
 * the connection's code does not call back up into xfer.c.
 */
static inline void syncdev_partial_clear(struct syncdev_session *s)
{
	memset(&s->tx, 0, sizeof(s->tx));
	memset(&s->rx, 0, sizeof(s->rx));
	s->legacy_skip = 0;
}

/* buffer.c: the mmappable buffer. */
void *syncdev_buffer(struct syncdev_session *s);
void syncdev_buffer_free(struct syncdev_session *s);
int syncdev_mmap(struct file *file, struct vm_area_struct *vma);

/* ioctl.c */
long syncdev_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* pagedump.c */
int syncdev_print_page(struct syncdev_session *s, unsigned long uaddr,
		       bool legacy);

#endif /* SYNCDEV_INTERNAL_H */
