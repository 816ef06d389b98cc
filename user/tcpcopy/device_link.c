// SPDX-License-Identifier: GPL-2.0
/*
 * The connection tcpcopy copies over: a plain TCP socket, or with --device
 * syncdev itself (/dev/master_device on the sending side, /dev/slave_device
 * on the receiving one), so that osbench transfer can measure what the
 * device alone costs.  Everything else (the size, the loops, the buffer,
 * the output file, the answer) is the same on both.
 */
#include "device.h"
#include "tcp.h"
#include "tcpcopy.h"

#include <unistd.h>

/* o's progress timeout on fd (device at path, or a socket); 0 or -1. */
static int set_timeout(int fd, const char *path, const struct tcpcopy_opts *o)
{
	if (!o->device)
		return tcp_set_timeout(fd, o->progress_s);
	if (o->progress_s && dev_set_timeout(fd, path, o->progress_s))
		return -1;
	return 0;
}

/* fd with o's progress timeout set; -1 (fd closed) if that fails. */
static int link_ready(int fd, const char *path, const struct tcpcopy_opts *o)
{
	if (fd >= 0 && set_timeout(fd, path, o)) {
		close(fd);
		return -1;
	}
	return fd;
}

int tcpcopy_link_accept(uint16_t port, const struct tcpcopy_opts *o)
{
	const char *path = dev_path(DEV_MASTER);
	int fd;

	if (!o->device)
		return link_ready(tcp_accept_one(port), path, o);
	fd = dev_open(path);
	if (fd >= 0 && dev_accept(fd, path)) {
		close(fd);
		return -1;
	}
	return link_ready(fd, path, o);
}

int tcpcopy_link_connect(struct in_addr addr, uint16_t port,
			 const struct tcpcopy_opts *o)
{
	const char *path = dev_path(DEV_SLAVE);
	int fd;

	if (!o->device)
		return link_ready(tcp_connect(addr, port, o->wait_ms), path, o);
	fd = dev_open(path);
	if (fd >= 0 && dev_connect(fd, addr, port, 0, o->wait_ms)) {
		close(fd);
		return -1;
	}
	return link_ready(fd, path, o);
}
