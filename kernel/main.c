// SPDX-License-Identifier: GPL-2.0
/*
 * syncdev: a synchronous virtual device.
 *
 * Two misc devices.  Bytes written to /dev/master_device (or placed in its
 * mmapped buffer and sent with an ioctl) come out of /dev/slave_device on
 * the machine that connected to this one, carried by an in-kernel TCP
 * connection: the master listens, the slave connects.  The slave can
 * answer the same way (an acknowledgment).
 *
 *	# insmod syncdev.ko [port=2325] [buf_size=8388608]
 *	master: fd = open("/dev/master_device"); ioctl(fd, SYNCDEV_IOC_ACCEPT);
 *		write(fd, data, n); read(fd, ack, k);
 *	slave:  fd = open("/dev/slave_device"); ioctl(fd, SYNCDEV_IOC_CONNECT, &c);
 *		read(fd, data, n); write(fd, ack, k);
 *
 * This file holds the module parameters and registers the devices; the
 * file operations are in session.c.
 */
#include "internal.h"

#include <linux/inet.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <net/tcp.h>

#include "uapi/syncdev_abi.h"

unsigned short syncdev_port = SYNCDEV_DEFAULT_PORT;
module_param_named(port, syncdev_port, ushort, 0444);
MODULE_PARM_DESC(port, "TCP port the master listens on (default 2325)");

unsigned long syncdev_buf_size = SZ_8M;
module_param_named(buf_size, syncdev_buf_size, ulong, 0444);
MODULE_PARM_DESC(buf_size,
		 "Bytes of the mmappable buffer of each open file: whole pages, at most 1 GiB and half of RAM (default 8 MiB)");

static unsigned int syncdev_max_buffer_mb;
module_param_named(max_buffer_mb, syncdev_max_buffer_mb, uint, 0444);
MODULE_PARM_DESC(max_buffer_mb,
		 "MiB that the buffers of all open files may use together (default 0: a quarter of RAM)");
unsigned long syncdev_max_buffer_bytes;

static unsigned int syncdev_max_user_buffer_mb;
module_param_named(max_user_buffer_mb, syncdev_max_user_buffer_mb, uint, 0444);
MODULE_PARM_DESC(max_user_buffer_mb,
		 "MiB that the buffers of one user's open files may use together (default 0: half of max_buffer_mb)");
unsigned long syncdev_max_user_buffer_bytes;

unsigned int syncdev_connect_timeout_ms = 5000;
module_param_named(connect_timeout_ms, syncdev_connect_timeout_ms, uint, 0644);
MODULE_PARM_DESC(connect_timeout_ms,
		 "How long a slave's connect may take (default 5000 ms)");

unsigned int syncdev_listen_linger_ms = 2000;
module_param_named(listen_linger_ms, syncdev_listen_linger_ms, uint, 0644);
MODULE_PARM_DESC(listen_linger_ms,
		 "How long the master keeps listening after its last user closed (default 2000 ms)");

unsigned int syncdev_listen_wait_ms = 30000;
module_param_named(listen_wait_ms, syncdev_listen_wait_ms, uint, 0644);
MODULE_PARM_DESC(listen_wait_ms,
		 "How long the master keeps listening for slaves already waiting in its backlog (default 30000 ms)");

unsigned int syncdev_progress_timeout_ms = 60000;
module_param_named(progress_timeout_ms, syncdev_progress_timeout_ms, uint,
		   0644);
MODULE_PARM_DESC(progress_timeout_ms,
		 "A transfer that moves no byte for this long fails with ETIMEDOUT (default 60000 ms, 0 = never)");

/* The keepalive parameters, in the ranges TCP accepts (tcp(7)). */
static int syncdev_set_keepidle(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, MAX_TCP_KEEPIDLE);
}

static int syncdev_set_keepintvl(const char *val,
				 const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, MAX_TCP_KEEPINTVL);
}

static int syncdev_set_keepcnt(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, MAX_TCP_KEEPCNT);
}

static const struct kernel_param_ops syncdev_keepidle_ops = {
	.set = syncdev_set_keepidle,
	.get = param_get_uint,
};

static const struct kernel_param_ops syncdev_keepintvl_ops = {
	.set = syncdev_set_keepintvl,
	.get = param_get_uint,
};

static const struct kernel_param_ops syncdev_keepcnt_ops = {
	.set = syncdev_set_keepcnt,
	.get = param_get_uint,
};

unsigned int syncdev_keepalive_idle_s = 10;
module_param_cb(keepalive_idle_s, &syncdev_keepidle_ops,
		&syncdev_keepalive_idle_s, 0644);
MODULE_PARM_DESC(keepalive_idle_s,
		 "Seconds of silence before TCP probes the peer (default 10, 0 = no keepalive, at most 32767)");

unsigned int syncdev_keepalive_intvl_s = 5;
module_param_cb(keepalive_intvl_s, &syncdev_keepintvl_ops,
		&syncdev_keepalive_intvl_s, 0644);
MODULE_PARM_DESC(keepalive_intvl_s,
		 "Seconds between keepalive probes (default 5, 1 to 32767)");

unsigned int syncdev_keepalive_cnt = 3;
module_param_cb(keepalive_cnt, &syncdev_keepcnt_ops, &syncdev_keepalive_cnt,
		0644);
MODULE_PARM_DESC(keepalive_cnt,
		 "Unanswered probes after which the connection is dead (default 3, 1 to 127)");

/* allowed_peer: an IPv4 address in dotted quad, or empty for anyone. */
__be32 syncdev_allowed_peer;

static int syncdev_set_peer(const char *val, const struct kernel_param *kp)
{
	size_t len = strcspn(val, "\n");
	const char *end;
	__be32 addr = 0;

	if (len && (!in4_pton(val, len, (u8 *)&addr, -1, &end) ||
		    end != val + len))
		return -EINVAL;
	WRITE_ONCE(*(__be32 *)kp->arg, addr);
	return 0;
}

static int syncdev_get_peer(char *buffer, const struct kernel_param *kp)
{
	__be32 addr = READ_ONCE(*(__be32 *)kp->arg);

	if (!addr)
		return scnprintf(buffer, PAGE_SIZE, "\n");
	return scnprintf(buffer, PAGE_SIZE, "%pI4\n", &addr);
}

static const struct kernel_param_ops syncdev_peer_ops = {
	.set = syncdev_set_peer,
	.get = syncdev_get_peer,
};

module_param_cb(allowed_peer, &syncdev_peer_ops, &syncdev_allowed_peer, 0644);
MODULE_PARM_DESC(allowed_peer,
		 "The only IPv4 address a master accepts and a slave connects to (default empty: any)");

/*
 * A parameter that takes one of a few words; the value is the word's
 * index.  What the course's modules did differently, a grader sets per
 * course (docs/legacy.md).
 */
struct syncdev_choice {
	unsigned int *val;
	const char * const *words;
	size_t n;
};

static int syncdev_set_choice(const char *val, const struct kernel_param *kp)
{
	const struct syncdev_choice *c = kp->arg;
	int i = __sysfs_match_string(c->words, c->n, val);

	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(*c->val, i);
	return 0;
}

static int syncdev_get_choice(char *buffer, const struct kernel_param *kp)
{
	const struct syncdev_choice *c = kp->arg;

	return scnprintf(buffer, PAGE_SIZE, "%s\n",
			 c->words[READ_ONCE(*c->val)]);
}

static const struct kernel_param_ops syncdev_choice_ops = {
	.set = syncdev_set_choice,
	.get = syncdev_get_choice,
};

static const char * const syncdev_send_results[] = {
	[SYNCDEV_SEND_RESULT_BYTES] = "bytes",
	[SYNCDEV_SEND_RESULT_ZERO] = "zero",
};

unsigned int syncdev_legacy_send_result = SYNCDEV_SEND_RESULT_BYTES;
static struct syncdev_choice syncdev_send_result_choice = {
	.val = &syncdev_legacy_send_result,
	.words = syncdev_send_results,
	.n = ARRAY_SIZE(syncdev_send_results),
};
module_param_cb(legacy_send_result, &syncdev_choice_ops,
		&syncdev_send_result_choice, 0644);
MODULE_PARM_DESC(legacy_send_result,
		 "What a master's legacy transfer (0x12345678) returns: bytes (the bytes sent, default) or zero");

static const char * const syncdev_legacy_reads[] = {
	[SYNCDEV_LEGACY_READ_FILL] = "fill",
	[SYNCDEV_LEGACY_READ_STARTER] = "starter",
};

unsigned int syncdev_legacy_read = SYNCDEV_LEGACY_READ_FILL;
static struct syncdev_choice syncdev_legacy_read_choice = {
	.val = &syncdev_legacy_read,
	.words = syncdev_legacy_reads,
	.n = ARRAY_SIZE(syncdev_legacy_reads),
};
module_param_cb(legacy_read, &syncdev_choice_ops,
		&syncdev_legacy_read_choice, 0644);
MODULE_PARM_DESC(legacy_read,
		 "A legacy slave's read(): fill (the count unless the stream ends, default) or starter (one 512-byte unit of the stream, as the 2020 starter module)");

/* The ioctl ABI returns buffer byte counts as int. */
#define SYNCDEV_MAX_BUF_SIZE	((unsigned long)SZ_1G)

/*
 * buf_size: whole pages, and small enough that a session can have one:
 * at most 1 GiB and half of RAM.  max_buffer_mb and max_user_buffer_mb:
 * at least one buffer each.
 */
static int __init syncdev_check_sizes(void)
{
	unsigned long ram = totalram_pages() << PAGE_SHIFT;

	if (!syncdev_buf_size || !PAGE_ALIGNED(syncdev_buf_size) ||
	    syncdev_buf_size > SYNCDEV_MAX_BUF_SIZE ||
	    syncdev_buf_size > ram / 2) {
		pr_err("buf_size=%lu: must be a multiple of %lu, at most %lu and at most half of RAM (%lu)\n",
		       syncdev_buf_size, PAGE_SIZE, SYNCDEV_MAX_BUF_SIZE,
		       ram / 2);
		return -EINVAL;
	}
	/* The default is in bytes: no rounding can make it less than one. */
	if (syncdev_max_buffer_mb)
		syncdev_max_buffer_bytes =
			(unsigned long)syncdev_max_buffer_mb << 20;
	else
		syncdev_max_buffer_bytes = max(ram / 4, syncdev_buf_size);
	syncdev_max_buffer_mb = syncdev_max_buffer_bytes >> 20;
	if (syncdev_max_buffer_bytes < syncdev_buf_size) {
		pr_err("max_buffer_mb=%u is less than one buffer (buf_size=%lu)\n",
		       syncdev_max_buffer_mb, syncdev_buf_size);
		return -EINVAL;
	}
	if (syncdev_max_user_buffer_mb)
		syncdev_max_user_buffer_bytes =
			(unsigned long)syncdev_max_user_buffer_mb << 20;
	else
		syncdev_max_user_buffer_bytes =
			max(syncdev_max_buffer_bytes / 2, syncdev_buf_size);
	syncdev_max_user_buffer_mb = syncdev_max_user_buffer_bytes >> 20;
	if (syncdev_max_user_buffer_bytes < syncdev_buf_size) {
		pr_err("max_user_buffer_mb=%u is less than one buffer (buf_size=%lu)\n",
		       syncdev_max_user_buffer_mb, syncdev_buf_size);
		return -EINVAL;
	}
	return 0;
}

static struct syncdev_device syncdev_devices[] = {
	{
		.role = SYNCDEV_MASTER,
		.misc = {
			.minor = MISC_DYNAMIC_MINOR,
			.name = "master_device",
			.fops = &syncdev_fops,
			.mode = 0600,
		},
	},
	{
		.role = SYNCDEV_SLAVE,
		.misc = {
			.minor = MISC_DYNAMIC_MINOR,
			.name = "slave_device",
			.fops = &syncdev_fops,
			.mode = 0600,
		},
	},
};

static int __init syncdev_init(void)
{
	int i, ret;

	ret = syncdev_check_sizes();
	if (ret)
		return ret;
	if (!syncdev_port) {
		pr_err("port=0 is not a valid port\n");
		return -EINVAL;
	}

	for (i = 0; i < ARRAY_SIZE(syncdev_devices); i++) {
		ret = misc_register(&syncdev_devices[i].misc);
		if (ret) {
			pr_err("cannot register /dev/%s: %d\n",
			       syncdev_devices[i].misc.name, ret);
			goto unwind;
		}
	}
	pr_info("loaded: port %u, buffer %lu bytes, connect timeout %u ms, listen linger %u ms, progress timeout %u ms, buffers at most %u MiB, %u MiB per user\n",
		syncdev_port, syncdev_buf_size, syncdev_connect_timeout_ms,
		syncdev_listen_linger_ms, syncdev_progress_timeout_ms,
		syncdev_max_buffer_mb, syncdev_max_user_buffer_mb);
	return 0;

unwind:
	while (--i >= 0)
		misc_deregister(&syncdev_devices[i].misc);
	return ret;
}

/*
 * Every open file holds a reference on this module (fops->owner), and
 * sessions own their sockets and buffers: all that can be left is a
 * lingering listener, once no file can open any more.
 */
static void __exit syncdev_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(syncdev_devices) - 1; i >= 0; i--)
		misc_deregister(&syncdev_devices[i].misc);
	syncdev_listener_shutdown();
	pr_info("unloaded\n");
}

module_init(syncdev_init);
module_exit(syncdev_exit);

MODULE_DESCRIPTION("Synchronous virtual device: master/slave character devices over in-kernel TCP");
MODULE_LICENSE("GPL");
