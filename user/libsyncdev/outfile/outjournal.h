/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a file system's flush of a directory reaches, for the order of the
 * output files' flushes and renames (outjournal.c).
 */
#ifndef SYNCDEV_OUTJOURNAL_H
#define SYNCDEV_OUTJOURNAL_H


/*
 * outjournal.c: 1 for a file system type (statfs f_type) and ext4's mount
 * options (/proc/fs/ext4/DEV/options, NULL when unknown) that journal a
 * link with its inode, so that a directory's fsync() commits both and
 * every change before them: ext4 with a journal.  outfile_fs_journals:
 * the same of the file system of fd, whose type is f_type (its options
 * read only for ext4).
 */
int outfile_journal_commits(unsigned long f_type, const char *options);
int outfile_fs_journals(int fd, unsigned long f_type);
/*
 * 1 where a directory's fsync() does not flush the disk's cache, so that
 * the names need a syncfs(): ext2 and ext4 without a journal
 * (outjournal.c).  journal: outfile_fs_journals.
 */
int outfile_dir_fsync_unflushed(unsigned long f_type, int journal);

#endif
