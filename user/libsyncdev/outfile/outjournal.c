// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a file system commits a link together with its inode, in one
 * journal transaction that a directory's fsync() commits with everything
 * before it: ext4 (and ext3) with a journal.  There the slave's outputs
 * need one commit, not two (outset.c, docs/durability.md).
 *
 * ext2, ext3 and ext4 share one statfs magic, and ext4 mounts all three,
 * with a journal or without one (ext2, "mkfs.ext4 -O ^has_journal").  The
 * mount options ext4 reports in /proc/fs/ext4/DEV/options name the data
 * mode (data=ordered, data=journal or data=writeback) only where a
 * journal is there: without one the mode is cleared at mount
 * (fs/ext4/super.c).  Anything that cannot be read counts as no journal,
 * the way that flushes twice and is right everywhere.
 */
#include "outfile.h"
#include "outjournal.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Whether options, one a line, has the line line. */
static int has_line(const char *options, const char *line)
{
	size_t len = strlen(line), n;
	const char *p = options;

	while (*p) {
		n = strcspn(p, "\n");
		if (n == len && !strncmp(p, line, n))
			return 1;
		p += n + (p[n] == '\n');
	}
	return 0;
}

/*
 * A journal_async_commit journal writes its commit block with no flush
 * before it (fs/jbd2/commit.c), so the commit could reach the disk before
 * the data it names: not trusted.
 */
int outfile_journal_commits(unsigned long f_type, const char *options)
{
	if (f_type != EXT4_SUPER_MAGIC || !options ||
	    has_line(options, "journal_async_commit"))
		return 0;
	return has_line(options, "data=ordered") ||
	       has_line(options, "data=journal") ||
	       has_line(options, "data=writeback");
}

/*
 * ext4's options of the file system of fd, into buf: its block device's
 * name (the superblock's s_id, /proc/fs/ext4's directory) from sysfs.
 */
static int ext4_options(int fd, char *buf, size_t len)
{
	char link[PATH_MAX], path[PATH_MAX + 32];
	const char *name;
	struct stat st;
	ssize_t n;
	int of;

	if (fstat(fd, &st))
		return -1;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u",
		 major(st.st_dev), minor(st.st_dev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -1;
	link[n] = '\0';
	name = strrchr(link, '/');
	name = name ? name + 1 : link;
	snprintf(path, sizeof(path), "/proc/fs/ext4/%s/options", name);
	of = open(path, O_RDONLY | O_CLOEXEC);
	if (of < 0)
		return -1;
	n = read(of, buf, len - 1);
	close(of);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/*
 * ext4 without a journal (ext2) writes a directory at its fsync but
 * flushes the disk's cache only when the directory's inode was dirty
 * (ext4_fsync_nojournal, fs/ext4/fsync.c), and it is not after a rename
 * there: the inode went to its buffer as it changed.  Measured: no flush
 * request (tests/tools/fsteps.c, docs/results.md).
 */
int outfile_dir_fsync_unflushed(unsigned long f_type, int journal)
{
	return f_type == EXT4_SUPER_MAGIC && !journal;
}

int outfile_fs_journals(int fd, unsigned long f_type)
{
	char opts[4096];

	if (f_type != EXT4_SUPER_MAGIC || ext4_options(fd, opts, sizeof(opts)))
		return 0;
	return outfile_journal_commits(f_type, opts);
}
