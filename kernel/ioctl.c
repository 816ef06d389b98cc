// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl commands: the _IO/_IOW/_IOR ABI of uapi/syncdev.h and the 2020
 * course's legacy numbers, which pass their argument by value.
 *
 * Every argument from user space is copied in once and checked before any
 * work: reserved fields and flags must be zero, ranges must lie inside the
 * buffer.  A command of the other device (ACCEPT on the slave, SEND on the
 * slave, ...) is "inappropriate for this device": -ENOTTY.
 */
#include "syncdev.h"

#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>

#include "uapi/syncdev.h"

/* "255.255.255.255:65535" and its NUL. */
#define SYNCDEV_ADDR_MAX	22

static bool syncdev_is_master(const struct syncdev_session *s)
{
	return s->dev->role == SYNCDEV_MASTER;
}

static long syncdev_do_accept(struct syncdev_session *s)
{
	long ret;

	if (mutex_lock_interruptible(&s->lock))
		return -ERESTARTSYS;
	ret = syncdev_accept(s);
	mutex_unlock(&s->lock);
	return ret;
}

static long syncdev_do_connect(struct syncdev_session *s, __be32 addr,
			       u16 port, unsigned int timeout_ms)
{
	long ret;

	if (addr == htonl(INADDR_ANY) || addr == htonl(INADDR_BROADCAST) ||
	    ipv4_is_multicast(addr))
		return -EINVAL;
	if (!port)
		port = syncdev_port;
	if (!timeout_ms)
		timeout_ms = READ_ONCE(syncdev_connect_timeout_ms);
	if (mutex_lock_interruptible(&s->lock))
		return -ERESTARTSYS;
	ret = syncdev_connect(s, addr, port, timeout_ms);
	mutex_unlock(&s->lock);
	return ret;
}

static long syncdev_ioc_connect(struct syncdev_session *s,
				struct syncdev_connect __user *uarg)
{
	struct syncdev_connect c;

	if (copy_from_user(&c, uarg, sizeof(c)))
		return -EFAULT;
	if (c.flags || c.reserved)
		return -EINVAL;
	return syncdev_do_connect(s, (__force __be32)c.addr, c.port,
				  c.timeout_ms);
}

/* Legacy connect: a NUL-terminated "a.b.c.d" or "a.b.c.d:port". */
static long syncdev_legacy_connect(struct syncdev_session *s,
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
	return syncdev_do_connect(s, addr, port, 0);
}

/*
 * Send @len bytes of the buffer at @offset, all or nothing: a send cut
 * short by a signal or an error leaves the peer with part of a message, so
 * the connection is shut down rather than left silently out of step.
 */
static long syncdev_send_buffer(struct syncdev_session *s, u64 offset,
				u64 len)
{
	ssize_t ret = 0;
	void *buf;
	u64 done = 0;

	if (offset > syncdev_buf_size || len > syncdev_buf_size - offset)
		return -EINVAL;
	buf = syncdev_buffer(s);
	if (!buf)
		return -ENOMEM;
	if (mutex_lock_interruptible(&s->lock))
		return -ERESTARTSYS;
	if (!s->sock)
		ret = -ENOTCONN;
	while (!ret && done < len) {
		ret = syncdev_xmit_kernel(s, true, buf + offset + done,
					  len - done, true);
		if (ret > 0) {
			done += ret;
			ret = 0;
		} else if (!ret) {
			ret = -EPIPE;
		}
	}
	if (done && done < len) {
		kernel_sock_shutdown(s->sock, SHUT_RDWR);
		/* Part of it went out: it must not be restarted. */
		if (ret == -ERESTARTSYS)
			ret = -EINTR;
	}
	mutex_unlock(&s->lock);
	return ret;
}

/* Receive into the buffer at @offset; the count, 0 at end of stream. */
static long syncdev_recv_buffer(struct syncdev_session *s, u64 offset,
				u64 len, bool waitall)
{
	ssize_t ret;
	void *buf;

	if (offset > syncdev_buf_size || len > syncdev_buf_size - offset)
		return -EINVAL;
	buf = syncdev_buffer(s);
	if (!buf)
		return -ENOMEM;
	if (!len)
		return 0;
	if (mutex_lock_interruptible(&s->lock))
		return -ERESTARTSYS;
	ret = syncdev_xmit_kernel(s, false, buf + offset, len, waitall);
	mutex_unlock(&s->lock);
	return ret;
}

static long syncdev_ioc_xfer(struct syncdev_session *s, unsigned int cmd,
			     struct syncdev_xfer __user *uarg)
{
	struct syncdev_xfer x;

	if (copy_from_user(&x, uarg, sizeof(x)))
		return -EFAULT;
	if (x.reserved)
		return -EINVAL;
	if (cmd == SYNCDEV_IOC_SEND) {
		if (x.flags)
			return -EINVAL;
		return syncdev_send_buffer(s, x.offset, x.len);
	}
	if (x.flags & ~SYNCDEV_RECV_WAITALL)
		return -EINVAL;
	return syncdev_recv_buffer(s, x.offset, x.len,
				   x.flags & SYNCDEV_RECV_WAITALL);
}

/*
 * Legacy transfer: the master sends @arg bytes from offset 0; the slave
 * fills the buffer from offset 0 up to @arg bytes or the end of the stream.
 * Course programs call the slave side without an argument, so 0 (and any
 * larger value) means "the whole buffer".
 */
static long syncdev_legacy_xfer(struct syncdev_session *s, unsigned long arg)
{
	if (syncdev_is_master(s))
		return syncdev_send_buffer(s, 0, arg);
	if (!arg || arg > syncdev_buf_size)
		arg = syncdev_buf_size;
	return syncdev_recv_buffer(s, 0, arg, true);
}

static long syncdev_do_disconnect(struct syncdev_session *s)
{
	if (mutex_lock_interruptible(&s->lock))
		return -ERESTARTSYS;
	syncdev_disconnect(s);
	mutex_unlock(&s->lock);
	return 0;
}

static long syncdev_ioc_info(struct syncdev_session *s,
			     struct syncdev_info __user *uarg)
{
	struct syncdev_info info = { .buf_size = syncdev_buf_size };
	struct sockaddr_in local = { };

	if (mutex_lock_interruptible(&s->lock))
		return -ERESTARTSYS;
	if (s->sock) {
		kernel_getsockname(s->sock, (struct sockaddr *)&local);
		info.connected = 1;
		info.peer_addr = (__force __u32)s->peer.sin_addr.s_addr;
		info.peer_port = ntohs(s->peer.sin_port);
		info.local_port = ntohs(local.sin_port);
	}
	info.bytes_sent = s->bytes_sent;
	info.bytes_received = s->bytes_received;
	mutex_unlock(&s->lock);
	return copy_to_user(uarg, &info, sizeof(info)) ? -EFAULT : 0;
}

long syncdev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct syncdev_session *s = file->private_data;
	void __user *argp = (void __user *)arg;
	bool master = syncdev_is_master(s);
	bool sends = cmd == SYNCDEV_IOC_SEND;
	u64 uaddr;

	switch (cmd) {
	case SYNCDEV_IOC_ACCEPT:
		return master ? syncdev_do_accept(s) : -ENOTTY;
	case SYNCDEV_IOC_CONNECT:
		return master ? -ENOTTY : syncdev_ioc_connect(s, argp);
	case SYNCDEV_IOC_SEND:
	case SYNCDEV_IOC_RECV:
		if (master != sends)
			return -ENOTTY;
		return syncdev_ioc_xfer(s, cmd, argp);
	case SYNCDEV_IOC_DISCONNECT:
	case SYNCDEV_LEGACY_CLOSE:
		return syncdev_do_disconnect(s);
	case SYNCDEV_IOC_PRINT_PAGE:
		if (get_user(uaddr, (u64 __user *)argp))
			return -EFAULT;
		return syncdev_print_page(s, uaddr);
	case SYNCDEV_IOC_INFO:
		return syncdev_ioc_info(s, argp);
	case SYNCDEV_LEGACY_CONNECT:
		return master ? syncdev_do_accept(s) :
				syncdev_legacy_connect(s, argp);
	case SYNCDEV_LEGACY_XFER:
		return syncdev_legacy_xfer(s, arg);
	case SYNCDEV_LEGACY_PRINT:
		return syncdev_print_page(s, arg);
	default:
		return -ENOTTY;
	}
}
