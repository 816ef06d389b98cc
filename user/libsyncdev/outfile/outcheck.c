// SPDX-License-Identifier: GPL-2.0
/*
 * The slave's output names, checked before it connects: each must be
 * able to become a regular file, and no two may name the same file.
 */
#include "outfile.h"
#include "outpriv.h"
#include "outrules.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How many symbolic links a name may go through, as the kernel's MAXSYMLINKS. */
#define LINK_HOPS	40

/*
 * fs.protected_symlinks (outrules.c): the kernel follows a link in a
 * sticky, world-writable directory (/tmp) only for its owner, or when the
 * link and the directory have the same owner.  0, or 1 after a message.
 */
static int protected_link(int dirfd, const char *dir, const char *path,
			  const struct stat *link)
{
	struct stat d;

	if (fstat(dirfd, &d) ||
	    !outfile_link_refused(&d, link, geteuid(),
				  outfile_protected_level("protected_symlinks")))
		return 0;
	msg("output %s is a symbolic link of another user (uid %u) in the sticky, world-writable directory %s: refused, as the kernel refuses to follow it (fs.protected_symlinks)",
	    path, (unsigned int)link->st_uid, dir);
	return 1;
}

/*
 * The name that the link base in dirfd (dir) leads to, one hop: its
 * target, relative to dir unless absolute (malloc'd), or NULL after a
 * message.
 */
static char *read_link(int dirfd, const char *dir, const char *base,
		       const char *path)
{
	char buf[PATH_MAX];
	ssize_t n = readlinkat(dirfd, base, buf, sizeof(buf) - 1);

	if (n < 0) {
		msg_errno("cannot read symbolic link %s", path);
		return NULL;
	}
	buf[n] = '\0';
	if (buf[0] == '/')
		return xstrdup(buf);
	return xasprintf("%s/%s", dir, buf);
}

/* A symbolic link and where it leads: a message, and NULL. */
static char *refuse_link(const char *path, const char *target,
			 const struct stat *st)
{
	if (!st)
		msg("output %s is a symbolic link that leads nowhere (refused: name the file itself)",
		    path);
	else
		msg("output %s is a symbolic link to %s, which is %s (the slave writes regular files only)",
		    path, target, mode_kind(st->st_mode));
	return NULL;
}

/*
 * Follow the links from name to what is not one, each hop checked in its
 * own directory, held open (outdir_open): the name to write (malloc'd;
 * name itself when it is no link) with *st what is there (st_mode 0:
 * nothing), or NULL after a message.
 */
static char *resolve(const char *path, struct stat *st, int *dir)
{
	char dname[PATH_MAX], *name = xstrdup(path), *next;
	const char *base;
	int hops;

	for (hops = 0;; hops++) {
		outfile_split_path(name, dname, sizeof(dname), &base);
		if (!*base)
			break;
		*dir = outdir_open(dname, path);
		if (*dir < 0)
			goto fail;
		if (fstatat(outdir_fd(*dir), base, st, AT_SYMLINK_NOFOLLOW)) {
			st->st_mode = 0;
			if (errno == ENOENT && !hops)
				return name;
			if (errno == ENOENT)
				break;
			msg_errno("cannot look at output %s", path);
			goto fail;
		}
		if (!S_ISLNK(st->st_mode))
			return name;
		if (hops == LINK_HOPS) {
			errno = ELOOP;
			msg_errno("output %s", path);
			goto fail;
		}
		if (protected_link(outdir_fd(*dir), dname, path, st))
			goto fail;
		next = read_link(outdir_fd(*dir), dname, base, path);
		if (!next)
			goto fail;
		free(name);
		name = next;
	}
	if (hops)
		refuse_link(path, name, NULL);
	else
		msg("output %s is a directory, not a file name", path);
fail:
	free(name);
	return NULL;
}

char *outfile_check(const char *path, int *absent)
{
	char dname[PATH_MAX], *name;
	const char *base;
	struct stat st;
	int dir;

	if (absent)
		*absent = 0;
	name = resolve(path, &st, &dir);
	if (!name)
		return NULL;
	outfile_split_path(name, dname, sizeof(dname), &base);
	if (S_ISDIR(st.st_mode)) {
		msg("output %s is a directory, not a file name", path);
	} else if (st.st_mode && !S_ISREG(st.st_mode)) {
		if (strcmp(name, path))
			refuse_link(path, name, &st);
		else
			msg("output %s is %s (the slave writes regular files only)",
			    path, mode_kind(st.st_mode));
	} else if (faccessat(outdir_fd((unsigned int)dir), ".", W_OK | X_OK,
			     0)) {
		msg_errno("cannot create output file %s in directory %s",
			  path, dname);
	} else if (!st.st_mode || !outfile_check_sticky(outdir_fd((unsigned int)dir),
						      dname, path, &st)) {
		if (absent)
			*absent = !st.st_mode;
		return name;
	}
	free(name);
	return NULL;
}

char **outfile_check_all(char *const *paths, unsigned int n,
			 unsigned char *absent)
{
	char **targets = xcalloc(n ? n : 1, sizeof(*targets));
	unsigned int i;
	int none;

	for (i = 0; i < n; i++) {
		targets[i] = outfile_check(paths[i], &none);
		if (!targets[i]) {
			while (i-- > 0)
				free(targets[i]);
			free(targets);
			return NULL;
		}
		absent[i] = (unsigned char)none;
	}
	return targets;
}

struct out_key {
	char *key;
	unsigned int index;
};

/*
 * What identifies the file a target will be: device and inode when it
 * exists (hard links too), else the real path of its directory and its
 * name.
 */
static char *file_key(const char *target)
{
	char dir[PATH_MAX], *real, *key;
	const char *base;
	struct stat st;

	if (stat(target, &st) == 0)
		return xasprintf("#%llu:%llu", (unsigned long long)st.st_dev,
				 (unsigned long long)st.st_ino);
	outfile_split_path(target, dir, sizeof(dir), &base);
	real = realpath(dir, NULL);
	if (!real)
		return xstrdup(target);
	key = xasprintf("%s/%s", real, base);
	free(real);
	return key;
}

static int cmp_key(const void *a, const void *b)
{
	const struct out_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

int outfile_check_unique(char *const *paths, char *const *targets,
			 unsigned int n)
{
	struct out_key *k = xcalloc(n, sizeof(*k));
	unsigned int i, dup = n;

	for (i = 0; i < n; i++)
		k[i] = (struct out_key){ file_key(targets[i]), i };
	qsort(k, n, sizeof(*k), cmp_key);
	for (i = 1; i < n && dup == n; i++)
		if (!strcmp(k[i - 1].key, k[i].key))
			dup = i;
	if (dup < n)
		msg("outputs %u (%s) and %u (%s) are the same file: each file needs its own name",
		    k[dup - 1].index + 1, paths[k[dup - 1].index],
		    k[dup].index + 1, paths[k[dup].index]);
	for (i = 0; i < n; i++)
		free(k[i].key);
	free(k);
	return dup < n ? -1 : 0;
}
