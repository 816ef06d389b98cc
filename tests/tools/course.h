/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The skeleton every course-style client shares (course_2page.c,
 * course_128page.c, course_page.c, course_early.c, course_read512.c,
 * course_dumpfirst.c, and course_page's time-line variants course_div8.c
 * and course_prefixed.c): the course's two
 * command lines, one connection per file with the legacy ioctl numbers,
 * fcntl mode with read()/write(), the page descriptor ioctl, and the
 * course's output line.  Only the mmap mode differs between the styles,
 * and each client brings its own.  Included by exactly one .c file per
 * program.
 *
 * What course programs vary besides their mmap mode is set from the
 * environment, so that one client covers each variant:
 *   COURSE_PAGES      pages per mapping and per chunk (the style's own
 *                     number by default): programs map 1, 2, 10, 50, 100...
 *   COURSE_RECV_ARG   what a receive called without a length passes
 *                     (default: a stack address, as a stray register)
 *   COURSE_PRINT_CMD  the number of the page descriptor ioctl (default
 *                     0x12345676; programs also used 0x111, 9020, 0)
 *   COURSE_PRINT_ADDR the address the page descriptor ioctl passes instead
 *                     of the program's mapping: programs that call it with
 *                     no argument pass what the previous call left in the
 *                     register (a length, 1, ...)
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
#include <unistd.h>

#include "legacyconn.h"
#include "syncdev_abi.h"

struct course_style {
	const char *name;
	unsigned int chunk_pages;	/* per mapping and per transfer */
	const char *about;		/* --help: how it maps and receives */
	void (*send_mmap)(int dev, int fd, const char *path);
	void (*recv_mmap)(int dev, int fd, const char *path);
	/* mmap mode, if set: called once per file before connecting. */
	void (*before_connect)(int dev, int master);
	/* fcntl mode, if set: instead of read() and write() a chunk at a time. */
	void (*copy_fcntl)(int dev, int fd, int master, const char *path);
	/* The time line as some course programs printed it: the size
	 * divided by size_div (the course's starter code: 8), and
	 * "Master: " or "Slave: " before it. */
	unsigned int size_div;
	int prefixed;
};

static size_t course_chunk;		/* chunk_pages in bytes */
static size_t course_page;

/* Map @len bytes of @fd at @off, or die saying which. */
static inline char *course_map(int fd, size_t len, int prot, off_t off,
			       const char *what)
{
	char *p = mmap(NULL, len, prot, MAP_SHARED, fd, off);

	if (p == MAP_FAILED)
		die_errno("mmap of %s (%zu bytes at offset %lld)", what, len,
			  (long long)off);
	return p;
}

/* What a receive ioctl called without its third argument passes. */
static inline unsigned long course_no_length(void)
{
	const char *env = getenv("COURSE_RECV_ARG");
	unsigned long here = (unsigned long)&env;

	return env ? strtoul(env, NULL, 0) : here;
}

/* The page descriptor ioctl on @addr, under the program's number. */
static inline void course_print(int dev, const void *addr)
{
	const char *env = getenv("COURSE_PRINT_CMD");
	const char *garbage = getenv("COURSE_PRINT_ADDR");
	unsigned long cmd = env ? strtoul(env, NULL, 0) : SYNCDEV_LEGACY_PRINT;

	if (garbage)
		addr = (const void *)strtoul(garbage, NULL, 0);
	if (ioctl(dev, cmd, addr))
		die_errno("print page (%#lx)", cmd);
}

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
	if (!legacy_connect(dev, master, addr))
		return;
	if (master)
		die_errno("accept (0x12345677)");
	die_errno("connect (0x12345677) to %s", addr);
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
	if (use_mmap && cs->before_connect)
		cs->before_connect(dev, master);
	course_connect(dev, master, addr);
	if (use_mmap)
		(master ? cs->send_mmap : cs->recv_mmap)(dev, fd, path);
	else if (cs->copy_fcntl)
		cs->copy_fcntl(dev, fd, master, path);
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
	       "       %s [slave] N FILE... fcntl|mmap a.b.c.d[:port]\n"
	       "       %s [master] FILE fcntl|mmap\n"
	       "       %s [slave] FILE fcntl|mmap a.b.c.d[:port]\n\n"
	       "A course program: legacy ioctls only, one connection per file,\n"
	       "%s\n"
	       "The role word is left out when the program's name contains it.\n"
	       "The second form (one file per run) is the 2018-2019 command line.\n"
	       "Environment: COURSE_PAGES (pages per mapping), COURSE_RECV_ARG\n"
	       "(what a receive without a length passes), COURSE_PRINT_CMD (the\n"
	       "page descriptor ioctl's number), COURSE_PRINT_ADDR (the address it\n"
	       "passes instead of the mapping's).\n",
	       cs->name, cs->name, cs->name, cs->name, cs->about);
	return EXIT_OK;
}

/* The command line's files: N FILE... or (2018-2019) one FILE; its count. */
static int course_files(int argc, char **argv, int master, char ***files)
{
	int n = atoi(argv[1]);

	if (argc == 3 + !master) {
		*files = argv + 1;
		return 1;
	}
	*files = argv + 2;
	return n >= 1 && argc == n + 3 + !master ? n : -1;
}

/* COURSE_PAGES, or the style's number of pages per chunk. */
static void course_set_chunk(const struct course_style *cs)
{
	const char *env = getenv("COURSE_PAGES");
	uint64_t pages = cs->chunk_pages;

	if (env && parse_uint(env, 1, 1 << 18, &pages))
		die(EXIT_USAGE, "COURSE_PAGES must be 1..262144, not '%s'", env);
	course_page = (size_t)sysconf(_SC_PAGESIZE);
	course_chunk = (size_t)pages * course_page;
}

static int course_main(int argc, char **argv, const struct course_style *cs)
{
	int master, dev, i, n = -1, use_mmap;
	const char *path, *method;
	long long total = 0;
	char **files;
	uint64_t t0;

	set_progname(argv[0]);
	if (argc > 1 && !strcmp(argv[1], "--help"))
		return course_help(cs);
	master = course_role(&argc, &argv);
	if (master >= 0 && argc >= 3 + !master)
		n = course_files(argc, argv, master, &files);
	if (n < 1)
		die(EXIT_USAGE, "usage: %s [master|slave] [N] FILE... fcntl|mmap [a.b.c.d]",
		    cs->name);
	method = files[n];
	use_mmap = !strcmp(method, "mmap");
	if (!use_mmap && strcmp(method, "fcntl"))
		die(EXIT_USAGE, "method must be fcntl or mmap, not '%s'", method);
	course_set_chunk(cs);
	path = master ? SYNCDEV_MASTER_PATH : SYNCDEV_SLAVE_PATH;
	dev = open(path, O_RDWR);
	if (dev < 0)
		die_errno("open %s", path);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		total += course_file(cs, dev, master, files[i], use_mmap,
				     master ? NULL : files[n + 1]);
	printf("%sTransmission time: %.6f ms, File size: %lld bytes\n",
	       cs->prefixed ? (master ? "Master: " : "Slave: ") : "",
	       (double)(now_ns() - t0) / 1e6, total / (cs->size_div ? cs->size_div : 1));
	close(dev);
	return EXIT_OK;
}

#endif /* COURSE_H */
