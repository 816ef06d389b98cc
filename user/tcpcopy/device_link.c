// SPDX-License-Identifier: GPL-2.0
/*
 * tcpcopy --device: the same copy over syncdev instead of a userspace
 * socket, so that osbench transfer can measure what the device alone
 * costs (the same loops, buffer and output file; only the descriptor
 * differs: /dev/master_device on the sending side, /dev/slave_device on
 * the receiving one).
 */
#include "device.h"
#include "tcpcopy.h"

#include <unistd.h>

int tcpcopy_device_accept(void)
{
	const char *path = dev_path(DEV_MASTER);
	int fd = dev_open(path);

	if (fd < 0)
		return -1;
	if (dev_accept(fd, path)) {
		close(fd);
		return -1;
	}
	return fd;
}

int tcpcopy_device_connect(struct in_addr addr, uint16_t port,
			   uint32_t wait_ms)
{
	int fd = dev_open(dev_path(DEV_SLAVE));

	if (fd < 0)
		return -1;
	if (dev_connect(fd, addr, port, 0, wait_ms)) {
		close(fd);
		return -1;
	}
	return fd;
}
