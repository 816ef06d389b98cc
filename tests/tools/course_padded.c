// SPDX-License-Identifier: GPL-2.0
/*
 * course_padded: a course program written against the 2020 starter
 * module's read(), one receive of at most 512 bytes whatever the count
 * (docs/legacy.md, legacy_read).  ONE CONNECTION FOR
 * ALL FILES (legacy numbers); the master writes, per file, a 512-byte
 * header chunk (the size in decimal, zero-padded) and the file in 512-byte
 * chunks, THE LAST ONE PADDED WITH ZEROS to 512.  The slave reads the
 * header with read() of 512, then the file with read()s of 512 and, for
 * the last piece, of the bytes left: it relies on that short read
 * consuming the padding of its chunk.  It writes what each read()
 * returned and exits 0 unless a call fails or a header is not a number.
 *
 *	course_padded master N FILE...
 *	course_padded slave N FILE... a.b.c.d[:port]
 */
#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "legacyconn.h"
#include "syncdev_abi.h"

#define CHUNK	512

static void send_file(int dev, const char *path)
{
	char chunk[CHUNK];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die_errno("open %s", path);
	memset(chunk, 0, sizeof(chunk));
	snprintf(chunk, sizeof(chunk), "%lld", (long long)st.st_size);
	if (write_full(dev, chunk, sizeof(chunk)) < 0)
		die_errno("write the header of %s", path);
	for (;;) {
		memset(chunk, 0, sizeof(chunk));
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0)
			die_errno("read %s", path);
		if (!n)
			break;
		if (write_full(dev, chunk, sizeof(chunk)) < 0)
			die_errno("write a chunk of %s", path);
	}
	close(fd);
}

static void recv_file(int dev, const char *path)
{
	char chunk[CHUNK], *end;
	long long left;
	ssize_t n;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die_errno("open %s", path);
	n = read(dev, chunk, sizeof(chunk));
	if (n < 0)
		die_errno("read the header of %s", path);
	chunk[n < CHUNK ? n : CHUNK - 1] = '\0';
	left = strtoll(chunk, &end, 10);
	if (end == chunk || left < 0)
		die(EXIT_FAIL, "the header of %s is not a size", path);
	while (left > 0) {
		n = read(dev, chunk, left < CHUNK ? (size_t)left : CHUNK);
		if (n <= 0)
			die(EXIT_FAIL, "%s: the stream ended %lld bytes short",
			    path, left);
		if (write_full(fd, chunk, (size_t)n) < 0)
			die_errno("write %s", path);
		left -= n;
	}
	if (close(fd))
		die_errno("close %s", path);
}

static void connect_dev(int dev, int master, const char *addr)
{
	if (!legacy_connect(dev, master, addr))
		return;
	if (master)
		die_errno("accept (0x12345677)");
	die_errno("connect (0x12345677) to %s", addr);
}

int main(int argc, char **argv)
{
	int master, dev, n, i;

	set_progname(argv[0]);
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: course_padded master N FILE...\n"
		       "       course_padded slave N FILE... a.b.c.d[:port]\n\n"
		       "One connection for all files; per file a 512-byte header and 512-byte\n"
		       "chunks, the last padded; the slave's last read() asks for the bytes left.\n");
		return EXIT_OK;
	}
	master = argc > 2 && !strcmp(argv[1], "master");
	n = argc > 2 ? atoi(argv[2]) : 0;
	if ((!master && (argc < 2 || strcmp(argv[1], "slave"))) || n < 1 ||
	    argc != n + 3 + !master)
		die(EXIT_USAGE, "usage: course_padded master|slave N FILE... [a.b.c.d]");
	dev = open(master ? SYNCDEV_MASTER_PATH : SYNCDEV_SLAVE_PATH, O_RDWR);
	if (dev < 0)
		die_errno("open the device");
	connect_dev(dev, master, master ? NULL : argv[n + 3]);
	for (i = 0; i < n; i++)
		(master ? send_file : recv_file)(dev, argv[3 + i]);
	if (ioctl(dev, SYNCDEV_LEGACY_CLOSE, 0))
		die_errno("close (0x12345679)");
	close(dev);
	return EXIT_OK;
}
