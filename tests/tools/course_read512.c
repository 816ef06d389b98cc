// SPDX-License-Identifier: GPL-2.0
/*
 * course_read512: a course program that moves its files with read() and
 * write() of 512 bytes, as the course's starter code did, and whose slave
 * ASSUMES EVERY read() OF THE DEVICE RETURNS THE 512 BYTES IT ASKS FOR
 * unless the file is over: it puts the k-th read at byte 512 * k of its
 * file.  A short read in the middle of a stream leaves a hole and shifts
 * everything after it; the program still exits 0.  In fcntl mode the
 * slave pwrite()s each read; in mmap mode it reads straight into a
 * one-page mapping of its file, eight reads a page (and the master writes
 * from a mapping of its file).
 *
 * The part all styles share is in course.h.
 *
 *	course_read512 [master] N FILE... fcntl|mmap
 *	course_read512 [slave] N FILE... fcntl|mmap a.b.c.d[:port]
 */
#include "course.h"

#define PIECE	512

static void send_fcntl(int dev, int fd, const char *path)
{
	char buf[PIECE];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(dev, buf, (size_t)n) != n)
			die_errno("write to the device (%s)", path);
	if (n < 0)
		die_errno("read %s", path);
}

/* The k-th read at 512 * k; the file's size is the bytes read. */
static void recv_fcntl(int dev, int fd, const char *path)
{
	char buf[PIECE];
	off_t k, total = 0;
	ssize_t n;

	for (k = 0; (n = read(dev, buf, sizeof(buf))) > 0; k++) {
		if (pwrite(fd, buf, (size_t)n, k * PIECE) != n)
			die_errno("write %s", path);
		total += n;
	}
	if (n < 0)
		die_errno("read the device (%s)", path);
	if (ftruncate(fd, total))
		die_errno("truncate %s", path);
}

static void copy_fcntl(int dev, int fd, int master, const char *path)
{
	(master ? send_fcntl : recv_fcntl)(dev, fd, path);
}

static void send_mmap(int dev, int fd, const char *path)
{
	struct stat st;
	char *fmap;
	off_t off;

	if (fstat(fd, &st))
		die_errno("stat %s", path);
	if (!st.st_size)
		return;
	fmap = course_map(fd, (size_t)st.st_size, PROT_READ, 0, path);
	for (off = 0; off < st.st_size; off += PIECE) {
		size_t len = st.st_size - off < PIECE ?
			     (size_t)(st.st_size - off) : PIECE;

		if (write(dev, fmap + off, len) != (ssize_t)len)
			die_errno("write to the device (%s)", path);
	}
	munmap(fmap, (size_t)st.st_size);
}

/* Each page of the file mapped in turn, filled by page / 512 reads. */
static void recv_mmap(int dev, int fd, const char *path)
{
	off_t page_off, total = 0;
	ssize_t n = 1;
	size_t k;
	char *fmap;

	for (page_off = 0; n > 0; page_off += (off_t)course_page) {
		if (ftruncate(fd, page_off + (off_t)course_page))
			die_errno("extend %s", path);
		fmap = course_map(fd, course_page, PROT_WRITE, page_off, path);
		for (k = 0; k < course_page / PIECE; k++) {
			n = read(dev, fmap + k * PIECE, PIECE);
			if (n <= 0)
				break;
			total += n;
		}
		munmap(fmap, course_page);
	}
	if (n < 0)
		die_errno("read the device (%s)", path);
	if (ftruncate(fd, total))
		die_errno("truncate %s", path);
}

static const struct course_style style = {
	.name = "course_read512",
	.chunk_pages = 1,
	.about = "read() and write() of 512 bytes in both modes; the slave puts the\n"
		 "k-th read at byte 512 * k (mmap mode: of its file's mapping).",
	.send_mmap = send_mmap,
	.recv_mmap = recv_mmap,
	.copy_fcntl = copy_fcntl,
};

int main(int argc, char **argv)
{
	return course_main(argc, argv, &style);
}
