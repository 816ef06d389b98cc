// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's rules for sticky directories that others may write (/tmp),
 * applied by the slave to what it is about to replace: a rename is not an
 * open(), so the kernel does not apply them itself, and a slave that runs
 * as root would otherwise write where the kernel would have refused.  The
 * rules are those of fs/namei.c (may_follow_link, may_create_in_sticky),
 * at the levels the sysctls fs.protected_symlinks and fs.protected_regular
 * give.
 */
#include "outfile.h"
#include "outrules.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int outfile_protected_level(const char *sysctl)
{
	char path[64], buf[16];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/fs/%s", sysctl);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	/* No value to honour (no /proc): the strictest level. */
	if (n <= 0 || buf[0] < '0' || buf[0] > '9')
		return 2;
	return buf[0] - '0';
}

int outfile_link_refused(const struct stat *dir, const struct stat *link,
			 uid_t fsuid, int level)
{
	if (!level || link->st_uid == fsuid)
		return 0;
	if ((dir->st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return 0;
	return link->st_uid != dir->st_uid;
}

int outfile_file_refused(const struct stat *dir, const struct stat *file,
			 uid_t fsuid, int level)
{
	if (!level || !S_ISREG(file->st_mode) || !(dir->st_mode & S_ISVTX))
		return 0;
	if (file->st_uid == dir->st_uid || file->st_uid == fsuid)
		return 0;
	if (dir->st_mode & S_IWOTH)
		return 1;
	return level >= 2 && (dir->st_mode & S_IWGRP);
}

int outfile_check_sticky(int dirfd, const char *dirname, const char *name,
			 const struct stat *file)
{
	struct stat d;

	if (fstat(dirfd, &d)) {
		msg_errno("cannot look at directory %s", dirname);
		return -1;
	}
	if (!outfile_file_refused(&d, file, geteuid(),
				  outfile_protected_level("protected_regular")))
		return 0;
	errno = EACCES;
	msg_errno("output %s is a file of another user (uid %u) in the sticky directory %s that others may write: refused, as the kernel refuses to open it for writing (fs.protected_regular)",
		  name, (unsigned int)file->st_uid, dirname);
	return -1;
}
