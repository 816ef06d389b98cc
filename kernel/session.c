// SPDX-License-Identifier: GPL-2.0
/*
 * The file operations: every open() creates a session with its own
 * connection and buffer, so several processes (or one process several
 * times) can use a device at once.
 *
 * The device is a byte stream in both directions: write() on the master
 * sends to the slave, which read()s it, and write() on the slave sends
 * back to the master, which read()s it (programs use that for an
 * acknowledgment).  Both go straight between the caller's buffer and the
 * socket (one copy, as for a userspace socket), never through a bounce
 * buffer.
 */
#include "internal.h"

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/nsproxy.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>
#include <linux/uio.h>
#include <net/net_namespace.h>
#include <net/sock.h>

static atomic_t syncdev_session_ids = ATOMIC_INIT(0);

/*
 * Whose share of the buffers an opener's are (buffer.c): its uid, or, in
 * a user namespace, the uid that owns the outermost one below the initial
 * namespace.  A user with a delegated range of subordinate uids can be
 * any of them inside a namespace it made; they all count as that user.
 */
static kuid_t syncdev_share_uid(const struct cred *cred)
{
	const struct user_namespace *ns = cred->user_ns;

	if (ns == &init_user_ns)
		return cred->euid;
	while (ns->parent != &init_user_ns)
		ns = ns->parent;
	return ns->owner;
}

static int syncdev_open(struct inode *inode, struct file *file)
{
	struct miscdevice *misc = file->private_data;
	struct syncdev_session *s;

	s = kzalloc_obj(*s);
	if (!s)
		return -ENOMEM;
	s->dev = container_of(misc, struct syncdev_device, misc);
	s->id = atomic_inc_return(&syncdev_session_ids);
	mutex_init(&s->lock);
	mutex_init(&s->conn_lock);
	spin_lock_init(&s->map_lock);
	/* At most 10 lines a peer can cause every 5 s, per session. */
	ratelimit_state_init(&s->log_rs, DEFAULT_RATELIMIT_INTERVAL,
			     DEFAULT_RATELIMIT_BURST);
	ratelimit_set_flags(&s->log_rs, RATELIMIT_MSG_ON_RELEASE);
	s->net = get_net(current->nsproxy->net_ns);
	s->uid = file->f_cred->euid;
	s->share_uid = syncdev_share_uid(file->f_cred);
	s->show_pfn = file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN);
	s->no_user_limit = file_ns_capable(file, &init_user_ns,
					   CAP_SYS_RESOURCE);
	file->private_data = s;
	/* No file position: reads and writes are a stream, like a socket. */
	return stream_open(inode, file);
}

/*
 * The last reference to the file is gone: no other call can be running, and
 * no mapping of the buffer is left (each mapping holds a file reference).
 */
static int syncdev_release(struct inode *inode, struct file *file)
{
	struct syncdev_session *s = file->private_data;

	syncdev_disconnect(s);
	syncdev_listener_put(s);
	syncdev_buffer_free(s);
	put_net(s->net);
	ratelimit_state_exit(&s->log_rs);
	mutex_destroy(&s->conn_lock);
	mutex_destroy(&s->lock);
	kfree(s);
	return 0;
}

static int syncdev_msg_flags(const struct kiocb *iocb)
{
	if (iocb->ki_flags & IOCB_NOWAIT)
		return MSG_DONTWAIT;
	return syncdev_file_msg_flags(iocb->ki_filp);
}

/*
 * A write sends all of it unless interrupted (a short count says how much
 * went); a read returns what has arrived (at least one byte), or 0 once the
 * peer closed, except in a legacy slave session, where it fills the
 * caller's buffer unless the stream ends (syncdev_fill_read()).  As for a
 * socket, bytes moved before an error are reported and the error is left
 * for the next call.
 */
static ssize_t syncdev_rw_iter(struct kiocb *iocb, struct iov_iter *iter,
			       bool send)
{
	struct syncdev_session *s = iocb->ki_filp->private_data;
	int flags = syncdev_msg_flags(iocb);
	size_t moved = 0;
	ssize_t ret;

	if (!iov_iter_count(iter))
		return 0;
	ret = syncdev_lock(s, flags);
	if (ret)
		return ret;
	if (!send && s->dev->role == SYNCDEV_SLAVE && READ_ONCE(s->legacy)) {
		ret = syncdev_fill_read(s, iter, flags);
		mutex_unlock(&s->lock);
		return ret;
	}
	ret = syncdev_partial_check(s, send);
	if (!ret)
		ret = syncdev_xmit(s, send, iter, flags,
				   send ? SYNCDEV_XMIT_ALL : SYNCDEV_XMIT_ONCE,
				   &moved);
	mutex_unlock(&s->lock);
	return moved ? moved : ret;
}

static ssize_t syncdev_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	return syncdev_rw_iter(iocb, from, true);
}

static ssize_t syncdev_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	return syncdev_rw_iter(iocb, to, false);
}

const struct file_operations syncdev_fops = {
	.owner = THIS_MODULE,
	.open = syncdev_open,
	.release = syncdev_release,
	.read_iter = syncdev_read_iter,
	.write_iter = syncdev_write_iter,
	.splice_read = syncdev_splice_read,
	.splice_write = syncdev_splice_write,
	.mmap = syncdev_mmap,
	.unlocked_ioctl = syncdev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};
