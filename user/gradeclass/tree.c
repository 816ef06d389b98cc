// SPDX-License-Identifier: GPL-2.0
#include "tree.h"
#include "util.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Regular file src to dst with st's mode and times. */
static int copy_file(const char *src, const char *dst, const struct stat *st)
{
	char buf[65536];
	int in = open(src, O_RDONLY | O_CLOEXEC), out;
	struct timespec t[2] = { st->st_atim, st->st_mtim };
	ssize_t n = 0;

	if (in < 0)
		return fail("%s: %s", src, strerror(errno));
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		   st->st_mode & 07777);
	if (out < 0) {
		close(in);
		return fail("%s: %s", dst, strerror(errno));
	}
	while ((n = read_full(in, buf, sizeof(buf))) > 0)
		if (write_full(out, buf, (size_t)n) < 0)
			break;
	if (n != 0) {
		msg("copying %s to %s: %s", src, dst, strerror(errno));
		close(in);
		close(out);
		return -1;
	}
	close(in);
	futimens(out, t);
	if (close(out))
		return fail("%s: %s", dst, strerror(errno));
	return 0;
}

/* Each entry of directory src into dst. */
static int dir_entries(const char *src, const char *dst, const char *skip)
{
	DIR *d = opendir(src);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return fail("%s: %s", src, strerror(errno));
	while (!rc && (e = readdir(d))) {
		char *s, *t;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    !strcmp(e->d_name, skip))
			continue;
		s = xasprintf("%s/%s", src, e->d_name);
		t = xasprintf("%s/%s", dst, e->d_name);
		rc = tree_copy(s, t, skip);
		free(s);
		free(t);
	}
	closedir(d);
	return rc;
}

int file_copy(const char *src, const char *dst)
{
	struct stat st;

	if (stat(src, &st))
		return fail("%s: %s", src, strerror(errno));
	return copy_file(src, dst, &st);
}

int tree_copy(const char *src, const char *dst, const char *skip)
{
	struct stat st;
	struct timespec t[2];

	if (stat(src, &st))
		return fail("%s: %s", src, strerror(errno));
	if (S_ISREG(st.st_mode))
		return copy_file(src, dst, &st);
	if (!S_ISDIR(st.st_mode))
		return fail("%s: %s, not copied", src, mode_kind(st.st_mode));
	if (mkdir(dst, 0700))
		return fail("%s: %s", dst, strerror(errno));
	if (dir_entries(src, dst, skip))
		return -1;
	t[0] = st.st_atim;
	t[1] = st.st_mtim;
	if (chmod(dst, st.st_mode & 07777) ||
	    utimensat(AT_FDCWD, dst, t, 0))
		return fail("%s: %s", dst, strerror(errno));
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) && errno != ENOENT)
		return fail("%s: %s", path, strerror(errno));
	return 0;
}

int tree_remove(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : fail("%s: %s", path, strerror(errno));
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}
