// SPDX-License-Identifier: GPL-2.0
#include "device.h"
#include "netaddr.h"
#include "retry.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "syncdev_abi.h"

const char *dev_path(enum dev_side side)
{
	return side == DEV_MASTER ? SYNCDEV_MASTER_PATH : SYNCDEV_SLAVE_PATH;
}

int dev_module_param(const char *name, unsigned long long *value)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/module/syncdev/parameters/%s",
		 name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fscanf(f, "%llu", value) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

uint16_t dev_default_port(void)
{
	return SYNCDEV_DEFAULT_PORT;
}

uint16_t dev_port(void)
{
	unsigned long long port;

	if (dev_module_param("port", &port) || port == 0 || port > 65535)
		return SYNCDEV_DEFAULT_PORT;
	return (uint16_t)port;
}

int dev_open(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	if (errno == ENOENT || errno == ENXIO || errno == ENODEV)
		msg_errno("cannot open %s (is the syncdev module loaded?)",
			  path);
	else if (errno == EACCES || errno == EPERM)
		msg_errno("cannot open %s (the devices are mode 0600: run as root?)",
			  path);
	else
		msg_errno("cannot open %s", path);
	return -1;
}

int dev_accept(int fd, const char *path)
{
	if (ioctl(fd, SYNCDEV_IOC_ACCEPT) == 0)
		return 0;
	if (errno == EADDRINUSE)
		msg_errno("%s: cannot listen (another program holds the port?)",
			  path);
	else
		msg_errno("%s: waiting for a slave", path);
	return -1;
}

struct connect_try {
	int fd;
	struct syncdev_connect c;
};

static int connect_once(void *arg)
{
	struct connect_try *t = arg;

	return ioctl(t->fd, SYNCDEV_IOC_CONNECT, &t->c);
}

int dev_connect(int fd, struct in_addr addr, uint16_t port,
		uint32_t timeout_ms, uint32_t wait_ms)
{
	struct connect_try t = {
		.fd = fd,
		.c = {
			.addr = addr.s_addr,
			.port = port,
			.timeout_ms = timeout_ms,
		},
	};
	char where[32];

	format_ipv4_port(where, addr, port ? port : dev_port());
	if (connect_once(&t) == 0)
		return 0;
	if (errno == ECONNREFUSED && wait_ms) {
		msg("no master at %s yet: retrying for up to %.3g s (--wait MS)",
		    where, wait_ms / 1e3);
		if (retry_refused(connect_once, &t, wait_ms) == 0)
			return 0;
	}
	if (errno == ECONNREFUSED)
		msg_errno("connect to %s (is the master running?)", where);
	else
		msg_errno("connect to %s", where);
	return -1;
}

int dev_disconnect(int fd, const char *path)
{
	if (ioctl(fd, SYNCDEV_IOC_DISCONNECT) == 0)
		return 0;
	msg_errno("%s: closing the connection", path);
	return -1;
}

int dev_two_way(int fd, enum dev_side side)
{
	char c = 0;
	ssize_t n = side == DEV_MASTER ? read(fd, &c, 0) : write(fd, &c, 0);

	return !(n < 0 && errno == EINVAL);
}

int dev_peer_gone(int err)
{
	return err == EPIPE || err == ECONNRESET || err == ENOTCONN ||
	       err == ESHUTDOWN;
}

const char *dev_peer_hint(int err, const char *peer)
{
	static char buf[160];

	if (err == ETIMEDOUT || err == EAGAIN)
		snprintf(buf, sizeof(buf),
			 " (nothing moved within the progress timeout: the %s stalled, or its machine or the network is down)",
			 peer);
	else if (dev_peer_gone(err))
		snprintf(buf, sizeof(buf), " (the %s is gone)", peer);
	else
		buf[0] = '\0';
	return buf;
}

void dev_xfer_failed(const char *verb, const char *what, uint64_t done,
		     uint64_t size, const char *peer)
{
	const char *hint = dev_peer_hint(errno, peer);

	if (size)
		msg_errno("%s %s (after %llu of %llu bytes)%s", verb, what,
			  (unsigned long long)done, (unsigned long long)size,
			  hint);
	else
		msg_errno("%s %s%s", verb, what, hint);
}

int dev_set_timeout(int fd, const char *path, uint32_t seconds)
{
	struct syncdev_timeout t = { .progress_ms = seconds * 1000u };

	if (ioctl(fd, SYNCDEV_IOC_SET_TIMEOUT, &t) == 0)
		return 0;
	if (errno == ENOTTY)
		msg_errno("%s: cannot set the progress timeout (a syncdev module without SYNCDEV_IOC_SET_TIMEOUT?)",
			  path);
	else
		msg_errno("%s: cannot set the progress timeout", path);
	return -1;
}

int dev_set_timeout_ms(int fd, uint32_t ms)
{
	struct syncdev_timeout t = { .progress_ms = ms };

	return ioctl(fd, SYNCDEV_IOC_SET_TIMEOUT, &t);
}

int dev_set_handshake(int fd, const char *path, uint32_t ms)
{
	struct syncdev_handshake h = { .deadline_ms = ms };

	if (ioctl(fd, SYNCDEV_IOC_SET_HANDSHAKE, &h) == 0)
		return 1;
	if (errno == ENOTTY)
		return 0;
	msg_errno("%s: cannot set the handshake deadline", path);
	return -1;
}

int dev_confirm(int fd)
{
	return ioctl(fd, SYNCDEV_IOC_CONFIRM) ? -1 : 0;
}

int dev_set_peer(int fd, const char *path, struct in_addr addr)
{
	struct syncdev_peer p = { .addr = addr.s_addr };

	if (ioctl(fd, SYNCDEV_IOC_SET_PEER, &p) == 0)
		return 0;
	msg_errno("%s: cannot set the peer filter", path);
	return -1;
}

void *dev_map(int fd, size_t *len)
{
	struct syncdev_info info;
	void *p;

	if (ioctl(fd, SYNCDEV_IOC_INFO, &info)) {
		msg_errno("SYNCDEV_IOC_INFO");
		return NULL;
	}
	if (*len == 0 || *len > info.buf_size)
		*len = (size_t)info.buf_size;
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		msg_errno("mmap of the %zu-byte device buffer", *len);
		return NULL;
	}
	return p;
}

int dev_send(int fd, uint64_t offset, uint64_t len)
{
	struct syncdev_xfer x = { .offset = offset, .len = len };

	return ioctl(fd, SYNCDEV_IOC_SEND, &x) ? -1 : 0;
}

ssize_t dev_recv(int fd, uint64_t offset, uint64_t len, uint32_t flags)
{
	struct syncdev_xfer x = { .offset = offset, .len = len,
				  .flags = flags };

	return ioctl(fd, SYNCDEV_IOC_RECV, &x);
}

void dev_print_page(int fd, const void *addr)
{
	__u64 a = (__u64)(uintptr_t)addr;

	if (ioctl(fd, SYNCDEV_IOC_PRINT_PAGE, &a))
		msg_errno("warning: SYNCDEV_IOC_PRINT_PAGE");
}

void dev_print_pages(int fd, const void *map)
{
	dev_print_page(fd, NULL);
	if (map)
		dev_print_page(fd, map);
}

void dev_print_pages_once(int fd, const void *map, int *done)
{
	if (*done || !map)
		return;
	dev_print_pages(fd, map);
	*done = 1;
}
