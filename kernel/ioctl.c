// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl commands: the _IO/_IOW/_IOR ABI of uapi/syncdev_abi.h and the 2020
 * course's legacy numbers, which pass their argument by value.
 *
 * Every command goes through two steps.  syncdev_ioc_prepare() copies the
 * argument in and checks it without any lock: reserved fields and flags
 * must be zero, ranges must lie inside the buffer, an address must be one
 * a slave can connect to.  Then syncdev_ioc_run() does the work with the
 * session lock held, taken once per command in syncdev_ioctl().  A command
 * of the other device (ACCEPT on the slave, ...) is "inappropriate for
 * this device": -ENOTTY.  SEND and RECV work on both devices: the
 * connection carries bytes both ways.
 *
 * A session that is called with a number of neither syncdev's magic nor
 * the terminal ioctls (the legacy 0x12345676..0x12345679, or a number the
 * course's module took for its page dump), in a call its file's mode
 * allows, is a legacy session from then on, as a course program is: its
 * later mappings show the buffer from the start (buffer.c), the slave's
 * read() takes what legacy_read says (xfer.c), and those other numbers
 * print the page descriptor, 0 whatever the address (pagedump.c), and
 * the master's transfer returns what legacy_send_result says.  A program
 * that uses only syncdev's own numbers never becomes one.  The _IO*
 * commands behave the same in both kinds of session.
 */
#include "internal.h"

#include <linux/err.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>

#include "uapi/syncdev_abi.h"

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
	SYNCDEV_OP_SET_TIMEOUT,
	SYNCDEV_OP_SET_PEER,
	SYNCDEV_OP_SET_HANDSHAKE,
	SYNCDEV_OP_CONFIRM,
};

/* A command with its argument copied in and checked. */
struct syncdev_cmd {
	enum syncdev_op op;
	bool legacy;			/* a course number (see above) */
	union {
		struct {
			__be32 addr;
			u16 port;
			unsigned int timeout_ms;
		} conn;
		struct {
			bool send;
			u64 offset;
			u64 len;
			enum syncdev_xmit_how how;
		} xfer;
		struct syncdev_info info;
		unsigned long uaddr;
		unsigned int timeout_ms;
		__be32 peer;
		unsigned int deadline_ms;
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
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	c->op = send ? SYNCDEV_OP_SEND : SYNCDEV_OP_RECV;
	c->xfer.send = send;
	c->xfer.offset = offset;
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
 * Legacy transfer, the course's 0x12345678: bytes at the start of the
 * buffer, where every legacy mapping shows them (buffer.c), so the bytes
 * are where the program looks.  The bound is the session's most recent
 * mapping: what the program can have written, or can see.
 *
 * Master: send @arg bytes from the start of the most recent mapping; more
 * than it holds, or no mapping at all, cannot be bytes the program put
 * there: EINVAL.  It returns what legacy_send_result says: the course's
 * modules differed, and programs act on it (syncdev_legacy_sent()).
 *
 * Slave: @arg is ignored (programs call it without one: whatever is in
 * the register).  Receive until the most recent mapping is full (at most
 * the buffer), or one page before any mapping (any mapping made afterwards
 * holds it), or until the stream ends.  A short count is therefore always
 * the end of the stream.
 */
static int syncdev_prep_legacy_xfer(struct syncdev_session *s,
				    struct syncdev_cmd *c, unsigned long arg)
{
	unsigned long pgoff, pages;
	u64 limit;

	spin_lock(&s->map_lock);
	pgoff = s->map_pgoff;
	pages = s->map_pages;
	spin_unlock(&s->map_lock);

	if (syncdev_is_master(s)) {
		if (arg && (!pages || arg > pages << PAGE_SHIFT))
			return -EINVAL;
		return syncdev_prep_xfer(s, c, true, pgoff << PAGE_SHIFT, arg,
					 SYNCDEV_XMIT_ALL);
	}
	limit = pages ? pages << PAGE_SHIFT : PAGE_SIZE;
	limit = min_t(u64, limit, syncdev_buf_size - (pgoff << PAGE_SHIFT));
	return syncdev_prep_xfer(s, c, false, pgoff << PAGE_SHIFT, limit,
				 SYNCDEV_XMIT_FILL);
}

/*
 * The course's module printed the page table entry at @arg for every
 * number it did not know (programs use 0x12345676, 0x111, 9020, 0, ...)
 * and returned 0, whether or not it was the program's first call: such a
 * number is a course program's, and makes the session a legacy one.  Not
 * syncdev's own numbers (an unknown one is a program built against
 * another version of uapi/syncdev_abi.h) nor the terminal ones (a tty test
 * that "succeeded" would be a wrong answer).
 */
static bool syncdev_course_cmd(unsigned int cmd)
{
	return _IOC_TYPE(cmd) != SYNCDEV_IOC_MAGIC && _IOC_TYPE(cmd) != 'T';
}

static int syncdev_prep_set_timeout(struct syncdev_cmd *c,
				    struct syncdev_timeout __user *uarg)
{
	struct syncdev_timeout t;

	if (copy_from_user(&t, uarg, sizeof(t)))
		return -EFAULT;
	if (t.reserved)
		return -EINVAL;
	c->op = SYNCDEV_OP_SET_TIMEOUT;
	c->timeout_ms = t.progress_ms;
	return 0;
}

static int syncdev_prep_set_peer(struct syncdev_cmd *c,
				 struct syncdev_peer __user *uarg)
{
	struct syncdev_peer p;

	if (copy_from_user(&p, uarg, sizeof(p)))
		return -EFAULT;
	if (p.reserved)
		return -EINVAL;
	c->op = SYNCDEV_OP_SET_PEER;
	c->peer = (__force __be32)p.addr;
	return 0;
}

static int syncdev_prep_set_handshake(struct syncdev_cmd *c,
				      struct syncdev_handshake __user *uarg)
{
	struct syncdev_handshake h;

	if (copy_from_user(&h, uarg, sizeof(h)))
		return -EFAULT;
	if (h.reserved)
		return -EINVAL;
	c->op = SYNCDEV_OP_SET_HANDSHAKE;
	c->deadline_ms = h.deadline_ms;
	return 0;
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
	case SYNCDEV_IOC_RECV:
		return syncdev_prep_ioc_xfer(s, c, cmd == SYNCDEV_IOC_SEND, argp);
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
	case SYNCDEV_IOC_SET_TIMEOUT:
		return syncdev_prep_set_timeout(c, argp);
	case SYNCDEV_IOC_SET_PEER:
		return syncdev_prep_set_peer(c, argp);
	case SYNCDEV_IOC_SET_HANDSHAKE:
		return syncdev_prep_set_handshake(c, argp);
	case SYNCDEV_IOC_CONFIRM:
		c->op = SYNCDEV_OP_CONFIRM;
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
		if (!syncdev_course_cmd(cmd))
			return -ENOTTY;
		c->op = SYNCDEV_OP_PRINT_PAGE;
		c->uaddr = arg;
		return 0;
	}
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
	info->strangers = s->strangers;
}

/*
 * A master's legacy transfer that sent @len bytes: most course modules
 * returned ksend()'s count, some 0, and programs advance their offset by
 * the one or check the other, so a course says which (legacy_send_result).
 */
static long syncdev_legacy_sent(u64 len)
{
	if (READ_ONCE(syncdev_legacy_send_result) == SYNCDEV_SEND_RESULT_ZERO)
		return 0;
	return len;
}

/* The work of a prepared command; the caller holds s->lock. */
static long syncdev_ioc_run(struct syncdev_session *s, struct syncdev_cmd *c)
{
	long ret;

	switch (c->op) {
	case SYNCDEV_OP_ACCEPT:
		return syncdev_accept(s);
	case SYNCDEV_OP_CONNECT:
		return syncdev_connect(s, c->conn.addr, c->conn.port,
				       c->conn.timeout_ms);
	case SYNCDEV_OP_SEND:
	case SYNCDEV_OP_RECV:
		ret = syncdev_buf_xfer(s, c->xfer.send, c->xfer.offset,
				       c->xfer.len, c->xfer.how);
		if (!ret && c->xfer.send && c->legacy)
			return syncdev_legacy_sent(c->xfer.len);
		return ret;
	case SYNCDEV_OP_DISCONNECT:
		syncdev_disconnect(s);
		return 0;
	case SYNCDEV_OP_INFO:
		syncdev_get_info(s, &c->info);
		return 0;
	case SYNCDEV_OP_SET_TIMEOUT:
		s->timeout_ms = c->timeout_ms;
		return 0;
	case SYNCDEV_OP_SET_PEER:
		s->allowed_peer = c->peer;
		return 0;
	case SYNCDEV_OP_SET_HANDSHAKE:
		s->handshake_ms = c->deadline_ms;
		return 0;
	case SYNCDEV_OP_CONFIRM:
		return syncdev_confirm(s);
	default:
		return -ENOTTY;
	}
}

/*
 * What the file must have been opened for, as read() and write() need it:
 * FMODE_READ to receive, FMODE_WRITE to send and for everything that
 * changes the session (its connection, its settings).  INFO and the page
 * dump change nothing and need neither.  A command of the other device
 * needs nothing here: it is ENOTTY, whatever the mode.  Checked before
 * anything is copied in or allocated.
 */
static fmode_t syncdev_ioc_fmode(struct syncdev_session *s, unsigned int cmd)
{
	bool master = syncdev_is_master(s);

	switch (cmd) {
	case SYNCDEV_IOC_RECV:
		return FMODE_READ;
	case SYNCDEV_LEGACY_XFER:
		return master ? FMODE_WRITE : FMODE_READ;
	case SYNCDEV_IOC_ACCEPT:
		return master ? FMODE_WRITE : 0;
	case SYNCDEV_IOC_CONNECT:
		return master ? 0 : FMODE_WRITE;
	case SYNCDEV_IOC_SEND:
	case SYNCDEV_IOC_DISCONNECT:
	case SYNCDEV_IOC_SET_TIMEOUT:
	case SYNCDEV_IOC_SET_PEER:
	case SYNCDEV_IOC_SET_HANDSHAKE:
	case SYNCDEV_IOC_CONFIRM:
	case SYNCDEV_LEGACY_CONNECT:
	case SYNCDEV_LEGACY_CLOSE:
		return FMODE_WRITE;
	default:
		return 0;
	}
}

long syncdev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct syncdev_session *s = file->private_data;
	fmode_t need = syncdev_ioc_fmode(s, cmd);
	struct syncdev_cmd c;
	long ret;

	if ((file->f_mode & need) != need)
		return -EBADF;
	/*
	 * A call the file's mode allows, whatever its result then: a
	 * descriptor that may not make the call changes nothing.
	 */
	c.legacy = syncdev_course_cmd(cmd);
	if (c.legacy)
		WRITE_ONCE(s->legacy, true);
	ret = syncdev_ioc_prepare(s, cmd, arg, &c);
	if (ret)
		return ret;
	/* The page dump reads the caller's page tables, not the connection. */
	if (c.op == SYNCDEV_OP_PRINT_PAGE)
		return syncdev_print_page(s, c.uaddr, c.legacy);

	/* Wake a call that sleeps on the connection holding the lock. */
	if (c.op == SYNCDEV_OP_DISCONNECT) {
		ret = syncdev_abort(s);
		if (ret)
			return ret;
	}
	if (mutex_lock_interruptible(&s->lock))
		return -ERESTARTSYS;
	ret = syncdev_ioc_run(s, &c);
	mutex_unlock(&s->lock);

	if (!ret && c.op == SYNCDEV_OP_INFO &&
	    copy_to_user((void __user *)arg, &c.info, sizeof(c.info)))
		ret = -EFAULT;
	return ret;
}
