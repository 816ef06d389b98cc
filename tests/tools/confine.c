// SPDX-License-Identifier: GPL-2.0
/*
 * confine: run a command in a mount namespace of its own that shows it
 * only what a course program needs.
 *
 *	confine [--bind PATH]... [--ro-bind PATH]... [--hide DIR]...
 *		[--dev PATH]... [--chdir DIR] [--tmp-size BYTES]
 *		-- COMMAND [ARG...]
 *
 * The grader starts each program under test with it
 * (scripts/grade/guest/grade.sh); in the new namespace:
 *   - /tmp is a fresh tmpfs of BYTES (--tmp-size, else 64 MiB), so that a
 *     program filling it fails alone; each --bind or --ro-bind PATH
 *     (under /tmp) is the only thing of the old /tmp there, at the same
 *     path;
 *   - each --hide DIR (the shares, /opt/syncdev) is an empty read-only
 *     tmpfs;
 *   - /dev is a fresh tmpfs with null, zero, full, random, urandom, tty,
 *     a new pts instance, shm and each --dev PATH (the nodes the loaded
 *     modules made): no console, serial port, kernel log or memory;
 *   - /proc/sysrq-trigger and /proc/kmsg are /dev/null; /proc/sys, /sys
 *     and / are read-only;
 *   - no file descriptor but 0, 1 and 2 is left open;
 *   - the working directory is DIR (--chdir, else /tmp).
 * COMMAND is found on PATH before anything is hidden.  It should drop
 * the capabilities that would undo the namespace (capdrop).
 * Exit 2 on a usage error, 1 if the namespace cannot be made or COMMAND
 * cannot be run.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_ITEMS 64

struct bind { const char *path; int fd; int ro; };
struct node { const char *path; struct stat st; };

static struct bind binds[MAX_ITEMS];
static struct node nodes[MAX_ITEMS];
static const char *hides[MAX_ITEMS];
static int nbinds, nnodes, nhides;
static unsigned long long tmp_size = 64ULL << 20;

static const char usage[] =
	"usage: confine [--bind PATH]... [--ro-bind PATH]... [--hide DIR]...\n"
	"               [--dev PATH]... [--chdir DIR] [--tmp-size BYTES]\n"
	"               -- COMMAND [ARG...]\n";

/* PATH is absolute, under PREFIX and has no "." or ".." component. */
static int clean_under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(path, prefix, n) && path[n] && !strstr(path, "/./") &&
	       !strstr(path, "/../") && strcmp(path + strlen(path) - 2, "/.") &&
	       strcmp(path + strlen(path) - 3, "/..") && !strstr(path, "//");
}

/* Close every descriptor above 2 (the harness's console, its channel). */
static void close_others(void)
{
	long fd, max = sysconf(_SC_OPEN_MAX);

#ifdef SYS_close_range
	if (!syscall(SYS_close_range, 3U, ~0U, 0U))
		return;
#endif
	for (fd = 3; fd < (max > 0 ? max : 1024); fd++)
		close((int)fd);
}

static void add_bind(const char *path, int ro)
{
	if (nbinds == MAX_ITEMS || !clean_under(path, "/tmp/"))
		die(EXIT_USAGE, "--bind takes at most %d paths under /tmp/, not '%s'",
		    MAX_ITEMS, path);
	binds[nbinds].path = path;
	binds[nbinds++].ro = ro;
}

static void add_node(const char *path)
{
	struct node *n = &nodes[nnodes];

	if (nnodes == MAX_ITEMS || !clean_under(path, "/dev/"))
		die(EXIT_USAGE, "--dev takes at most %d paths under /dev/, not '%s'",
		    MAX_ITEMS, path);
	if (lstat(path, &n->st))
		die_errno("cannot stat %s", path);
	if (!S_ISCHR(n->st.st_mode) && !S_ISBLK(n->st.st_mode))
		die(EXIT_FAIL, "%s is not a device node", path);
	n->path = path;
	nnodes++;
}

static void do_mount(const char *src, const char *dst, const char *type,
		     unsigned long flags, const char *data)
{
	if (mount(src, dst, type, flags, data))
		die_errno("cannot mount %s on %s", type ? type : src ? src : "(remount)", dst);
}

/* Make the parent directories of PATH (each at most PATH_MAX). */
static void make_parents(const char *path)
{
	char buf[PATH_MAX];
	char *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		die(EXIT_USAGE, "path too long: %s", path);
	for (p = strchr(buf + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			die_errno("cannot make %s", buf);
		*p = '/';
	}
}

/* A fresh /tmp holding only the bound paths, at the paths they had.  They
 * are opened in this namespace: a bind mount's source must be in it. */
static void make_tmp(void)
{
	char src[64];
	struct stat st;
	int i, fd;

	for (i = 0; i < nbinds; i++) {
		binds[i].fd = open(binds[i].path, O_PATH | O_CLOEXEC);
		if (binds[i].fd < 0)
			die_errno("cannot open %s", binds[i].path);
	}
	snprintf(src, sizeof(src), "size=%llu,mode=1777", tmp_size);
	do_mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, src);
	for (i = 0; i < nbinds; i++) {
		if (fstat(binds[i].fd, &st))
			die_errno("cannot stat %s", binds[i].path);
		make_parents(binds[i].path);
		if (S_ISDIR(st.st_mode)) {
			if (mkdir(binds[i].path, 0755) && errno != EEXIST)
				die_errno("cannot make %s", binds[i].path);
		} else {
			fd = open(binds[i].path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
			if (fd < 0)
				die_errno("cannot make %s", binds[i].path);
			close(fd);
		}
		snprintf(src, sizeof(src), "/proc/self/fd/%d", binds[i].fd);
		do_mount(src, binds[i].path, NULL, MS_BIND, NULL);
		if (binds[i].ro)
			do_mount(NULL, binds[i].path, NULL,
				 MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL);
		close(binds[i].fd);
	}
}

/* --tmp-size's BYTES: decimal, 1 MiB to 1 TiB. */
static void set_tmp_size(const char *arg)
{
	char *end;

	errno = 0;
	tmp_size = strtoull(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || tmp_size < (1ULL << 20) ||
	    tmp_size > (1ULL << 40))
		die(EXIT_USAGE, "--tmp-size takes bytes from 1 MiB to 1 TiB, not '%s'", arg);
}

static void make_node(const char *path, mode_t mode, dev_t dev)
{
	make_parents(path);
	if (mknod(path, mode, dev))
		die_errno("cannot make %s", path);
}

/* A fresh /dev: the usual harmless nodes and the modules' ones. */
static void make_dev(void)
{
	static const struct { const char *name; unsigned int major, minor; } std[] = {
		{ "/dev/null", 1, 3 }, { "/dev/zero", 1, 5 }, { "/dev/full", 1, 7 },
		{ "/dev/random", 1, 8 }, { "/dev/urandom", 1, 9 }, { "/dev/tty", 5, 0 },
	};
	mode_t mask = umask(0);
	size_t i;
	int j;

	do_mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=755");
	for (i = 0; i < sizeof(std) / sizeof(std[0]); i++)
		make_node(std[i].name, S_IFCHR | 0666, makedev(std[i].major, std[i].minor));
	for (j = 0; j < nnodes; j++)
		make_node(nodes[j].path, nodes[j].st.st_mode, nodes[j].st.st_rdev);
	if (mkdir("/dev/pts", 0755) || mkdir("/dev/shm", 01777))
		die_errno("cannot make /dev/pts or /dev/shm");
	do_mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
		 "newinstance,ptmxmode=0666,mode=0620");
	do_mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=16m,mode=1777");
	if (symlink("pts/ptmx", "/dev/ptmx") || symlink("/proc/self/fd", "/dev/fd") ||
	    symlink("/proc/self/fd/0", "/dev/stdin") ||
	    symlink("/proc/self/fd/1", "/dev/stdout") ||
	    symlink("/proc/self/fd/2", "/dev/stderr"))
		die_errno("cannot make the links of /dev");
	umask(mask);
	do_mount(NULL, "/dev", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NOEXEC,
		 NULL);
}

/* Read-only in this namespace: PATH, bound on itself first unless it is
 * a mount point already (/, /sys). */
static void read_only(const char *path, int bind_first)
{
	if (bind_first)
		do_mount(path, path, NULL, MS_BIND, NULL);
	do_mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL);
}

static void confine(const char *dir)
{
	static const char *const covered[] = { "/proc/sysrq-trigger", "/proc/kmsg" };
	int i;

	if (unshare(CLONE_NEWNS))
		die_errno("cannot make a mount namespace");
	do_mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
	if (chdir("/"))
		die_errno("cannot enter /");
	for (i = 0; i < nhides; i++)
		if (!access(hides[i], F_OK))
			do_mount("tmpfs", hides[i], "tmpfs",
				 MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=755");
	make_tmp();
	make_dev();
	for (i = 0; i < 2; i++)
		if (!access(covered[i], F_OK))
			do_mount("/dev/null", covered[i], NULL, MS_BIND, NULL);
	read_only("/proc/sys", 1);
	read_only("/sys", 0);
	read_only("/", 0);
	if (chdir(dir))
		die_errno("cannot enter %s", dir);
}

/* COMMAND, found on PATH (as execvp would), opened for fexecve. */
static int open_command(const char *cmd)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];
	const char *p, *end;
	int fd;

	if (strchr(cmd, '/'))
		return open(cmd, O_RDONLY | O_CLOEXEC);
	for (p = path ? path : "/bin:/usr/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - p), p, cmd) >=
		    (int)sizeof(buf))
			continue;
		if (!access(buf, X_OK)) {
			fd = open(buf, O_RDONLY | O_CLOEXEC);
			if (fd >= 0)
				return fd;
		}
	}
	errno = ENOENT;
	return -1;
}

int main(int argc, char **argv)
{
	extern char **environ;
	const char *dir = "/tmp";
	int i, fd;

	set_progname(argv[0]);
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("%s\nRun COMMAND in a mount namespace of its own: a fresh /tmp of\n"
		       "BYTES (64 MiB unless told) with only the bound paths, the\n"
		       "hidden directories empty, a /dev with only harmless nodes and\n"
		       "the --dev ones, /proc/sys, /sys and / read-only, no descriptor\n"
		       "above 2.\n", usage);
		return EXIT_OK;
	}
	close_others();
	for (i = 1; i < argc && strcmp(argv[i], "--"); i += 2) {
		if (i + 1 >= argc)
			die(EXIT_USAGE, "%s needs a value\n%s", argv[i], usage);
		if (!strcmp(argv[i], "--bind") || !strcmp(argv[i], "--ro-bind"))
			add_bind(argv[i + 1], argv[i][2] == 'r');
		else if (!strcmp(argv[i], "--dev"))
			add_node(argv[i + 1]);
		else if (!strcmp(argv[i], "--hide") && nhides < MAX_ITEMS)
			hides[nhides++] = argv[i + 1];
		else if (!strcmp(argv[i], "--chdir"))
			dir = argv[i + 1];
		else if (!strcmp(argv[i], "--tmp-size"))
			set_tmp_size(argv[i + 1]);
		else
			die(EXIT_USAGE, "unknown option '%s'\n%s", argv[i], usage);
	}
	if (i + 1 >= argc)
		die(EXIT_USAGE, "no command\n%s", usage);
	fd = open_command(argv[i + 1]);
	if (fd < 0)
		die_errno("cannot run %s", argv[i + 1]);
	confine(dir);
	fexecve(fd, argv + i + 1, environ);
	die_errno("cannot run %s", argv[i + 1]);
}
