// SPDX-License-Identifier: GPL-2.0
/*
 * course_2page: a course program of the first legacy style, as the 2020
 * course's students wrote master and slave (course.h has the part both
 * styles share): in mmap mode the device is mapped TWO PAGES AT OFFSET 0
 * (or COURSE_PAGES pages: programs map 1, 10, 50, 100) once per file and
 * reused for every chunk, the master sends from its first byte, and the
 * slave passes that length to its receive ioctl.
 *
 *	course_2page [master] N FILE... fcntl|mmap
 *	course_2page [slave] N FILE... fcntl|mmap a.b.c.d[:port]
 */
#include "course.h"

static void send_mmap(int dev, int fd, const char *path)
{
	char *dmap = mmap(NULL, course_chunk, PROT_WRITE, MAP_SHARED, dev, 0);
	struct stat st;
	off_t off;

	if (dmap == MAP_FAILED)
		die_errno("mmap of the device (%zu bytes at 0)", course_chunk);
	if (fstat(fd, &st))
		die_errno("stat %s", path);
	for (off = 0; off < st.st_size; off += (off_t)course_chunk) {
		size_t len = st.st_size - off < (off_t)course_chunk ?
			     (size_t)(st.st_size - off) : course_chunk;
		char *fmap = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, off);

		if (fmap == MAP_FAILED)
			die_errno("mmap of %s at %lld", path, (long long)off);
		memcpy(dmap, fmap, len);
		munmap(fmap, len);
		if (ioctl(dev, SYNCDEV_LEGACY_XFER, (unsigned long)len) < 0)
			die_errno("send (0x12345678) of %s", path);
	}
	course_print(dev, dmap);
	munmap(dmap, course_chunk);
}

static void recv_mmap(int dev, int fd, const char *path)
{
	char *dmap = mmap(NULL, course_chunk, PROT_READ, MAP_SHARED, dev, 0);
	off_t off = 0;
	char *fmap;
	long n;

	if (dmap == MAP_FAILED)
		die_errno("mmap of the device (%zu bytes at 0)", course_chunk);
	while ((n = ioctl(dev, SYNCDEV_LEGACY_XFER,
			  (unsigned long)course_chunk)) > 0) {
		if (ftruncate(fd, off + n))
			die_errno("extend %s", path);
		fmap = mmap(NULL, (size_t)n, PROT_WRITE, MAP_SHARED, fd, off);
		if (fmap == MAP_FAILED)
			die_errno("mmap of %s at %lld", path, (long long)off);
		memcpy(fmap, dmap, (size_t)n);
		munmap(fmap, (size_t)n);
		off += n;
	}
	if (n < 0)
		die_errno("receive (0x12345678) into %s", path);
	course_print(dev, dmap);
	munmap(dmap, course_chunk);
}

static const struct course_style style = {
	.name = "course_2page",
	.chunk_pages = 2,
	.about = "the device mapped 2 pages at offset 0, the length passed to receive.",
	.send_mmap = send_mmap,
	.recv_mmap = recv_mmap,
};

int main(int argc, char **argv)
{
	return course_main(argc, argv, &style);
}
