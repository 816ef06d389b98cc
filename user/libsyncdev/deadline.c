// SPDX-License-Identifier: GPL-2.0
#include "deadline.h"
#include "device.h"
#include "util.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

void deadline_start(struct deadline *d, int fd, uint32_t ms)
{
	struct stat st;

	d->end_ns = now_ns() + (uint64_t)ms * 1000000u;
	d->ms = ms;
	d->device = fstat(fd, &st) == 0 && S_ISCHR(st.st_mode);
	d->off = 0;
}

void deadline_start_keep(struct deadline *d, int fd, uint32_t ms)
{
	deadline_start(d, fd, ms);
	d->off = d->device;
}

void deadline_start_dev(struct deadline *d, int fd, uint32_t ms, int kernel)
{
	deadline_start(d, fd, ms);
	d->off = d->device && kernel;
}

uint32_t deadline_handshake_ms(void)
{
	const char *s = getenv("SYNCDEV_HANDSHAKE_MS");
	uint64_t v;

	if (s && !parse_uint(s, 1, DEADLINE_HANDSHAKE_MAX_MS, &v))
		return (uint32_t)v;
	return DEADLINE_HANDSHAKE_MS;
}

/*
 * Wait until fd is ready for events, or the deadline: 0, or -1 with
 * errno (ETIMEDOUT when it passed).  On the device: its timeout set to
 * what is left, and the call itself waits.
 */
static int wait_ready(int fd, short events, const struct deadline *d)
{
	uint64_t now = now_ns(), left;
	struct pollfd p = { .fd = fd, .events = events };
	int n;

	if (d->off)
		return 0;
	if (now >= d->end_ns) {
		errno = ETIMEDOUT;
		return -1;
	}
	/* Rounded up: a wait of 0 ms would be no wait, or no limit. */
	left = (d->end_ns - now + 999999) / 1000000;
	if (d->device)
		return dev_set_timeout_ms(fd, (uint32_t)left);
	do
		n = poll(&p, 1, (int)left);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		errno = ETIMEDOUT;
	return n > 0 ? 0 : -1;
}

ssize_t deadline_read(int fd, void *buf, size_t len, const struct deadline *d)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		if (wait_ready(fd, POLLIN, d))
			return -1;
		n = read(fd, (char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t deadline_write(int fd, const void *buf, size_t len,
		       const struct deadline *d)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		if (wait_ready(fd, POLLOUT, d))
			return -1;
		n = write(fd, (const char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		done += (size_t)n;
	}
	return (ssize_t)done;
}
