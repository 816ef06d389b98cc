// SPDX-License-Identifier: GPL-2.0
/*
 * syncdev: a synchronous virtual device.
 *
 * Two misc devices.  Bytes written to /dev/master_device (or placed in its
 * mmapped buffer and sent with an ioctl) come out of /dev/slave_device on
 * the machine that connected to this one, carried by an in-kernel TCP
 * connection: the master listens, the slave connects.
 *
 *	# insmod syncdev.ko [port=2325] [buf_size=8388608]
 *	master: fd = open("/dev/master_device"); ioctl(fd, SYNCDEV_IOC_ACCEPT);
 *		write(fd, data, n);
 *	slave:  fd = open("/dev/slave_device"); ioctl(fd, SYNCDEV_IOC_CONNECT, &c);
 *		read(fd, data, n);
 *
 * This file holds the module parameters and registers the devices; the
 * file operations are in session.c.
 */
#include "syncdev.h"

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>
#include <linux/vmalloc.h>

#include "uapi/syncdev.h"

unsigned short syncdev_port = SYNCDEV_DEFAULT_PORT;
module_param_named(port, syncdev_port, ushort, 0444);
MODULE_PARM_DESC(port, "TCP port the master listens on (default 2325)");

unsigned long syncdev_buf_size = SZ_8M;
module_param_named(buf_size, syncdev_buf_size, ulong, 0444);
MODULE_PARM_DESC(buf_size,
		 "Bytes of the mmappable buffer of each open file (default 8 MiB, 4 KiB to 1 GiB)");

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

/* The ioctl ABI returns buffer byte counts as int. */
#define SYNCDEV_MAX_BUF_SIZE	((unsigned long)SZ_1G)

static struct syncdev_device syncdev_devices[] = {
	{
		.role = SYNCDEV_MASTER,
		.misc = {
			.minor = MISC_DYNAMIC_MINOR,
			.name = "master_device",
			.fops = &syncdev_master_fops,
			.mode = 0600,
		},
	},
	{
		.role = SYNCDEV_SLAVE,
		.misc = {
			.minor = MISC_DYNAMIC_MINOR,
			.name = "slave_device",
			.fops = &syncdev_slave_fops,
			.mode = 0600,
		},
	},
};

static int __init syncdev_init(void)
{
	int i, ret;

	if (syncdev_buf_size < PAGE_SIZE ||
	    syncdev_buf_size > SYNCDEV_MAX_BUF_SIZE) {
		pr_err("buf_size=%lu is out of range [%lu, %lu]\n",
		       syncdev_buf_size, PAGE_SIZE, SYNCDEV_MAX_BUF_SIZE);
		return -EINVAL;
	}
	if (!syncdev_port) {
		pr_err("port=0 is not a valid port\n");
		return -EINVAL;
	}
	syncdev_buf_size = PAGE_ALIGN(syncdev_buf_size);

	for (i = 0; i < ARRAY_SIZE(syncdev_devices); i++) {
		ret = misc_register(&syncdev_devices[i].misc);
		if (ret) {
			pr_err("cannot register /dev/%s: %d\n",
			       syncdev_devices[i].misc.name, ret);
			goto unwind;
		}
	}
	pr_info("loaded: port %u, buffer %lu bytes, connect timeout %u ms, listen linger %u ms\n",
		syncdev_port, syncdev_buf_size, syncdev_connect_timeout_ms,
		syncdev_listen_linger_ms);
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
