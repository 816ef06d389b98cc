// SPDX-License-Identifier: GPL-2.0
/*
 * The slave's output names, checked before it connects: each must be
 * able to become a regular file, and no two may name the same file.
 */
#include "outfile.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * fs.protected_symlinks: in a sticky directory that anyone may write
 * (/tmp), the kernel follows a link only for its owner, or when the link
 * and the directory have the same owner.  The slave applies the rule
 * whatever the setting: it replaces the target, which open() would not.
 */
static int protected_link(const char *path, const struct stat *link)
{
	char dir[PATH_MAX];
	const char *base;
	struct stat d;

	outfile_split_path(path, dir, sizeof(dir), &base);
	if (stat(dir, &d) || !(d.st_mode & S_ISVTX) || !(d.st_mode & S_IWOTH))
		return 0;
	if (link->st_uid == geteuid() || link->st_uid == d.st_uid)
		return 0;
	msg("output %s is a symbolic link of another user (uid %u) in the sticky, world-writable directory %s: refused, as the kernel refuses to follow it (fs.protected_symlinks)",
	    path, (unsigned int)link->st_uid, dir);
	return 1;
}

/* A symbolic link: the regular file it leads to, malloc'd, or NULL. */
static char *follow_link(const char *path)
{
	struct stat st;
	char *target;

	if (lstat(path, &st) == 0 && protected_link(path, &st))
		return NULL;
	target = realpath(path, NULL);

	if (!target) {
		msg_errno("output %s is a symbolic link that leads nowhere (refused: name the file itself)",
			  path);
		return NULL;
	}
	if (stat(target, &st) == 0 && !S_ISREG(st.st_mode)) {
		msg("output %s is a symbolic link to %s, which is %s (the slave writes regular files only)",
		    path, target, mode_kind(st.st_mode));
		free(target);
		return NULL;
	}
	return target;
}

char *outfile_check(const char *path, int *absent)
{
	char dir[PATH_MAX], *target;
	const char *base;
	struct stat st;
	int found, missing;

	if (absent)
		*absent = 0;
	outfile_split_path(path, dir, sizeof(dir), &base);
	if (!*base || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
		msg("output %s is a directory, not a file name", path);
		return NULL;
	}
	found = lstat(path, &st) == 0;
	missing = !found && errno == ENOENT;
	if (found && S_ISLNK(st.st_mode))
		return follow_link(path);
	if (found && !S_ISREG(st.st_mode)) {
		msg("output %s is %s (the slave writes regular files only)",
		    path, mode_kind(st.st_mode));
		return NULL;
	}
	if (access(dir, W_OK | X_OK)) {
		msg_errno("cannot create output file %s in directory %s",
			  path, dir);
		return NULL;
	}
	target = strdup(path);
	if (!target)
		msg_errno("checking output %s", path);
	else if (absent)
		*absent = missing;
	return target;
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
