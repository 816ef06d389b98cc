// SPDX-License-Identifier: GPL-2.0
/*
 * course_page: a course program that assumes ONE PAGE PER RECEIVE.  Its
 * module received a page at a time, so in mmap mode the slave calls the
 * receive ioctl WITHOUT A LENGTH before it maps anything, then maps one
 * page of the device at the offset it has reached in its file, writes it
 * as page k of the output for the k-th receive, and takes a short receive
 * for the end of the file: a short receive mid-stream would shift the
 * rest of the file and still exit 0.  The master maps one page of the
 * device at the file's offset per page, read()s that page of its file
 * into it and sends it.
 *
 * The part all styles share is in course.h.
 *
 *	course_page [master] N FILE... fcntl|mmap
 *	course_page [slave] N FILE... fcntl|mmap a.b.c.d[:port]
 */
#include "course.h"

static void send_mmap(int dev, int fd, const char *path)
{
	off_t off = 0;
	char *dmap;
	ssize_t n;

	do {
		dmap = course_map(dev, course_chunk, PROT_WRITE, off,
				  "the device");
		n = read(fd, dmap, course_chunk);
		if (n < 0)
			die_errno("read %s", path);
		if (n > 0 && ioctl(dev, SYNCDEV_LEGACY_XFER, (unsigned long)n) < 0)
			die_errno("send (0x12345678) of %s", path);
		if (off == 0)
			course_print(dev, dmap);
		munmap(dmap, course_chunk);
		off += n;
	} while ((size_t)n == course_chunk);
}

/* Receive first, then look: the k-th receive is chunk k of the file. */
static void recv_mmap(int dev, int fd, const char *path)
{
	off_t off = 0;
	char *dmap;
	long n;

	do {
		n = ioctl(dev, SYNCDEV_LEGACY_XFER, course_no_length());
		if (n < 0)
			die_errno("receive (0x12345678) into %s", path);
		if (!n)
			break;
		dmap = course_map(dev, course_chunk, PROT_READ, off,
				  "the device");
		if (pwrite(fd, dmap, (size_t)n, off) != n)
			die_errno("write %s at %lld", path, (long long)off);
		if (off == 0)
			course_print(dev, dmap);
		munmap(dmap, course_chunk);
		off += (off_t)course_chunk;
	} while ((size_t)n == course_chunk);
}

#ifndef COURSE_PAGE_SIZE_DIV
#define COURSE_PAGE_SIZE_DIV 1
#define COURSE_PAGE_PREFIXED 0
#endif

static const struct course_style style = {
	.name = "course_page",
	.size_div = COURSE_PAGE_SIZE_DIV,
	.prefixed = COURSE_PAGE_PREFIXED,
	.chunk_pages = 1,
	.about = "one page per receive assumed: receive without a length, then map\n"
		 "a page at the file's offset and write it as the k-th page.",
	.send_mmap = send_mmap,
	.recv_mmap = recv_mmap,
};

int main(int argc, char **argv)
{
	return course_main(argc, argv, &style);
}
