/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The skeleton both course-style clients share (course_2page.c,
 * course_128page.c): the 2020 course's command line, one connection per
 * file with the legacy ioctl numbers, fcntl mode with read()/write(), and
 * the course's output line.  Only the mmap mode differs between the two
 * styles, and each client brings its own.  Included by exactly one .c
 * file per program.
 */
#ifndef COURSE_H
#define COURSE_H

#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "syncdev.h"

struct course_style {
	const char *name;
	unsigned int chunk_pages;	/* per mapping and per transfer */
	const char *about;		/* --help: how it maps and receives */
	void (*send_mmap)(int dev, int fd, const char *path);
	void (*recv_mmap)(int dev, int fd, const char *path);
};

static size_t course_chunk;		/* chunk_pages in bytes */

/* fcntl mode: read() and write() a chunk at a time. */
static void course_copy_fd(int from, int to, const char *what)
{
	char *buf = xmalloc(course_chunk);
	ssize_t n;

	while ((n = read(from, buf, course_chunk)) > 0)
		if (write_full(to, buf, (size_t)n) < 0)
			die_errno("write (%s)", what);
	if (n < 0)
		die_errno("read (%s)", what);
	free(buf);
}

static void course_connect(int dev, int master, const char *addr)
{
	const struct timespec pause = { 0, 50 * 1000000L };
	int tries = 0;

	if (master) {
		if (ioctl(dev, SYNCDEV_LEGACY_CONNECT, 0))
			die_errno("accept (0x12345677)");
		return;
	}
	/* The master may still be between two files. */
	while (ioctl(dev, SYNCDEV_LEGACY_CONNECT, addr)) {
		if (errno != ECONNREFUSED || ++tries > 400)
			die_errno("connect (0x12345677) to %s", addr);
		nanosleep(&pause, NULL);
	}
}

/* One file over one connection; returns its size. */
static off_t course_file(const struct course_style *cs, int dev, int master,
			 const char *path, int use_mmap, const char *addr)
{
	int fd = master ? open(path, O_RDONLY) :
			  open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct stat st;

	if (fd < 0)
		die_errno("open %s", path);
	course_connect(dev, master, addr);
	if (use_mmap)
		(master ? cs->send_mmap : cs->recv_mmap)(dev, fd, path);
	else
		course_copy_fd(master ? fd : dev, master ? dev : fd, path);
	if (ioctl(dev, SYNCDEV_LEGACY_CLOSE, 0))
		die_errno("close (0x12345679)");
	if (fstat(fd, &st) || close(fd))
		die_errno("close %s", path);
	return st.st_size;
}

/* 1 master, 0 slave, from the program's name or its first word. */
static int course_role(int *argc, char ***argv)
{
	const char *base = strrchr((*argv)[0], '/');

	base = base ? base + 1 : (*argv)[0];
	if (strstr(base, "slave") || strstr(base, "master"))
		return !strstr(base, "slave");
	if (*argc < 2 || (strcmp((*argv)[1], "master") &&
			  strcmp((*argv)[1], "slave")))
		return -1;
	(*argc)--;
	(*argv)++;
	return !strcmp((*argv)[0], "master");
}

static int course_help(const struct course_style *cs)
{
	printf("usage: %s [master] N FILE... fcntl|mmap\n"
	       "       %s [slave] N FILE... fcntl|mmap a.b.c.d[:port]\n\n"
	       "A course program: legacy ioctls only, one connection per file,\n"
	       "%s\n"
	       "The role word is left out when the program's name contains it.\n",
	       cs->name, cs->name, cs->about);
	return EXIT_OK;
}

static int course_main(int argc, char **argv, const struct course_style *cs)
{
	int master, dev, i, n, use_mmap;
	const char *path, *method;
	long long total = 0;
	uint64_t t0;

	set_progname(argv[0]);
	if (argc > 1 && !strcmp(argv[1], "--help"))
		return course_help(cs);
	master = course_role(&argc, &argv);
	n = argc > 1 ? atoi(argv[1]) : 0;
	if (master < 0 || n < 1 || argc != n + 3 + !master)
		die(EXIT_USAGE, "usage: %s [master|slave] N FILE... fcntl|mmap [a.b.c.d]",
		    cs->name);
	method = argv[n + 2];
	use_mmap = !strcmp(method, "mmap");
	if (!use_mmap && strcmp(method, "fcntl"))
		die(EXIT_USAGE, "method must be fcntl or mmap, not '%s'", method);
	course_chunk = cs->chunk_pages * (size_t)sysconf(_SC_PAGESIZE);
	path = master ? SYNCDEV_MASTER_PATH : SYNCDEV_SLAVE_PATH;
	dev = open(path, O_RDWR);
	if (dev < 0)
		die_errno("open %s", path);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		total += course_file(cs, dev, master, argv[i + 2], use_mmap,
				     master ? NULL : argv[n + 3]);
	printf("Transmission time: %.6f ms, File size: %lld bytes\n",
	       (double)(now_ns() - t0) / 1e6, total);
	close(dev);
	return EXIT_OK;
}

#endif /* COURSE_H */
