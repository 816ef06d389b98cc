// SPDX-License-Identifier: GPL-2.0
/*
 * course_128page: a course program of the second legacy style.  Like the
 * 2020 course's programs it uses the legacy ioctl numbers only, one
 * connection per file, but in mmap mode it maps 128 PAGES OF THE DEVICE AT
 * THE OFFSET IT HAS REACHED IN ITS FILE (as if the device were the file),
 * a fresh mapping per chunk, and calls the slave's receive ioctl WITHOUT A
 * LENGTH: the third argument is whatever the caller had at hand (here a
 * stack address, or COURSE_RECV_ARG).  The course's module ignored the
 * offset, and so does syncdev in a session that used the legacy numbers:
 * this works for a file of any size.
 *
 * The part both styles share is in course.h.
 *
 *	course_128page [master] N FILE... fcntl|mmap
 *	course_128page [slave] N FILE... fcntl|mmap a.b.c.d[:port]
 */
#include "course.h"

static void send_mmap(int dev, int fd, const char *path)
{
	struct stat st;
	off_t off;

	if (fstat(fd, &st))
		die_errno("stat %s", path);
	for (off = 0; off < st.st_size; off += (off_t)course_chunk) {
		size_t len = st.st_size - off < (off_t)course_chunk ?
			     (size_t)(st.st_size - off) : course_chunk;
		char *fmap = course_map(fd, len, PROT_READ, off, path);
		char *dmap = course_map(dev, len, PROT_WRITE, off, "the device");

		memcpy(dmap, fmap, len);
		if (ioctl(dev, SYNCDEV_LEGACY_XFER, (unsigned long)len) < 0)
			die_errno("send (0x12345678) of %s", path);
		if (off == 0)
			course_print(dev, dmap);
		munmap(fmap, len);
		munmap(dmap, len);
	}
}

/*
 * A short receive is the end of the file (the next offset would not even
 * be page-aligned); one more receive checks that the stream really ended.
 */
static void recv_mmap(int dev, int fd, const char *path)
{
	off_t off = 0;
	long n;

	do {
		char *dmap = course_map(dev, course_chunk, PROT_READ, off, "the device");
		char *fmap;

		n = ioctl(dev, SYNCDEV_LEGACY_XFER, course_no_length());
		if (n < 0)
			die_errno("receive (0x12345678) into %s", path);
		if (n > 0) {
			if (ftruncate(fd, off + n))
				die_errno("extend %s", path);
			fmap = course_map(fd, (size_t)n, PROT_WRITE, off, path);
			memcpy(fmap, dmap, (size_t)n);
			munmap(fmap, (size_t)n);
		}
		if (off == 0)
			course_print(dev, dmap);
		munmap(dmap, course_chunk);
		off += n;
	} while ((size_t)n == course_chunk);
	n = ioctl(dev, SYNCDEV_LEGACY_XFER, course_no_length());
	if (n)
		die(EXIT_FAIL, "receive (0x12345678) into %s: %s after a short chunk",
		    path, n > 0 ? "more data" : strerror(errno));
}

static const struct course_style style = {
	.name = "course_128page",
	.chunk_pages = 128,
	.about = "the device mapped 128 pages at the file's offset, receive without\n"
		 "a length (COURSE_RECV_ARG sets the value it passes instead).",
	.send_mmap = send_mmap,
	.recv_mmap = recv_mmap,
};

int main(int argc, char **argv)
{
	return course_main(argc, argv, &style);
}
