// SPDX-License-Identifier: GPL-2.0
/*
 * The files at both ends: what the slave accepts as an output (regular
 * files only, symbolic links followed, no two outputs the same file), what
 * the master accepts as an input (regular files, refused before anything
 * blocks), and an input that shrinks while it is sent.
 */
#include "check.h"
#include "tmpdir.h"
#include "infile.h"
#include "outfile/outfile.h"
#include "outfile/outjournal.h"
#include "outfile/outpriv.h"
#include "outfile/outrules.h"
#include "util.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <unistd.h>

static void test_outfile(void)
{
	struct outfile f;
	struct stat st;
	mode_t mask = umask(022);

	CHECK(outfile_create(&f, path("outm"), 10, OUTFILE_MAP) == 0 && f.map &&
	      count_entries(".outm.syncdev-") == 1 &&
	      access(path("outm"), F_OK) == -1,
	      "outfile mmap: hidden temporary file, no final name yet");
	outfile_write(&f, 0, "0123", 4, NULL);
	outfile_write(&f, 4, "456789", 6, NULL);
	CHECK(outfile_commit(&f) == 0 && !count_entries(".syncdev-") &&
	      stat(path("outm"), &st) == 0 && st.st_size == 10 &&
	      (st.st_mode & 0777) == 0644, "outfile commit: renamed, mode 0644");
	/* Reserved in steps (outfile.c): every step, the odd tail too. */
	CHECK(outfile_create(&f, path("outs"), (3u << 20) + 5, OUTFILE_MAP) == 0 &&
	      fstat(f.fd, &st) == 0 && st.st_size == (3 << 20) + 5 &&
	      (uint64_t)st.st_blocks * 512 >= (3u << 20) + 5,
	      "outfile mmap: 3 MiB + 5 bytes (within the window) reserved before the mapping");
	outfile_abort(&f);
	CHECK(outfile_create(&f, path("oute"), 0, OUTFILE_MAP) == 0 && !f.map &&
	      outfile_commit(&f) == 0 && stat(path("oute"), &st) == 0 &&
	      st.st_size == 0, "outfile empty file in mmap mode");
	CHECK(outfile_create(&f, path("outa"), 100, 0) == 0, "outfile create");
	outfile_abort(&f);
	CHECK(!count_entries("outa"), "outfile abort removes the temp file");
	remove_outputs();
	unlink(path("outm"));
	unlink(path("oute"));
	umask(mask);
}

/* Bytes allocated to f's temporary file. */
static uint64_t allocated(const struct outfile *f)
{
	struct stat st;

	return fstat(f->fd, &st) ? 0 : (uint64_t)st.st_blocks * 512;
}

/* The size of f's temporary file. */
static uint64_t file_size(const struct outfile *f)
{
	struct stat st;

	return fstat(f->fd, &st) ? 0 : (uint64_t)st.st_size;
}

/* Whether f's temporary file is on tmpfs, whose ftruncate() allocates nothing. */
static int on_tmpfs(const struct outfile *f)
{
	struct statfs st;

	return fstatfs(f->fd, &st) == 0 && st.f_type == TMPFS_MAGIC;
}

/*
 * mmap mode: a header's size, which nothing has authenticated yet, is
 * not reserved ahead; the space follows the data, at most
 * OUTFILE_RESERVE_AHEAD past it.  Nor is the file sized to it (outside
 * tmpfs): on FAT or exFAT that writes zeros up to it.
 */
static void test_outfile_reserve(void)
{
	static unsigned char mib[1 << 20];
	const uint64_t size = 1ull << 30;
	struct outfile f;
	uint64_t off;
	int ok = 1;

	if (outfile_create(&f, path("outr"), size, OUTFILE_MAP)) {
		CHECK(0, "outfile mmap 1 GiB created");
		return;
	}
	CHECK(allocated(&f) <= OUTFILE_RESERVE_AHEAD + (1u << 20),
	      "outfile mmap 1 GiB announced: at most the window reserved before data (%llu bytes)",
	      (unsigned long long)allocated(&f));
	CHECK(on_tmpfs(&f) || file_size(&f) <= OUTFILE_RESERVE_AHEAD + 1,
	      "outfile mmap 1 GiB announced: the file not sized to it before data (%llu bytes)",
	      (unsigned long long)file_size(&f));
	for (off = 0; off < (16u << 20); off += sizeof(mib))
		ok &= outfile_write(&f, off, mib, sizeof(mib), NULL) == 0;
	CHECK(ok && allocated(&f) >= (16u << 20) &&
	      allocated(&f) <= (16u << 20) + OUTFILE_RESERVE_AHEAD + (1u << 20),
	      "outfile mmap after 16 MiB written: reserved up to the data and the window (%llu bytes)",
	      (unsigned long long)allocated(&f));
	CHECK(on_tmpfs(&f) || file_size(&f) <= (16u << 20) + OUTFILE_RESERVE_AHEAD,
	      "outfile mmap after 16 MiB written: the file no longer than the data and the window (%llu bytes)",
	      (unsigned long long)file_size(&f));
	outfile_abort(&f);
}

/*
 * The temporary file's mode and owner are the final ones before the
 * first byte: never wider than the file it replaces while data arrives.
 */
static void test_outfile_attrs(void)
{
	mode_t mask = umask(022);
	struct outfile f;
	struct stat st;

	make_file("secret", 3, 1);
	chmod(path("secret"), 0600);
	CHECK(outfile_create(&f, path("secret"), 3, 0) == 0 &&
	      fstat(f.fd, &st) == 0 && (st.st_mode & 0777) == 0600,
	      "outfile replacing a 0600 file: the temporary is 0600 before any data");
	outfile_abort(&f);
	CHECK(outfile_create(&f, path("fresh"), 3, 0) == 0 &&
	      fstat(f.fd, &st) == 0 && (st.st_mode & 0777) == 0644,
	      "outfile new name: the temporary is 0666 less the umask before any data");
	outfile_abort(&f);
	if (geteuid() == 0) {
		chown(path("secret"), 65534, 65534);
		chmod(path("secret"), 0640);
		CHECK(outfile_create(&f, path("secret"), 3, 0) == 0 &&
		      fstat(f.fd, &st) == 0 && st.st_uid == 65534 &&
		      st.st_gid == 65534 && (st.st_mode & 0777) == 0640,
		      "outfile as root replacing uid 65534's 0640 file: the temporary is theirs, 0640, before any data");
		outfile_abort(&f);
	}
	unlink(path("secret"));
	umask(mask);
}

/* Where syncfs is not trusted and each file is fsync'ed instead. */
static void test_syncfs_types(void)
{
	CHECK(outfile_syncfs_untrusted(FUSE_SUPER_MAGIC) &&
	      outfile_syncfs_untrusted(V9FS_MAGIC) &&
	      outfile_syncfs_untrusted(SMB2_SUPER_MAGIC) &&
	      outfile_syncfs_untrusted(CIFS_SUPER_MAGIC),
	      "FUSE, 9p, SMB2 and CIFS: a fsync per file");
	CHECK(!outfile_syncfs_untrusted(EXT4_SUPER_MAGIC) &&
	      !outfile_syncfs_untrusted(XFS_SUPER_MAGIC) &&
	      !outfile_syncfs_untrusted(BTRFS_SUPER_MAGIC) &&
	      !outfile_syncfs_untrusted(TMPFS_MAGIC) &&
	      !outfile_syncfs_untrusted(NFS_SUPER_MAGIC),
	      "ext4, XFS, Btrfs, tmpfs and NFS: one syncfs");
}

/* Where one journal commit serves a link and its inode (outjournal.c). */
static void test_journal_types(void)
{
	/* /proc/fs/ext4/vda/options of ext4 and of ext2 on Linux 6.1. */
	static const char ext4[] = "rw\nbsddf\ndelalloc\njournal_checksum\nbarrier\ndata=ordered\ninode_readahead_blks=32\n";
	static const char ext2[] = "rw\nbsddf\nnodelalloc\nnojournal_checksum\nbarrier\ninode_readahead_blks=32\n";

	CHECK(outfile_journal_commits(EXT4_SUPER_MAGIC, ext4),
	      "ext4 with data=ordered: one commit");
	CHECK(outfile_journal_commits(EXT4_SUPER_MAGIC, "rw\ndata=journal\n") &&
	      outfile_journal_commits(EXT4_SUPER_MAGIC, "rw\ndata=writeback"),
	      "data=journal, data=writeback (last line unended): one commit");
	CHECK(!outfile_journal_commits(EXT4_SUPER_MAGIC, ext2) &&
	      !outfile_journal_commits(EXT4_SUPER_MAGIC, "") &&
	      !outfile_journal_commits(EXT4_SUPER_MAGIC, NULL),
	      "ext2, ext4 without a journal, options unknown: flushed twice");
	CHECK(!outfile_journal_commits(EXT4_SUPER_MAGIC, "rw\nnodata=ordered\n") &&
	      !outfile_journal_commits(EXT4_SUPER_MAGIC, "data=ordered2\n") &&
	      !outfile_journal_commits(EXT4_SUPER_MAGIC, "rw,data=ordered\n"),
	      "data=ordered only as a whole line");
	CHECK(!outfile_journal_commits(EXT4_SUPER_MAGIC, "rw\njournal_async_commit\ndata=writeback\n"),
	      "journal_async_commit (no flush before its commit block): flushed twice");
	CHECK(outfile_dir_fsync_unflushed(EXT4_SUPER_MAGIC, 0) &&
	      !outfile_dir_fsync_unflushed(EXT4_SUPER_MAGIC, 1),
	      "ext2: the names by syncfs; ext4 with a journal: the directory's fsync");
	CHECK(!outfile_dir_fsync_unflushed(XFS_SUPER_MAGIC, 0) &&
	      !outfile_dir_fsync_unflushed(BTRFS_SUPER_MAGIC, 0) &&
	      !outfile_dir_fsync_unflushed(TMPFS_MAGIC, 0),
	      "XFS, Btrfs, tmpfs: the directory's fsync");
	CHECK(!outfile_journal_commits(XFS_SUPER_MAGIC, ext4) &&
	      !outfile_journal_commits(BTRFS_SUPER_MAGIC, ext4) &&
	      !outfile_journal_commits(TMPFS_MAGIC, ext4),
	      "XFS, Btrfs, tmpfs: not by ext4's options");
}

/* A directory and a file or link with these modes and owners. */
static int refused(int link, mode_t dmode, uid_t duid, uid_t fuid,
		   uid_t me, int level)
{
	struct stat d = { .st_mode = S_IFDIR | dmode, .st_uid = duid };
	struct stat f = { .st_mode = (link ? S_IFLNK : S_IFREG) | 0666,
			  .st_uid = fuid };

	return link ? outfile_link_refused(&d, &f, me, level) :
		      outfile_file_refused(&d, &f, me, level);
}

/* fs/namei.c's may_create_in_sticky and may_follow_link, case by case. */
static void test_sticky_rules(void)
{
	CHECK(refused(0, 01777, 0, 65534, 0, 1) && refused(0, 01777, 0, 65534, 0, 2),
	      "protected_regular 1, 2: root may not open uid 65534's file in /tmp");
	CHECK(!refused(0, 01777, 0, 65534, 0, 0),
	      "protected_regular 0: no rule");
	CHECK(!refused(0, 01777, 0, 1000, 1000, 2) && !refused(0, 01777, 1000, 1000, 0, 2),
	      "protected_regular: the caller's file, or the directory owner's, is fine");
	CHECK(!refused(0, 00777, 0, 65534, 0, 2),
	      "protected_regular: a directory that is not sticky: no rule");
	CHECK(!refused(0, 01775, 0, 65534, 0, 1) && refused(0, 01775, 0, 65534, 0, 2),
	      "protected_regular: a sticky group-writable directory at level 2 only");
	CHECK(!refused(0, 01755, 0, 65534, 0, 2),
	      "protected_regular: a sticky directory only its owner writes: no rule");
	CHECK(refused(1, 01777, 0, 65534, 0, 1) && !refused(1, 01777, 0, 65534, 0, 0),
	      "protected_symlinks 1: root does not follow uid 65534's link in /tmp; 0: it does");
	CHECK(!refused(1, 01777, 0, 65534, 65534, 1) && !refused(1, 01777, 65534, 65534, 0, 1),
	      "protected_symlinks: the follower's own link, or the directory owner's, is followed");
	CHECK(!refused(1, 01775, 0, 65534, 0, 1) && !refused(1, 00777, 0, 65534, 0, 1),
	      "protected_symlinks: only in a sticky, world-writable directory");
}

/*
 * Several outputs closed, then committed at once: all renamed in order;
 * when one cannot be (a directory took its name meanwhile), the ones
 * before it are in place, and no temporary file is left.
 */
static void test_outfile_batch(void)
{
	struct outfile f[3];
	char *name[3];
	unsigned int i, done = 99;
	int ok = 1;

	/* Names that live until the commit (outfile.h). */
	for (i = 0; i < 3; i++)
		name[i] = xasprintf("%s/b%u", dir, i + 1);
	for (i = 0; i < 3; i++) {
		ok &= outfile_create(&f[i], name[i], 3, 0) == 0 &&
		      outfile_write(&f[i], 0, "b", 1, NULL) == 0 &&
		      outfile_write(&f[i], 1, "x\n", 2, NULL) == 0 &&
		      outfile_close(&f[i]) == 0;
	}
	CHECK(ok && count_entries(".syncdev-") == 3 &&
	      access(name[0], F_OK) == -1 && access(name[2], F_OK) == -1,
	      "outfile batch: 3 closed, all under temporary names");
	CHECK(outfile_commit_all(&done) == 0 && done == 3 &&
	      !count_entries(".syncdev-") && file_is(name[0], "bx\n") &&
	      file_is(name[2], "bx\n"),
	      "outfile batch: committed together, 3 in place");
	for (i = 0; i < 3; i++) {
		ok &= unlink(name[i]) == 0;
		ok &= outfile_create(&f[i], name[i], 0, 0) == 0 &&
		      outfile_close(&f[i]) == 0;
	}
	mkdir(name[1], 0755);
	CHECK(ok && outfile_commit_all(&done) == -1 && done == 1 &&
	      !count_entries(".syncdev-") && access(name[0], F_OK) == 0 &&
	      access(name[2], F_OK) == -1,
	      "outfile batch: a directory at file 2's name: file 1 in place, file 3 not, no temporary file");
	rmdir(name[1]);
	unlink(name[0]);
	for (i = 0; i < 3; i++)
		free(name[i]);
}

/* outfile_check gives target (NULL: refused). */
static int check_gives(const char *name, const char *target)
{
	char *got = outfile_check(name, NULL);
	int ok = target ? got && !strcmp(got, target) : !got;

	free(got);
	return ok;
}

/* What outfile_check says of name's absence (-1: refused). */
static int check_absent(const char *name)
{
	int absent = 7;
	char *got = outfile_check(name, &absent);

	free(got);
	return got ? absent : -1;
}

/* outfile_check_all: each one's absence; NULL when one is refused. */
static void check_all(char *gone, char *there)
{
	char *names[3] = { gone, there, dir };
	unsigned char absent[3] = { 7, 7, 7 };
	char **t = outfile_check_all(names, 2, absent);

	CHECK(t && !strcmp(t[0], gone) && !strcmp(t[1], there) &&
	      absent[0] == 1 && absent[1] == 0,
	      "outfile_check_all: the targets, a free name absent, a file not");
	if (t) {
		free(t[0]);
		free(t[1]);
		free(t);
	}
	CHECK(!outfile_check_all(names, 3, absent),
	      "outfile_check_all: NULL when one output is refused");
}

/*
 * OUTFILE_ABSENT: the close does not look at the name.  A file made there
 * during the transfer is replaced all the same (the rename does not
 * silently fail), and a file that was there when checked keeps its mode.
 */
static void test_outfile_absent(void)
{
	char *gone = xasprintf("%s/gone", dir), *there = xasprintf("%s/there", dir);
	struct outfile f;
	struct stat st;
	mode_t mask = umask(022);
	unsigned int done;
	int fd;

	CHECK(check_absent(gone) == 1 && check_absent(dir) == -1,
	      "outfile_check: a free name is absent, a refused one says nothing");
	make_file("there", 3, 1);
	chmod(there, 0600);
	CHECK(check_absent(there) == 0,
	      "outfile_check: an existing file is not absent");
	check_all(gone, there);
	CHECK(outfile_create(&f, gone, 2, OUTFILE_ABSENT) == 0 &&
	      outfile_write(&f, 0, "ok", 2, NULL) == 0 &&
	      outfile_close(&f) == 0, "outfile absent: created and closed");
	fd = open(gone, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0 && write(fd, "stale", 5) == 5 && close(fd) == 0,
	      "a file made under the name meanwhile");
	CHECK(outfile_commit_all(&done) == 0 && done == 1 &&
	      file_is(gone, "ok") &&
	      !count_entries(".syncdev-"),
	      "outfile absent: the file made meanwhile is replaced, no temporary left");
	CHECK(outfile_create(&f, there, 2, 0) == 0 &&
	      outfile_write(&f, 0, "ok", 2, NULL) == 0 &&
	      outfile_commit(&f) == 0 && stat(there, &st) == 0 &&
	      (st.st_mode & 0777) == 0600 && file_is(there, "ok"),
	      "outfile replacing a file keeps its mode");
	unlink(gone);
	unlink(there);
	free(gone);
	free(there);
	umask(mask);
}

static void make_socket(const char *name)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path(name));
	bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	close(fd);
}

static void test_outfile_check(void)
{
	char real[400];

	CHECK(check_gives(path("nodir/x"), NULL), "output in a missing directory refused");
	CHECK(check_gives(dir, NULL), "output that is a directory refused");
	CHECK(check_gives(path("fine"), path("fine")), "output that is a new name: itself");
	make_file("exists", 3, 1);
	CHECK(check_gives(path("exists"), path("exists")),
	      "output that is a regular file: itself (replaced later)");
	mkfifo(path("fifo"), 0600);
	CHECK(check_gives(path("fifo"), NULL) &&
	      strstr(msg_last(NULL), "is a FIFO (the slave writes regular files only)"),
	      "output that is a FIFO refused, saying so");
	make_socket("sock");
	CHECK(check_gives(path("sock"), NULL), "output that is a socket refused");
	CHECK(check_gives("/dev/null", NULL) &&
	      strstr(msg_last(NULL), "a character device"),
	      "output /dev/null (a device) refused");

	snprintf(real, sizeof(real), "%s", path("exists"));
	symlink(real, path("link"));
	CHECK(check_gives(path("link"), real),
	      "output that is a link to a regular file: the file it leads to");
	symlink("nothing-here", path("dangling"));
	CHECK(check_gives(path("dangling"), NULL),
	      "output that is a dangling link refused");
	symlink("/dev/null", path("devlink"));
	CHECK(check_gives(path("devlink"), NULL),
	      "output that is a link to a device refused");
	symlink(path("fifo"), path("fifolink"));
	CHECK(check_gives(path("fifolink"), NULL),
	      "output that is a link to a FIFO refused");
}

/* outfile_check_unique of the names given (as their own targets). */
static int unique(const char *a, const char *b, const char *c)
{
	char *names[3] = { (char *)a, (char *)b, (char *)c };
	char *targets[3];
	int i, ret;

	for (i = 0; i < 3; i++)
		targets[i] = outfile_check(names[i], NULL);
	ret = outfile_check_unique(names, targets, 3);
	for (i = 0; i < 3; i++)
		free(targets[i]);
	return ret;
}

static void test_duplicates(void)
{
	char a[400], b[400], c[400], dot[400];

	snprintf(a, sizeof(a), "%s", path("new1"));
	snprintf(b, sizeof(b), "%s", path("new2"));
	snprintf(c, sizeof(c), "%s", path("exists"));
	CHECK(unique(a, b, c) == 0, "three different outputs are fine");
	CHECK(unique(a, b, a) == -1 &&
	      strstr(msg_last(NULL), "outputs 1 (") &&
	      strstr(msg_last(NULL), "and 3 ("),
	      "the same output twice refused, naming both");
	snprintf(dot, sizeof(dot), "%s/./new1", dir);
	CHECK(unique(a, dot, c) == -1, "x and dir/./x are the same output");
	CHECK(unique(a, path("link"), c) == -1,
	      "a file and a link to it are the same output");
	link(c, path("hard"));
	CHECK(unique(a, path("hard"), c) == -1,
	      "a file and a hard link of it are the same output");
}

static void test_infile(void)
{
	struct infile f;

	CHECK(infile_open(&f, path("missing"), 0) == -1,
	      "infile missing file fails");
	CHECK(infile_open(&f, dir, 0) == -1 &&
	      strstr(msg_last(NULL), "is a directory, not a regular file"),
	      "infile directory refused");
	/* No writer: an open() without O_NONBLOCK would wait for one. */
	alarm(10);
	CHECK(infile_open(&f, path("fifo"), 0) == -1 &&
	      strstr(msg_last(NULL), "is a FIFO, not a regular file"),
	      "infile FIFO refused without blocking");
	CHECK(infile_open(&f, path("sock"), 1) == -1,
	      "infile socket refused");
	CHECK(infile_open(&f, "/dev/zero", 0) == -1 &&
	      strstr(msg_last(NULL), "is a character device"),
	      "infile device refused");
	alarm(0);
	make_file("empty", 0, 1);
	CHECK(infile_open(&f, path("empty"), 1) == 0 && f.size == 0 &&
	      !f.map, "infile empty file needs no mapping");
	infile_close(&f);
}

/* A mapped input cut short while it is sent: errors, not SIGBUS. */
static void test_shrinking_input(void)
{
	static unsigned char buf[16384];
	struct infile f;
	uint32_t crc = 0;
	long page = sysconf(_SC_PAGESIZE);

	make_file("shrinks", 4 * (size_t)page, 3);
	infile_open(&f, path("shrinks"), 1);
	truncate(path("shrinks"), page);
	CHECK(infile_copy(&f, 0, buf, (size_t)page, &crc) == page,
	      "shrunk mapped input: the part still there copies");
	CHECK(infile_copy(&f, (uint64_t)page, buf, (size_t)page, &crc) == -1 &&
	      strstr(msg_last(NULL), "shrank while being sent"),
	      "shrunk mapped input: SIGBUS becomes an error naming the file");
	CHECK(infile_check_size(&f) == -1,
	      "shrunk input: the size check after sending fails");
	infile_close(&f);

	make_file("shrinks", 100, 3);
	infile_open(&f, path("shrinks"), 1);
	truncate(path("shrinks"), 50);
	CHECK(infile_copy(&f, 0, buf, 100, &crc) == 100 &&
	      infile_check_size(&f) == -1,
	      "input shrunk within its last page (zeros, no SIGBUS): caught by the size check");
	infile_close(&f);
	CHECK(infile_open(&f, path("shrinks"), 0) == 0 &&
	      infile_copy(&f, 0, buf, 100, &crc) == 50 &&
	      infile_copy(&f, 50, buf, 50, &crc) == -1,
	      "read() input that shrank: an error at its new end");
	infile_close(&f);
}

int main(void)
{
	if (tmpdir_make())
		return 1;
	test_outfile();
	test_outfile_reserve();
	test_outfile_attrs();
	test_sticky_rules();
	test_syncfs_types();
	test_journal_types();
	test_outfile_batch();
	test_outfile_check();
	test_outfile_absent();
	test_duplicates();
	test_infile();
	test_shrinking_input();
	tmpdir_remove();
	return check_done();
}
