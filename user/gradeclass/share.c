// SPDX-License-Identifier: GPL-2.0
/*
 * share-read and share-copy: what a guest wrote into a shared directory,
 * opened so that nothing the guest made there (a link, a FIFO, a device
 * node, a file swapped in between two calls) is followed or blocks.
 */
#include "share.h"
#include "util.h"

#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int refuse(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* A relative path of plain names: nothing to open outside the share. */
static int check_path(const char *path, char *why, size_t len)
{
	const char *p = path, *e;
	size_t n;

	if (!*path)
		return refuse(why, len, "the path is empty");
	if (*path == '/')
		return refuse(why, len, "%s is absolute, not a path under the share", path);
	for (;;) {
		e = strchrnul(p, '/');
		n = (size_t)(e - p);
		if (!n)
			return refuse(why, len, "%s has an empty component", path);
		if ((n == 1 && p[0] == '.') || (n == 2 && !strncmp(p, "..", 2)))
			return refuse(why, len, "%s has a '%.*s' component", path, (int)n, p);
		if (n > NAME_MAX)
			return refuse(why, len, "%s has a component longer than %d bytes",
				      path, NAME_MAX);
		if (!*e)
			return 0;
		p = e + 1;
	}
}

/* Why the entry that ends at end in path could not be opened as wanted. */
static int refuse_entry(int dfd, const char *name, const char *path,
			const char *end, int err, char *why, size_t len)
{
	int n = (int)(end - path);
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return refuse(why, len, "%.*s: %s", n, path, strerror(errno));
	if (S_ISLNK(st.st_mode))
		return refuse(why, len, "%.*s is a symbolic link (not followed)", n, path);
	if (*end && !S_ISDIR(st.st_mode))
		return refuse(why, len, "%.*s is %s, not a directory", n, path,
			      mode_kind(st.st_mode));
	if (!*end && !S_ISREG(st.st_mode))
		return refuse(why, len, "%.*s is %s, not a regular file", n, path,
			      mode_kind(st.st_mode));
	if (!err)
		return refuse(why, len, "%.*s changed while it was opened", n, path);
	return refuse(why, len, "%.*s: %s", n, path, strerror(err));
}

/*
 * Open the last component for reading.  It is first opened O_PATH (no
 * open of a device or FIFO happens) and checked; the file read is then
 * that very inode, reopened through /proc/self/fd.  Without /proc it is
 * opened again by name, non-blocking, and must be the inode checked.
 */
static int open_last(int dfd, const char *name, const char *path,
		     char *why, size_t len)
{
	const int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	const char *end = path + strlen(path);
	struct stat st, st2;
	char proc[64];
	int pfd, fd;

	pfd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return refuse_entry(dfd, name, path, end, errno, why, len);
	if (fstat(pfd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(pfd);
		return refuse_entry(dfd, name, path, end, 0, why, len);
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, flags & ~O_NOFOLLOW);
	if (fd < 0)
		fd = openat(dfd, name, flags);
	close(pfd);
	if (fd < 0)
		return refuse_entry(dfd, name, path, end, errno, why, len);
	if (fstat(fd, &st2) < 0 || !S_ISREG(st2.st_mode) ||
	    st2.st_dev != st.st_dev || st2.st_ino != st.st_ino) {
		close(fd);
		return refuse(why, len, "%s changed while it was opened", path);
	}
	return fd;
}

int share_open(const char *root, const char *path, char *why, size_t len)
{
	char name[NAME_MAX + 1];
	const char *p = path, *e;
	int dfd, fd;

	if (check_path(path, why, len))
		return -1;
	dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return refuse(why, len, "the share %s: %s", root, strerror(errno));
	for (;;) {
		e = strchrnul(p, '/');
		memcpy(name, p, (size_t)(e - p));
		name[e - p] = '\0';
		if (!*e)
			break;
		fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			refuse_entry(dfd, name, path, e, errno, why, len);
		close(dfd);
		if (fd < 0)
			return -1;
		dfd = fd;
		p = e + 1;
	}
	fd = open_last(dfd, name, path, why, len);
	close(dfd);
	return fd;
}

int share_copy(int in, int out, uint64_t max, char *why, size_t len)
{
	static char buf[65536];
	uint64_t left = max;
	ssize_t n;

	for (;;) {
		/* One byte past the cap tells "more" from "exactly max". */
		size_t want = left ? (left < sizeof(buf) ? left : sizeof(buf)) : 1;

		n = read(in, buf, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return refuse(why, len, "read: %s", strerror(errno));
		if (n == 0)
			return 0;
		if (!left)
			return 1;
		if (write_full(out, buf, (size_t)n) < 0)
			return refuse(why, len, "write: %s", strerror(errno));
		left -= (uint64_t)n;
	}
}
