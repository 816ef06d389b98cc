// SPDX-License-Identifier: GPL-2.0
/*
 * course_dumpfirst: a course program that ASKS FOR THE PAGE DESCRIPTOR
 * BEFORE ITS FIRST LEGACY CALL: in mmap mode it maps the device (2 pages,
 * or COURSE_PAGES, at offset 0) once per file, prints the descriptor of
 * that mapping with ioctl 9020 (or COURSE_PRINT_CMD) and only then
 * connects (0x12345677).  The master copies its file into the mapping a
 * chunk at a time and sends it; the slave receives WITHOUT A LENGTH and
 * write()s what it got.  No other page dump: one line per file and side.
 *
 * The part all styles share is in course.h.
 *
 *	course_dumpfirst [master] N FILE... fcntl|mmap
 *	course_dumpfirst [slave] N FILE... fcntl|mmap a.b.c.d[:port]
 */
#include "course.h"

static char *dmap;	/* this file's mapping, dumped before connecting */

static void map_and_dump(int dev, int master)
{
	dmap = course_map(dev, course_chunk, master ? PROT_WRITE : PROT_READ,
			  0, "the device");
	course_print(dev, dmap);
}

static void send_mmap(int dev, int fd, const char *path)
{
	ssize_t n;
	char *buf = xmalloc(course_chunk);

	while ((n = read(fd, buf, course_chunk)) > 0) {
		memcpy(dmap, buf, (size_t)n);
		if (ioctl(dev, SYNCDEV_LEGACY_XFER, (unsigned long)n) < 0)
			die_errno("send (0x12345678) of %s", path);
	}
	if (n < 0)
		die_errno("read %s", path);
	free(buf);
	munmap(dmap, course_chunk);
}

static void recv_mmap(int dev, int fd, const char *path)
{
	long n;

	while ((n = ioctl(dev, SYNCDEV_LEGACY_XFER, course_no_length())) > 0)
		if (write_full(fd, dmap, (size_t)n) < 0)
			die_errno("write %s", path);
	if (n < 0)
		die_errno("receive (0x12345678) into %s", path);
	munmap(dmap, course_chunk);
}

static const struct course_style style = {
	.name = "course_dumpfirst",
	.chunk_pages = 2,
	.about = "the device mapped 2 pages at offset 0 and its page descriptor\n"
		 "printed (ioctl 9020) before connecting; receive without a length.",
	.send_mmap = send_mmap,
	.recv_mmap = recv_mmap,
	.before_connect = map_and_dump,
};

int main(int argc, char **argv)
{
	/* The number the program this client stands for used. */
	if (setenv("COURSE_PRINT_CMD", "9020", 0))
		die_errno("setenv");
	return course_main(argc, argv, &style);
}
