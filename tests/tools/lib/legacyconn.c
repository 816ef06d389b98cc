// SPDX-License-Identifier: GPL-2.0
#include "legacyconn.h"

#include <errno.h>
#include <sys/ioctl.h>
#include <time.h>

#include "syncdev_abi.h"

int legacy_connect(int dev, int master, const char *addr)
{
	const struct timespec pause = { 0, 50 * 1000000L };
	int tries = 0;

	if (master)
		return ioctl(dev, SYNCDEV_LEGACY_CONNECT, 0) ? -1 : 0;
	while (ioctl(dev, SYNCDEV_LEGACY_CONNECT, addr)) {
		if (errno != ECONNREFUSED || ++tries > 400)
			return -1;
		nanosleep(&pause, NULL);
	}
	return 0;
}
