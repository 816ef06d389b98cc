// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_client: moves files the way the 2020 course's programs did, to
 * show that such programs still work unchanged.  It uses only the legacy
 * ioctl numbers, passing arguments by value, one connection per file with
 * end of file marked by closing the connection, and a mapping of two pages
 * at offset 0:
 *
 *	legacy_client master FILE...		 send each file to a slave
 *	legacy_client slave a.b.c.d[:port] OUT... receive one file per connection
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "syncdev.h"

#define MAP_PAGES	2

static size_t map_len;

static void *map_device(int dev)
{
	void *p;

	map_len = MAP_PAGES * (size_t)sysconf(_SC_PAGESIZE);
	p = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, dev, 0);
	if (p == MAP_FAILED)
		die_errno("mmap of %zu bytes", map_len);
	return p;
}

static void send_file(int dev, char *map, const char *path)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		die_errno("open %s", path);
	if (ioctl(dev, SYNCDEV_LEGACY_CONNECT, 0))
		die_errno("accept (0x12345677)");
	while ((n = read_full(fd, map, map_len)) > 0)
		if (ioctl(dev, SYNCDEV_LEGACY_XFER, (unsigned long)n))
			die_errno("send (0x12345678) of %s", path);
	if (n < 0)
		die_errno("read %s", path);
	if (ioctl(dev, SYNCDEV_LEGACY_PRINT, (unsigned long)map))
		die_errno("print page (0x12345676)");
	/* Closing the connection is the end of the file for the slave. */
	if (ioctl(dev, SYNCDEV_LEGACY_CLOSE, 0))
		die_errno("close (0x12345679)");
	close(fd);
}

/* The master may still be between two files: retry a refused connect. */
static void connect_legacy(int dev, const char *addr)
{
	const struct timespec pause = { 0, 50 * 1000000L };
	int tries = 0;

	while (ioctl(dev, SYNCDEV_LEGACY_CONNECT, addr)) {
		if (errno != ECONNREFUSED || ++tries > 200)
			die_errno("connect (0x12345677) to %s", addr);
		nanosleep(&pause, NULL);
	}
}

static void recv_file(int dev, char *map, const char *addr, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	long n;

	if (fd < 0)
		die_errno("create %s", path);
	connect_legacy(dev, addr);
	while ((n = ioctl(dev, SYNCDEV_LEGACY_XFER, (unsigned long)map_len)) > 0)
		if (write_full(fd, map, (size_t)n) < 0)
			die_errno("write %s", path);
	if (n < 0)
		die_errno("receive (0x12345678) into %s", path);
	if (ioctl(dev, SYNCDEV_LEGACY_PRINT, (unsigned long)map))
		die_errno("print page (0x12345676)");
	if (ioctl(dev, SYNCDEV_LEGACY_CLOSE, 0))
		die_errno("close (0x12345679)");
	if (close(fd))
		die_errno("close %s", path);
}

int main(int argc, char **argv)
{
	int master, dev, i;
	char *map;

	set_progname(argv[0]);
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: legacy_client master FILE...\n"
		       "       legacy_client slave a.b.c.d[:port] OUT...\n\n"
		       "Transfer files like the 2020 course programs: legacy ioctl\n"
		       "numbers only, one connection per file, a 2-page mapping.\n");
		return EXIT_OK;
	}
	master = argc > 2 && !strcmp(argv[1], "master");
	if (!master && !(argc > 3 && !strcmp(argv[1], "slave")))
		die(EXIT_USAGE, "usage: legacy_client master FILE... | slave a.b.c.d[:port] OUT...");
	dev = open(master ? SYNCDEV_MASTER_PATH : SYNCDEV_SLAVE_PATH, O_RDWR);
	if (dev < 0)
		die_errno("open %s", master ? SYNCDEV_MASTER_PATH :
					       SYNCDEV_SLAVE_PATH);
	map = map_device(dev);
	for (i = master ? 2 : 3; i < argc; i++) {
		if (master)
			send_file(dev, map, argv[i]);
		else
			recv_file(dev, map, argv[2], argv[i]);
	}
	munmap(map, map_len);
	close(dev);
	return EXIT_OK;
}
