// SPDX-License-Identifier: GPL-2.0
/*
 * The temporary files of the outputs (outfile.h) and their one durable
 * point: the data of every closed temporary flushed together (syncfs, once
 * per file system; fsync of each file at its close where syncfs cannot be
 * trusted), then the renames (or links), then each directory flushed once.
 * Where a journal commits a link with its inode and the data before it
 * (ext4), files that are all unnamed are written out without a flush and
 * one commit serves both (one_commit).
 *
 * A file whose name nothing had is written, where the directory allows
 * it (outdir_unnamed), as an unnamed file (O_TMPFILE) held open until its
 * link to the name (linkat AT_EMPTY_PATH, which fails if the name was
 * taken meanwhile, as RENAME_NOREPLACE does): a create without a name and
 * a link cost the directory one entry instead of two and a rename, and
 * what a crash or a kill leaves of it is nothing at all.
 */
#include "outfile.h"
#include "outpriv.h"
#include "outrules.h"
#include "outjournal.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

/* A temporary file that exists now. */
struct outpend {
	struct outpend *next;
	const char *path;	/* the final name, for messages */
	const char *base;	/* its last component, in dirfd */
	unsigned int dir;	/* its directory, in dirs */
	int dirfd;		/* that directory's fd, for the signal handler */
	int new;		/* nothing had the name at its creation */
	int fd;			/* an unnamed file, held until its link; else -1 */
	/* The temporary name, in dirfd; an unnamed file's only if linked to it. */
	char tmp[];
};

/* A directory of outputs, open from its check to the commit. */
struct outdir {
	char *name;
	int fd;
	dev_t dev;
	int fsync_each;		/* syncfs cannot be trusted there */
	int journal;		/* outfile_fs_journals */
	int names_syncfs;	/* outfile_dir_fsync_unflushed */
	int renamed;		/* a name changed in it: flush it */
	int linked;		/* an unnamed file was linked in it */
	int unnamed;		/* outdir_unnamed */
};

/*
 * The list is in creation order; the signal handler walks it, so a node is
 * complete before it is linked and unlinked before it is freed.
 */
static struct outpend *volatile head;
static struct outpend *tail;
static struct outdir *dirs;
static unsigned int ndirs, capdirs;
/* Unnamed files held open, and how many descriptors they may take. */
static unsigned int held;
/* Linked files still open: closed by outfile_release, after the answer. */
static int *linked_fds;
static unsigned int nlinked, caplinked;
static rlim_t fd_limit;

/* Whether the files are flushed to their disk before they count as in place. */
static int sync_files = 1;

void outfile_set_sync(int on)
{
	sync_files = on;
}

/*
 * File systems whose syncfs() does not reach the storage: FUSE (sshfs and
 * the like; its syncfs is a no-op unless the server implements
 * FUSE_SYNCFS, which only virtiofs does), 9p and SMB (no sync_fs at all).
 * Their fsync() is sent to the server, so each file is flushed alone.
 */
int outfile_syncfs_untrusted(unsigned long f_type)
{
	switch (f_type) {
	case FUSE_SUPER_MAGIC:
	case V9FS_MAGIC:
	case SMB2_SUPER_MAGIC:
	case CIFS_SUPER_MAGIC:
		return 1;
	default:
		return 0;
	}
}

/*
 * The statfs type of the file system of fd, asked once per directory for
 * each decision about it; 0 when it cannot be told, which no decision
 * trusts.
 */
static unsigned long fs_type(int fd)
{
	struct statfs st;

	return fstatfs(fd, &st) ? 0 : (unsigned long)st.f_type;
}

/*
 * Whether an unnamed file can be linked in directory dir (fd): O_TMPFILE
 * there (local file systems), and linkat() with AT_EMPTY_PATH allowed to
 * this process (CAP_DAC_READ_SEARCH, Linux 6.1 asks; a seccomp profile
 * may refuse linkat).  Tried once,
 * with a file linked and removed at once, so that an unnamed file is
 * never made where it could not be linked.  SYNCDEV_NO_TMPFILE (set, not
 * "0") keeps every file named.
 */
static int probe_unnamed(int fd)
{
	const char *env = getenv("SYNCDEV_NO_TMPFILE");
	char name[64];
	int tf, ok;

	if (env && *env && strcmp(env, "0"))
		return 0;
	tf = openat(fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (tf < 0)
		return 0;
	snprintf(name, sizeof(name), ".syncdev-probe.%ld.%llx", (long)getpid(),
		 (unsigned long long)now_ns());
	ok = linkat(tf, "", fd, name, AT_EMPTY_PATH) == 0;
	if (ok)
		unlinkat(fd, name, 0);
	close(tf);
	return ok;
}

/*
 * The directory dir, opened on first sight: syncfs() reports the write-back
 * errors of the file system since the descriptor it is given was opened,
 * so it is opened before any data of this transfer is written.
 */
int outdir_open(const char *dir, const char *path)
{
	unsigned long type;
	struct stat st;
	unsigned int i;
	int fd;

	for (i = ndirs; i-- > 0;)
		if (!strcmp(dirs[i].name, dir))
			return (int)i;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		msg_errno("cannot create output file %s in directory %s",
			  path, dir);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (ndirs == capdirs) {
		capdirs = capdirs ? 2 * capdirs : 4;
		dirs = xreallocarray(dirs, capdirs, sizeof(*dirs));
	}
	type = fs_type(fd);
	dirs[ndirs] = (struct outdir){ .name = xstrdup(dir), .fd = fd,
				       .dev = st.st_dev,
				       .fsync_each = !type ||
					       outfile_syncfs_untrusted(type),
				       .journal = outfile_fs_journals(fd, type) };
	dirs[ndirs].names_syncfs =
		outfile_dir_fsync_unflushed(type, dirs[ndirs].journal);
	/* Tried here, at the check, before a master waits for it. */
	dirs[ndirs].unnamed = !dirs[ndirs].fsync_each && probe_unnamed(fd);
	return (int)ndirs++;
}

int outdir_fd(unsigned int dir)
{
	return dirs[dir].fd;
}

int outdir_fsync_each(unsigned int dir)
{
	return sync_files && dirs[dir].fsync_each;
}

int outdir_unnamed(unsigned int dir)
{
	return dirs[dir].unnamed;
}

/*
 * Whether one more unnamed file may be held open: the soft limit on
 * descriptors raised to the hard one the first time, a margin kept for
 * the directories and the rest of the program.
 */
int outpend_fd_room(void)
{
	struct rlimit rl;

	if (!fd_limit) {
		fd_limit = 1;
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
			if (rl.rlim_cur < rl.rlim_max) {
				rl.rlim_cur = rl.rlim_max < (1u << 20) ?
					      rl.rlim_max : (1u << 20);
				if (setrlimit(RLIMIT_NOFILE, &rl))
					getrlimit(RLIMIT_NOFILE, &rl);
			}
			fd_limit = rl.rlim_cur;
		}
	}
	return (rlim_t)held + ndirs + 64 < fd_limit;
}

static struct outpend *pend_new(unsigned int dir, const char *tmp,
				const char *path, const char *base, int fd)
{
	size_t len = strlen(tmp) + 1;
	struct outpend *p = xmalloc(sizeof(*p) + len);

	p->next = NULL;
	p->path = path;
	p->base = base;
	p->dir = dir;
	p->dirfd = dirs[dir].fd;
	p->new = fd >= 0;
	p->fd = fd;
	held += fd >= 0;
	memcpy(p->tmp, tmp, len);
	if (tail)
		tail->next = p;
	else
		head = p;
	tail = p;
	return p;
}

struct outpend *outpend_add(unsigned int dir, const char *tmp,
			    const char *path, const char *base)
{
	return pend_new(dir, tmp, path, base, -1);
}

struct outpend *outpend_add_unnamed(unsigned int dir, int fd, const char *tmp,
				    const char *path, const char *base)
{
	return pend_new(dir, tmp, path, base, fd);
}

/* The temporary file gone: an unnamed one closed, a named one removed. */
static void drop_tmp(struct outpend *p)
{
	if (p->fd < 0) {
		unlinkat(p->dirfd, p->tmp, 0);
		return;
	}
	close(p->fd);
	p->fd = -1;
	held--;
}

/* Unlink p from the list (not from the disk) and free it. */
static void forget(struct outpend *p)
{
	struct outpend *q, *prev = NULL;

	for (q = head; q && q != p; q = q->next)
		prev = q;
	if (!q)
		return;
	if (prev)
		prev->next = p->next;
	else
		head = p->next;
	if (tail == p)
		tail = prev;
	free(p);
}

void outpend_remove(struct outpend *p)
{
	drop_tmp(p);
	forget(p);
}

void outpend_set_new(struct outpend *p)
{
	p->new = 1;
}

/*
 * What has p's name now may be replaced: nothing, or a regular file that
 * the kernel would let us open for writing (outfile_check_sticky).
 */
static int replaceable(const struct outpend *p)
{
	struct stat st;

	if (fstatat(p->dirfd, p->base, &st, AT_SYMLINK_NOFOLLOW))
		return 1;
	if (!S_ISREG(st.st_mode)) {
		msg("output %s is %s now: not replaced (the slave writes regular files only)",
		    p->path, mode_kind(st.st_mode));
		return 0;
	}
	return outfile_check_sticky(p->dirfd, dirs[p->dir].name, p->path,
				    &st) == 0;
}

/*
 * Whether the files on the file system of directory i may skip the data
 * flush: a journal there (ext4) commits each link in a transaction no
 * older than the writes that gave its file blocks and size, and the
 * directory's fsync (sync_dirs) commits it with every older one, behind a
 * flush of the device's cache (the commit block's REQ_PREFLUSH); so once
 * each file's data is written, not yet flushed (write_out), one flush
 * serves the data and the names.  Only where every file there is unnamed
 * and held open: a named one was closed, and its name could be committed
 * before its data (delayed allocation leaves a size of 0 until its write).
 */
static int one_commit(unsigned int i)
{
	const struct outpend *p;

	if (!dirs[i].journal)
		return 0;
	for (p = head; p; p = p->next)
		if (dirs[p->dir].dev == dirs[i].dev && p->fd < 0)
			return 0;
	return 1;
}

/*
 * The data of the files on the file system of directory i written, and
 * waited for: every write started first, so that the disk gets them
 * together.  Each file's write-back errors since its open are reported.
 * 0 when done; 1 when sync_file_range is refused (a seccomp profile),
 * where syncfs serves instead; -1 after a message.
 */
static int write_out(unsigned int i)
{
	static const unsigned int wait = SYNC_FILE_RANGE_WAIT_BEFORE |
		SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER;
	const struct outpend *p;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (p = head; p; p = p->next) {
			if (dirs[p->dir].dev != dirs[i].dev)
				continue;
			if (sync_file_range(p->fd, 0, 0, pass ? wait :
					    SYNC_FILE_RANGE_WRITE) == 0)
				continue;
			if (errno == EPERM || errno == ENOSYS)
				return 1;
			msg_errno("writing %s to disk", p->path);
			return -1;
		}
	return 0;
}

/*
 * The data of every temporary file on the disk: syncfs() once per file
 * system, or written out where one commit serves the names too.
 */
static int sync_data(void)
{
	unsigned int i, j;
	int out;

	for (i = 0; i < ndirs; i++) {
		for (j = 0; j < i && dirs[j].dev != dirs[i].dev; j++)
			;
		if (j < i || dirs[i].fsync_each)
			continue;	/* done, or each file was (outfile_close) */
		out = one_commit(i) ? write_out(i) : 1;
		if (out < 0)
			return -1;
		if (out == 0)
			continue;
		if (syncfs(dirs[i].fd)) {
			msg_errno("writing the files in %s to disk", dirs[i].name);
			return -1;
		}
	}
	return 0;
}

/*
 * A link changes the file's inode (its link count, 0 when it was
 * flushed) as well as the directory, and where nothing journals the two
 * together (ext2, ext4 without a journal) the directory's fsync writes
 * only the directory: after a crash the name would lead to an inode with
 * no link, a lost file.  So a file system where unnamed files were
 * linked is flushed whole again (syncfs, once), its inodes with it.
 * With a journal the directory's fsync commits the link's transaction,
 * the inode's change in it (outjournal.c).  Where the directory's fsync
 * does not flush the disk's cache (ext2: outfile_dir_fsync_unflushed),
 * renamed files' directories are flushed so too.
 */
static int names_by_syncfs(unsigned int i)
{
	return (dirs[i].linked && !dirs[i].journal) ||
	       (dirs[i].renamed && dirs[i].names_syncfs);
}

static int sync_linked(unsigned int i)
{
	unsigned int j;

	for (j = 0; j < i; j++)
		if (names_by_syncfs(j) && dirs[j].dev == dirs[i].dev)
			return 0;	/* done with it */
	if (syncfs(dirs[i].fd) == 0)
		return 0;
	msg_errno("writing the files in %s to disk", dirs[i].name);
	return -1;
}

/* The directories whose entries changed, on the disk. */
static int sync_dirs(void)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ndirs; i++) {
		if (names_by_syncfs(i)) {
			if (sync_linked(i))
				ret = -1;
			continue;
		}
		if (!dirs[i].renamed)
			continue;
		/* EINVAL: a directory with no fsync. */
		if (fsync(dirs[i].fd) && errno != EINVAL) {
			msg_errno("writing directory %s to disk", dirs[i].name);
			ret = -1;
		}
	}
	return ret;
}

/* Remove the temporary files left and close the directories. */
static void clear(void)
{
	struct outpend *p = head, *next;
	unsigned int i;

	for (; p; p = next) {
		next = p->next;
		drop_tmp(p);
		head = next;
		free(p);
	}
	tail = NULL;
	for (i = 0; i < ndirs; i++) {
		close(dirs[i].fd);
		free(dirs[i].name);
	}
	ndirs = 0;
}

/*
 * A linked file's descriptor, closed after the answer (outfile_release):
 * a close costs about a fifth of a small file's time on the slave, and
 * nothing of the file's safety waits for it.
 */
static void keep_linked(int fd)
{
	if (nlinked == caplinked) {
		caplinked = caplinked ? caplinked * 2 : 256;
		linked_fds = xreallocarray(linked_fds, caplinked,
					   sizeof(*linked_fds));
	}
	linked_fds[nlinked++] = fd;
}

void outfile_release(void)
{
	while (nlinked) {
		close(linked_fds[--nlinked]);
		held--;
	}
}

/*
 * An unnamed file linked to its name: 1.  When the name was taken during
 * the transfer, it is linked to its temporary name instead, to be looked
 * at and renamed as a named file is: 0.  -1 after a message.
 */
static int link_new(struct outpend *p)
{
	int fd = p->fd;

	if (linkat(fd, "", p->dirfd, p->base, AT_EMPTY_PATH) == 0) {
		dirs[p->dir].linked = 1;
		p->fd = -1;
		keep_linked(fd);
		return 1;
	}
	if (errno != EEXIST) {
		msg_errno("cannot link the data of %s to its name", p->path);
		return -1;
	}
	if (linkat(fd, "", p->dirfd, p->tmp, AT_EMPTY_PATH)) {
		msg_errno("cannot link the data of %s to %s", p->path, p->tmp);
		return -1;
	}
	dirs[p->dir].linked = 1;
	p->fd = -1;
	held--;
	close(fd);
	return 0;
}

/*
 * A name that was free when its file was created is taken with
 * RENAME_NOREPLACE (or the unnamed file's link), one system call instead
 * of a look (replaceable) and a rename: 1 when done.  0 when the name is
 * taken now (or the file system has no RENAME_NOREPLACE): then the
 * caller looks and renames.  -1 after a message.
 */
static int put_new(struct outpend *p)
{
	if (p->fd >= 0)
		return link_new(p);
	return p->new &&
	       renameat2(p->dirfd, p->tmp, p->dirfd, p->base,
			 RENAME_NOREPLACE) == 0;
}

/*
 * Flushed before the renames, so that a crash never leaves a partial file
 * under a name (nor loses the file it replaces), and the directories
 * after, so that the new names themselves survive a crash.
 */
int outfile_commit_all(unsigned int *done)
{
	struct outpend *p;
	int ret, put;

	ret = sync_files ? sync_data() : 0;
	*done = 0;
	while (!ret && (p = head) != NULL) {
		put = put_new(p);
		if (put > 0) {
			dirs[p->dir].renamed = 1;
			forget(p);
			++*done;
		} else if (put < 0 || !replaceable(p)) {
			ret = -1;
		} else if (renameat(p->dirfd, p->tmp, p->dirfd, p->base)) {
			msg_errno("cannot rename %s to %s", p->tmp, p->path);
			ret = -1;
		} else {
			dirs[p->dir].renamed = 1;
			forget(p);
			++*done;
		}
	}
	if (sync_files && sync_dirs()) {
		*done = 0;
		ret = -1;
	}
	clear();
	return ret;
}

static void remove_and_die(int sig)
{
	struct outpend *p;

	/* An unnamed file goes with the process. */
	for (p = head; p; p = p->next)
		if (p->fd < 0)
			unlinkat(p->dirfd, p->tmp, 0);
	signal(sig, SIG_DFL);
	raise(sig);
}

void outfile_remove_on_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = remove_and_die;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}
