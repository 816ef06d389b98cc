// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl commands: the _IO/_IOW/_IOR ABI of uapi/syncdev.h and the 2020
 * course's legacy numbers, which pass their argument by value.
 *
 * Every command goes through two steps.  syncdev_ioc_prepare() copies the
 * argument in and checks it without any lock: reserved fields and flags
 * must be zero, ranges must lie inside the buffer, an address must be one
 * a slave can connect to.  Then syncdev_ioc_run() does the work with the
 * session lock held, taken once per command in syncdev_ioctl().  A command
 * of the other device (ACCEPT on the slave, ...) is "inappropriate for
 * this device": -ENOTTY.
 */
#include "syncdev.h"

#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>

#include "uapi/syncdev.h"

/* "255.255.255.255:65535" and its NUL. */
#define SYNCDEV_ADDR_MAX	22

enum syncdev_op {
	SYNCDEV_OP_ACCEPT,
	SYNCDEV_OP_CONNECT,
	SYNCDEV_OP_SEND,
	SYNCDEV_OP_RECV,
	SYNCDEV_OP_DISCONNECT,
	SYNCDEV_OP_INFO,
	SYNCDEV_OP_PRINT_PAGE,
};

/* A command with its argument copied in and checked. */
struct syncdev_cmd {
	enum syncdev_op op;
	union {
		struct {
			__be32 addr;
			u16 port;
			unsigned int timeout_ms;
		} conn;
		struct {
			void *data;	/* inside the session's buffer */
			size_t len;
			enum syncdev_xmit_how how;
		} xfer;
		struct syncdev_info info;
		unsigned long uaddr;
	};
};

static bool syncdev_is_master(const struct syncdev_session *s)
{
	return s->dev->role == SYNCDEV_MASTER;
}

static int syncdev_prep_connect(struct syncdev_cmd *c, __be32 addr, u16 port,
				unsigned int timeout_ms)
{
	if (addr == htonl(INADDR_ANY) || addr == htonl(INADDR_BROADCAST) ||
	    ipv4_is_multicast(addr))
		return -EINVAL;
	c->op = SYNCDEV_OP_CONNECT;
	c->conn.addr = addr;
	c->conn.port = port ? port : syncdev_port;
	c->conn.timeout_ms = timeout_ms ? timeout_ms :
				READ_ONCE(syncdev_connect_timeout_ms);
	return 0;
}

static int syncdev_prep_ioc_connect(struct syncdev_cmd *c,
				    struct syncdev_connect __user *uarg)
{
	struct syncdev_connect k;

	if (copy_from_user(&k, uarg, sizeof(k)))
		return -EFAULT;
	if (k.flags || k.reserved)
		return -EINVAL;
	return syncdev_prep_connect(c, (__force __be32)k.addr, k.port,
				    k.timeout_ms);
}

/* Legacy connect: a NUL-terminated "a.b.c.d" or "a.b.c.d:port". */
static int syncdev_prep_legacy_connect(struct syncdev_cmd *c,
				       const char __user *uaddr)
{
	char str[SYNCDEV_ADDR_MAX];
	const char *end;
	__be32 addr;
	u16 port = 0;
	long len;

	len = strncpy_from_user(str, uaddr, sizeof(str));
	if (len < 0)
		return len;
	if (len == sizeof(str))
		return -EINVAL;
	if (!in4_pton(str, len, (u8 *)&addr, ':', &end))
		return -EINVAL;
	if (*end == ':' && (kstrtou16(end + 1, 10, &port) || !port))
		return -EINVAL;
	return syncdev_prep_connect(c, addr, port, 0);
}

/* A transfer of @len bytes of the buffer at @offset. */
static int syncdev_prep_xfer(struct syncdev_session *s, struct syncdev_cmd *c,
			     bool send, u64 offset, u64 len,
			     enum syncdev_xmit_how how)
{
	void *buf;

	if (offset > syncdev_buf_size || len > syncdev_buf_size - offset)
		return -EINVAL;
	buf = syncdev_buffer(s);
	if (!buf)
		return -ENOMEM;
	c->op = send ? SYNCDEV_OP_SEND : SYNCDEV_OP_RECV;
	c->xfer.data = buf + offset;
	c->xfer.len = len;
	c->xfer.how = how;
	return 0;
}

static int syncdev_prep_ioc_xfer(struct syncdev_session *s,
				 struct syncdev_cmd *c, bool send,
				 struct syncdev_xfer __user *uarg)
{
	struct syncdev_xfer x;

	if (copy_from_user(&x, uarg, sizeof(x)))
		return -EFAULT;
	if (x.reserved)
		return -EINVAL;
	if (send) {
		if (x.flags)
			return -EINVAL;
		return syncdev_prep_xfer(s, c, true, x.offset, x.len,
					 SYNCDEV_XMIT_ALL);
	}
	if (x.flags & ~SYNCDEV_RECV_WAITALL)
		return -EINVAL;
	return syncdev_prep_xfer(s, c, false, x.offset, x.len,
				 x.flags & SYNCDEV_RECV_WAITALL ?
				 SYNCDEV_XMIT_FILL : SYNCDEV_XMIT_ONCE);
}

/*
 * Legacy transfer: the master sends @arg bytes from offset 0; the slave
 * fills the buffer from offset 0 up to @arg bytes or the end of the stream.
 * Course programs call the slave side without an argument, so 0 (and any
 * larger value) means "the whole buffer".
 */
static int syncdev_prep_legacy_xfer(struct syncdev_session *s,
				    struct syncdev_cmd *c, unsigned long arg)
{
	if (syncdev_is_master(s))
		return syncdev_prep_xfer(s, c, true, 0, arg, SYNCDEV_XMIT_ALL);
	if (!arg || arg > syncdev_buf_size)
		arg = syncdev_buf_size;
	return syncdev_prep_xfer(s, c, false, 0, arg, SYNCDEV_XMIT_FILL);
}

/* Copy in and check; which commands a device has is decided here. */
static int syncdev_ioc_prepare(struct syncdev_session *s, unsigned int cmd,
			       unsigned long arg, struct syncdev_cmd *c)
{
	void __user *argp = (void __user *)arg;
	bool master = syncdev_is_master(s);
	u64 uaddr;

	switch (cmd) {
	case SYNCDEV_IOC_ACCEPT:
		c->op = SYNCDEV_OP_ACCEPT;
		return master ? 0 : -ENOTTY;
	case SYNCDEV_IOC_CONNECT:
		return master ? -ENOTTY : syncdev_prep_ioc_connect(c, argp);
	case SYNCDEV_IOC_SEND:
		return master ? syncdev_prep_ioc_xfer(s, c, true, argp) : -ENOTTY;
	case SYNCDEV_IOC_RECV:
		return master ? -ENOTTY : syncdev_prep_ioc_xfer(s, c, false, argp);
	case SYNCDEV_IOC_DISCONNECT:
	case SYNCDEV_LEGACY_CLOSE:
		c->op = SYNCDEV_OP_DISCONNECT;
		return 0;
	case SYNCDEV_IOC_PRINT_PAGE:
		if (get_user(uaddr, (u64 __user *)argp))
			return -EFAULT;
		c->op = SYNCDEV_OP_PRINT_PAGE;
		c->uaddr = uaddr;
		return 0;
	case SYNCDEV_IOC_INFO:
		c->op = SYNCDEV_OP_INFO;
		return 0;
	case SYNCDEV_LEGACY_CONNECT:
		c->op = SYNCDEV_OP_ACCEPT;
		return master ? 0 : syncdev_prep_legacy_connect(c, argp);
	case SYNCDEV_LEGACY_XFER:
		return syncdev_prep_legacy_xfer(s, c, arg);
	case SYNCDEV_LEGACY_PRINT:
		c->op = SYNCDEV_OP_PRINT_PAGE;
		c->uaddr = arg;
		return 0;
	default:
		return -ENOTTY;
	}
}

/*
 * Send all of it: a send cut short by a signal or an error leaves the peer
 * with part of a message, so the connection is shut down rather than left
 * silently out of step.
 */
static int syncdev_send_buffer(struct syncdev_session *s, void *data,
			       size_t len)
{
	size_t sent = 0;
	int ret;

	ret = syncdev_xmit_kernel(s, true, data, len, SYNCDEV_XMIT_ALL, &sent);
	if (ret && sent) {
		kernel_sock_shutdown(s->sock, SHUT_RDWR);
		/* Part of it went out: it must not be restarted. */
		if (ret == -ERESTARTSYS)
			ret = -EINTR;
	}
	return ret;
}

/* Receive into the buffer; the count, 0 at end of stream. */
static long syncdev_recv_buffer(struct syncdev_session *s, void *data,
				size_t len, enum syncdev_xmit_how how)
{
	size_t got = 0;
	int ret;

	if (!len)
		return 0;
	ret = syncdev_xmit_kernel(s, false, data, len, how, &got);
	return got ? got : ret;
}

static void syncdev_get_info(struct syncdev_session *s,
			     struct syncdev_info *info)
{
	struct sockaddr_in local = { };

	memset(info, 0, sizeof(*info));
	info->buf_size = syncdev_buf_size;
	if (s->sock) {
		kernel_getsockname(s->sock, (struct sockaddr *)&local);
		info->connected = 1;
		info->peer_addr = (__force __u32)s->peer.sin_addr.s_addr;
		info->peer_port = ntohs(s->peer.sin_port);
		info->local_port = ntohs(local.sin_port);
	}
	info->bytes_sent = s->bytes_sent;
	info->bytes_received = s->bytes_received;
}

/* The work of a prepared command; the caller holds s->lock. */
static long syncdev_ioc_run(struct syncdev_session *s, struct syncdev_cmd *c)
{
	switch (c->op) {
	case SYNCDEV_OP_ACCEPT:
		return syncdev_accept(s);
	case SYNCDEV_OP_CONNECT:
		return syncdev_connect(s, c->conn.addr, c->conn.port,
				       c->conn.timeout_ms);
	case SYNCDEV_OP_SEND:
		return syncdev_send_buffer(s, c->xfer.data, c->xfer.len);
	case SYNCDEV_OP_RECV:
		return syncdev_recv_buffer(s, c->xfer.data, c->xfer.len,
					   c->xfer.how);
	case SYNCDEV_OP_DISCONNECT:
		syncdev_disconnect(s);
		return 0;
	case SYNCDEV_OP_INFO:
		syncdev_get_info(s, &c->info);
		return 0;
	default:
		return -ENOTTY;
	}
}

long syncdev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct syncdev_session *s = file->private_data;
	struct syncdev_cmd c;
	long ret;

	ret = syncdev_ioc_prepare(s, cmd, arg, &c);
	if (ret)
		return ret;
	/* The page dump reads the caller's page tables, not the connection. */
	if (c.op == SYNCDEV_OP_PRINT_PAGE)
		return syncdev_print_page(s, c.uaddr);

	if (mutex_lock_interruptible(&s->lock))
		return -ERESTARTSYS;
	ret = syncdev_ioc_run(s, &c);
	mutex_unlock(&s->lock);

	if (!ret && c.op == SYNCDEV_OP_INFO &&
	    copy_to_user((void __user *)arg, &c.info, sizeof(c.info)))
		ret = -EFAULT;
	return ret;
}
