// SPDX-License-Identifier: GPL-2.0
/*
 * The connection tcpcopy copies over: a plain TCP socket, or with --device
 * syncdev itself (/dev/master_device on the sending side, /dev/slave_device
 * on the receiving one), so that osbench transfer can measure what the
 * device alone costs.  Everything else (the size, the loops, the buffer,
 * the output file, the answer) is the same on both.
 */
#include "deadline.h"
#include "device.h"
#include "tcp.h"
#include "tcpcopy.h"
#include "util.h"

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

/*
 * --device --key: the kernel's handshake deadline on the connection to
 * come (o->hs_kernel says whether the module has it); 0 or -1.
 */
static int set_handshake(int fd, const char *path, struct tcpcopy_opts *o)
{
	o->hs_kernel = 0;
	if (!o->key_path)
		return 0;
	o->hs_kernel = dev_set_handshake(fd, path, deadline_handshake_ms());
	return o->hs_kernel < 0 ? -1 : 0;
}

int tcpcopy_link_accept(uint16_t port, struct tcpcopy_opts *o)
{
	const char *path = o->device_path ? o->device_path :
					    dev_path(DEV_MASTER);
	int fd;

	if (!o->device)
		return link_ready(tcp_accept_one(port), path, o);
	fd = dev_open(path);
	if (fd >= 0 && (set_handshake(fd, path, o) || dev_accept(fd, path))) {
		close(fd);
		return -1;
	}
	return link_ready(fd, path, o);
}

int tcpcopy_link_connect(struct in_addr addr, uint16_t port,
			 struct tcpcopy_opts *o)
{
	const char *path = o->device_path ? o->device_path :
					    dev_path(DEV_SLAVE);
	int fd;

	if (!o->device)
		return link_ready(tcp_connect(addr, port, o->wait_ms), path, o);
	fd = dev_open(path);
	if (fd >= 0 && (set_handshake(fd, path, o) ||
			dev_connect(fd, addr, port, 0, o->wait_ms))) {
		close(fd);
		return -1;
	}
	return link_ready(fd, path, o);
}

/* The key proofs under d; EXIT_OK, or EXIT_AUTH after a message. */
static int prove(int fd, int send, struct tcpcopy_opts *o,
		 const struct deadline *d)
{
	char why[AUTH_WHY_LEN];

	if (!send)
		return auth_slave_by(fd, &o->key, &o->sess, d) ?
		       EXIT_AUTH : EXIT_OK;
	if (!auth_master_by(fd, &o->key, &o->sess, why, d))
		return EXIT_OK;
	msg("key handshake with the receiver failed: %s", why);
	return EXIT_AUTH;
}

int tcpcopy_link_auth(int fd, int send, struct tcpcopy_opts *o)
{
	const char *path = dev_path(send ? DEV_MASTER : DEV_SLAVE);
	struct deadline d;
	int ret;

	deadline_start_dev(&d, fd, deadline_handshake_ms(),
			   o->device && o->hs_kernel);
	ret = prove(fd, send, o, &d);
	if (ret || !o->device)
		return ret;
	if (o->hs_kernel && dev_confirm(fd)) {
		msg_errno("key handshake with the %s: not done within %u ms",
			  send ? "receiver" : "sender", d.ms);
		return EXIT_AUTH;
	}
	/* A deadline of this program's set the device's timeout: again. */
	return dev_set_timeout(fd, path, o->progress_s) ? EXIT_FAIL : EXIT_OK;
}
