/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's rules for links and files in a sticky directory, as the
 * output-file library checks them before it writes (outrules.c).
 */
#ifndef SYNCDEV_OUTRULES_H
#define SYNCDEV_OUTRULES_H

#include <sys/stat.h>
#include <sys/types.h>

/*
 * outrules.c: the kernel's rules in a sticky directory (fs/namei.c).
 * The level of /proc/sys/fs/SYSCTL (protected_symlinks,
 * protected_regular), 2 when it cannot be read.
 */
int outfile_protected_level(const char *sysctl);
/*
 * 1 when a process of fsuid may not follow link in dir
 * (may_follow_link): protected_symlinks on, the link neither the
 * follower's nor the owner's of a sticky, world-writable dir.
 */
int outfile_link_refused(const struct stat *dir, const struct stat *link,
			 uid_t fsuid, int level);
/*
 * 1 when open(O_CREAT) of the existing file by fsuid would fail
 * (may_create_in_sticky): a regular file in a sticky dir, owned by
 * neither fsuid nor the dir's owner, the dir world-writable (level 1 and
 * 2) or group-writable (level 2).
 */
int outfile_file_refused(const struct stat *dir, const struct stat *file,
			 uid_t fsuid, int level);
/*
 * What outfile_file_refused says of file (the name base in dir dirfd,
 * called name in messages): 0, or -1 after a message.
 */
int outfile_check_sticky(int dirfd, const char *dirname, const char *name,
			 const struct stat *file);

#endif
