// SPDX-License-Identifier: GPL-2.0
/*
 * course_early: a course program that MAPS THE DEVICE BEFORE CONNECTING,
 * once per file (10 pages, or COURSE_PAGES, at offset 0), and never
 * unmaps it.  In mmap mode the master read()s its file straight into the
 * mapping and sends what it read; the slave calls the receive ioctl
 * WITHOUT A LENGTH and write()s what it got from the mapping, until a
 * receive returns 0.
 *
 * The part all styles share is in course.h.
 *
 *	course_early [master] N FILE... fcntl|mmap
 *	course_early [slave] N FILE... fcntl|mmap a.b.c.d[:port]
 */
#include "course.h"

static char *early;	/* this file's mapping, made before connecting */

static void map_early(int dev, int master)
{
	early = course_map(dev, course_chunk, master ? PROT_WRITE : PROT_READ,
			   0, "the device");
}

static void send_mmap(int dev, int fd, const char *path)
{
	ssize_t n;

	while ((n = read(fd, early, course_chunk)) > 0)
		if (ioctl(dev, SYNCDEV_LEGACY_XFER, (unsigned long)n) < 0)
			die_errno("send (0x12345678) of %s", path);
	if (n < 0)
		die_errno("read %s", path);
	course_print(dev, early);
}

static void recv_mmap(int dev, int fd, const char *path)
{
	long n;

	while ((n = ioctl(dev, SYNCDEV_LEGACY_XFER, course_no_length())) > 0)
		if (write_full(fd, early, (size_t)n) < 0)
			die_errno("write %s", path);
	if (n < 0)
		die_errno("receive (0x12345678) into %s", path);
	course_print(dev, early);
}

static const struct course_style style = {
	.name = "course_early",
	.chunk_pages = 10,
	.about = "the device mapped before connecting, once per file and never\n"
		 "unmapped; receive without a length.",
	.send_mmap = send_mmap,
	.recv_mmap = recv_mmap,
	.before_connect = map_early,
};

int main(int argc, char **argv)
{
	return course_main(argc, argv, &style);
}
