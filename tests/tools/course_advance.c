// SPDX-License-Identifier: GPL-2.0
/*
 * course_advance: a course program that trusts what the legacy calls
 * return, as some 2020 students' programs did (course.h has the part all
 * styles share):
 *   - in mmap mode the master copies a chunk of its file into a mapping of
 *     the device at 0 and ADVANCES ITS OFFSET BY WHAT THE SEND (0x12345678)
 *     RETURNED, the byte count most course modules returned; with
 *     COURSE_SEND_RESULT=zero it instead takes any result but 0 for a
 *     failure, as the programs for a module that returned 0 did;
 *   - after every file, in both modes and on both sides, it asks for the
 *     page descriptor at ADDRESS 0 and exits 1 if that call fails (in
 *     fcntl mode nothing is mapped there at all).
 * A real program of the first kind resends the same chunk forever when
 * the send returns 0; this one gives up after 1000 sends without progress
 * (exit 1), so that a test ends.
 *
 *	course_advance [master] N FILE... fcntl|mmap
 *	course_advance [slave] N FILE... fcntl|mmap a.b.c.d[:port]
 */
#include "course.h"

#define STUCK_MAX	1000

/* The send's result as the program reads it: the bytes to advance by. */
static off_t sent_by(long ret, size_t len, const char *path)
{
	const char *env = getenv("COURSE_SEND_RESULT");

	if (ret < 0)
		die_errno("send (0x12345678) of %s", path);
	if (env && !strcmp(env, "zero")) {
		if (ret != 0)
			die(EXIT_FAIL, "send (0x12345678) of %s returned %ld, not 0",
			    path, ret);
		return (off_t)len;
	}
	return (off_t)ret;
}

static void send_mmap(int dev, int fd, const char *path)
{
	char *dmap = course_map(dev, course_chunk, PROT_WRITE, 0, "the device");
	unsigned int stuck = 0;
	struct stat st;
	off_t off, step;

	if (fstat(fd, &st))
		die_errno("stat %s", path);
	for (off = 0; off < st.st_size; off += step) {
		size_t len = st.st_size - off < (off_t)course_chunk ?
			     (size_t)(st.st_size - off) : course_chunk;

		if (pread(fd, dmap, len, off) != (ssize_t)len)
			die_errno("read %s at %lld", path, (long long)off);
		step = sent_by(ioctl(dev, SYNCDEV_LEGACY_XFER,
				     (unsigned long)len), len, path);
		if (!step && ++stuck > STUCK_MAX)
			die(EXIT_FAIL, "send of %s: %u sends returned 0 (the real program loops forever)",
			    path, STUCK_MAX);
	}
	course_print(dev, NULL);
	munmap(dmap, course_chunk);
}

static void recv_mmap(int dev, int fd, const char *path)
{
	char *dmap = course_map(dev, course_chunk, PROT_READ, 0, "the device");
	long n;

	while ((n = ioctl(dev, SYNCDEV_LEGACY_XFER,
			  (unsigned long)course_chunk)) > 0)
		if (write_full(fd, dmap, (size_t)n) < 0)
			die_errno("write %s", path);
	if (n < 0)
		die_errno("receive (0x12345678) into %s", path);
	course_print(dev, NULL);
	munmap(dmap, course_chunk);
}

/* fcntl mode: the copy, then the page descriptor at 0, never mapped. */
static void copy_fcntl(int dev, int fd, int master, const char *path)
{
	course_copy_fd(master ? fd : dev, master ? dev : fd, path);
	course_print(dev, NULL);
}

static const struct course_style style = {
	.name = "course_advance",
	.chunk_pages = 2,
	.about = "the master advances by the send's result (COURSE_SEND_RESULT=zero: takes\n"
		 "anything but 0 for a failure); a page dump of address 0 after every file.",
	.send_mmap = send_mmap,
	.recv_mmap = recv_mmap,
	.copy_fcntl = copy_fcntl,
};

int main(int argc, char **argv)
{
	return course_main(argc, argv, &style);
}
