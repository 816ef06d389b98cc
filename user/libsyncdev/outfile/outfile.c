// SPDX-License-Identifier: GPL-2.0
#include "outfile.h"
#include "outpriv.h"
#include "crc32c.h"
#include "mapguard.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* A size no file can have: 0, or -1 after a message. */
static int too_large(const char *path, uint64_t size)
{
	if (size <= OUTFILE_SIZE_MAX)
		return 0;
	errno = EFBIG;
	msg_errno("no space for %s: it has %llu bytes, more than any file can hold (at most %llu)",
		  path, (unsigned long long)size,
		  (unsigned long long)OUTFILE_SIZE_MAX);
	return -1;
}

/*
 * Whether directory dir (dirname) has room for size bytes: 0, or -1 after
 * a message.  Checked before anything is allocated, so that a master
 * announcing more than the disk holds is told "no space" at once instead
 * of filling the disk.  The free space of the last directory asked about
 * is kept, less what the files since take (whole blocks, rounded up
 * without wrapping), so that a transfer of many small files asks
 * fstatvfs() again only when that estimate runs out.
 */
static int check_room(unsigned int dir, const char *dirname,
		      const char *path, uint64_t size)
{
	static char last[PATH_MAX];
	static uint64_t left, block = 1;
	struct statvfs st;
	uint64_t need;

	if (too_large(path, size))
		return -1;
	if (last[0] && !strcmp(dirname, last) &&
	    !round_up_u64(size, block, &need) && need <= left) {
		left -= need;
		return 0;
	}
	last[0] = '\0';
	/*
	 * No figure, or no blocks at all (a tmpfs mounted with size=0 has
	 * no limit): the writes will tell.
	 */
	if (fstatvfs(outdir_fd(dir), &st) || !st.f_blocks)
		return 0;
	block = st.f_frsize ? st.f_frsize : 1;
	left = (uint64_t)st.f_bavail * st.f_frsize;
	if (size <= left) {
		left = !round_up_u64(size, block, &need) && need < left ?
		       left - need : 0;
		snprintf(last, sizeof(last), "%s", dirname);
		return 0;
	}
	errno = ENOSPC;
	msg_errno("no space for %s: it has %llu bytes, %s has %llu bytes free",
		  path, (unsigned long long)size, dirname,
		  (unsigned long long)left);
	return -1;
}

void outfile_split_path(const char *path, char *dir, size_t dirlen,
			const char **base)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash) {
		snprintf(dir, dirlen, ".");
		*base = path;
		return;
	}
	n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= dirlen)
		n = dirlen - 1;
	memcpy(dir, path, n);
	dir[n] = '\0';
	*base = slash + 1;
}

/*
 * Allocation steps.  tmpfs gives up a fallocate() with EINTR on any
 * signal, even a stop/continue, and frees what that call allocated: one
 * call for the whole file, retried, never finished on a slow machine
 * whose slave was stopped and continued every 90 ms (tests/vm/80-stopcont
 * under the debug kernel).  A step is redone alone; the others stay.
 */
#define ALLOC_STEP (1u << 20)

/*
 * Reserve (posix_fallocate, in steps) the space of f up to byte end, or
 * OUTFILE_RESERVE_AHEAD past it: 0 or an errno value.  Called before the
 * bytes below end are stored, so that a full disk is an error return here
 * rather than a SIGBUS in the copy to the mapping.
 */
static int reserve(struct outfile *f, uint64_t end)
{
	uint64_t off, n, to;
	int err = 0;

	if (end <= f->reserved)
		return 0;
	to = f->size - end < OUTFILE_RESERVE_AHEAD ? f->size :
	     end + OUTFILE_RESERVE_AHEAD;
	for (off = f->reserved; off < to && !err; off += n) {
		n = to - off < ALLOC_STEP ? to - off : ALLOC_STEP;
		do
			err = posix_fallocate(f->fd, (off_t)off, (off_t)n);
		while (err == EINTR);
		if (!err)
			f->reserved = off + n;
	}
	return err;
}

/*
 * Whether a tmpfs (st) has room for size more bytes now: 0, or ENOSPC.
 * Not a reservation, as fallocate() would be; a tmpfs that fills up
 * later fails a UFFDIO_COPY, an error return, not a SIGBUS.  No blocks
 * at all is a tmpfs without a size limit.
 */
static int tmpfs_room(const struct statfs *st, uint64_t size)
{
	if (st->f_blocks &&
	    (uint64_t)st->f_bavail * (uint64_t)st->f_bsize < size)
		return ENOSPC;
	return 0;
}

/*
 * On tmpfs, register the mapping for UFFDIO_COPY (pagefill.h): no
 * fallocate() then, whose pages would be there already.  Elsewhere, or
 * where userfaultfd is refused: 0, and the pages are reserved as they
 * are written (reserve).
 */
static int start_fill(struct outfile *f)
{
	if (pagefill_start(&f->fill, f->map, f->size) == 0) {
		f->stage = malloc(f->fill.page);
		if (f->stage)
			return 0;
		pagefill_stop(&f->fill);
	}
	return reserve(f, 1);
}

/*
 * Map the file for writing, its first bytes reserved: 0, or -1 after a
 * message.  The size comes from a header that no key proves, so nothing
 * sizes the file to it up front where that costs the disk: a file system
 * without holes (FAT, exFAT) would write zeros up to it.  Outside tmpfs
 * the file grows as its bytes are reserved (reserve: at most
 * OUTFILE_RESERVE_AHEAD past what arrived); the mapping may reach past
 * its end, below which alone it is written.
 */
static int map_output(struct outfile *f)
{
	struct statfs st;
	bool tmpfs;
	void *p;
	int err;

	/*
	 * Reserve before each copy into the mapping: a full disk then fails
	 * with ENOSPC instead of killing us with SIGBUS in the middle of a
	 * memcpy (on tmpfs, the room is checked and the pages filled by
	 * UFFDIO_COPY, whose failure is an error return).  On tmpfs the size
	 * first, which allocates nothing there: a tmpfs mounted
	 * huge=within_size allocates 2 MiB pages only inside the file's size
	 * (one fault per 2 MiB instead of per 4 KiB; docs/results.md).
	 */
	tmpfs = fstatfs(f->fd, &st) == 0 && st.f_type == TMPFS_MAGIC;
	if (tmpfs)
		err = ftruncate(f->fd, (off_t)f->size) ? errno :
		      tmpfs_room(&st, f->size);
	else
		err = reserve(f, 1);
	if (err) {
		errno = err;
		msg_errno("cannot allocate %llu bytes for %s",
			  (unsigned long long)f->size, f->path);
		return -1;
	}
	p = mmap(NULL, f->size, PROT_WRITE, MAP_SHARED, f->fd, 0);
	if (p == MAP_FAILED) {
		msg_errno("cannot mmap output file %s", f->tmp);
		return -1;
	}
	f->map = p;
	err = tmpfs ? start_fill(f) : 0;
	if (err) {
		errno = err;
		msg_errno("cannot allocate %llu bytes for %s",
			  (unsigned long long)f->size, f->path);
		return -1;
	}
	return 0;
}

/*
 * Pick the temporary name ".BASE.syncdev-XXXXXX" in f's directory dir
 * (f->tmp: its path for messages, f->tmpname: the name in the
 * directory): 0, or -1 with errno ENAMETOOLONG.  The suffix comes from a
 * generator seeded once, so a name costs no system call.
 */
static int tmp_name(struct outfile *f, const char *dir)
{
	static const char digits[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static uint64_t state;
	size_t dlen, blen, len;
	unsigned int i;
	uint64_t x;

	if (!state)
		state = now_ns() ^ ((uint64_t)getpid() << 32) ^ 0x9e3779b97f4a7c15ull;
	/* xorshift64 */
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	x = state;
	/*
	 * dir/.BASE.syncdev-XXXXXX, built by hand: the slave's snprintf()s
	 * were nearly half of its own instructions on a 1 KiB file
	 * (callgrind).  A long base name is cut so that the name fits in
	 * NAME_MAX.
	 */
	dlen = strlen(dir);
	blen = strnlen(f->base, 200);
	len = dlen + 2 + blen + sizeof(".syncdev-XXXXXX") - 1;
	if (len >= sizeof(f->tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(f->tmp, dir, dlen);
	f->tmp[dlen] = '/';
	f->tmp[dlen + 1] = '.';
	memcpy(f->tmp + dlen + 2, f->base, blen);
	memcpy(f->tmp + dlen + 2 + blen, ".syncdev-", 9);
	for (i = 0; i < 6; i++, x /= 62)
		f->tmp[len - 6 + i] = digits[x % 62];
	f->tmp[len] = '\0';
	f->tmpname = f->tmp + dlen + 1;
	return 0;
}

/* The mode open() gives a file it creates with 0666. */
static mode_t new_file_mode(void)
{
	static mode_t mode = 01000;

	if (mode == 01000) {
		mode_t mask = umask(0);

		umask(mask);
		mode = 0666 & ~mask;
	}
	return mode;
}

/*
 * An unnamed file in f's directory with the mode open() gives a new file
 * (f->tmp: the name it would have as a named one), held in f->fd: 1, or 0
 * when there is none to be had (not absent, the directory does not allow
 * it, no descriptors to hold it, or O_TMPFILE failed): then a named one.
 */
static int create_unnamed(struct outfile *f, const char *dir)
{
	if (!f->absent || !outdir_unnamed(f->dir) || !outpend_fd_room() ||
	    tmp_name(f, dir))
		return 0;
	f->fd = openat(outdir_fd(f->dir), ".", O_TMPFILE | O_RDWR | O_CLOEXEC,
		       new_file_mode());
	if (f->fd < 0)
		return 0;
	f->pend = outpend_add_unnamed(f->dir, f->fd, f->tmpname, f->path,
				      f->base);
	return 1;
}

/*
 * Create the temporary file in f's directory, readable and writable by
 * its owner only: the fd, or -1 with errno.  A name taken already is
 * never opened: another is picked.
 */
static int create_tmp(struct outfile *f, const char *dir)
{
	unsigned int tries;
	int fd;

	for (tries = 0; tries < 100; tries++) {
		if (tmp_name(f, dir))
			return -1;
		fd = openat(outdir_fd(f->dir), f->tmpname,
			    O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/*
 * Before any data: the temporary file takes the owner, group and
 * permission bits (not set-user-ID, set-group-ID, sticky) of the file it
 * replaces, as far as the slave may set them (an owner it cannot give is
 * kept as the slave's, and then the group too if it cannot give that), or
 * the mode open() would give a new file.  Never wider than the final file
 * while the data arrives.  0, or -1 after a message.
 */
static int take_attrs(struct outfile *f)
{
	mode_t mode = new_file_mode();
	struct stat st;

	if (f->absent) {
		outpend_set_new(f->pend);
		if (f->unnamed)
			return 0;	/* its mode given by openat */
	} else if (fstatat(outdir_fd(f->dir), f->base, &st,
			   AT_SYMLINK_NOFOLLOW)) {
		/* Nothing there now: the rename need not look again. */
		if (errno == ENOENT)
			outpend_set_new(f->pend);
	} else if (S_ISREG(st.st_mode)) {
		if (fchown(f->fd, st.st_uid, st.st_gid) &&
		    fchown(f->fd, (uid_t)-1, st.st_gid) && errno != EPERM) {
			msg_errno("cannot give %s the owner of %s", f->tmp,
				  f->path);
			return -1;
		}
		mode = st.st_mode & 0777;
	}
	if (fchmod(f->fd, mode)) {
		msg_errno("cannot give %s the mode of %s", f->tmp, f->path);
		return -1;
	}
	return 0;
}

/* OUTFILE_MAP unless the size does not fit in the address space. */
static unsigned int map_flag(uint64_t size, unsigned int flags)
{
	if ((uint64_t)(size_t)size != size)
		flags &= ~(unsigned int)OUTFILE_MAP;
	return flags;
}

int outfile_create(struct outfile *f, const char *path, uint64_t size,
		   unsigned int flags)
{
	char dir[PATH_MAX];
	int d;

	*f = (struct outfile){ .path = path, .size = size, .fd = -1,
			       .fill.fd = -1,
			       .absent = !!(flags & OUTFILE_ABSENT) };
	outfile_split_path(path, dir, sizeof(dir), &f->base);
	d = outdir_open(dir, path);
	if (d < 0)
		return -1;
	f->dir = (unsigned int)d;
	if (check_room(f->dir, dir, path, size))
		return -1;
	flags = map_flag(size, flags);
	f->unnamed = create_unnamed(f, dir);
	if (!f->unnamed) {
		f->fd = create_tmp(f, dir);
		if (f->fd < 0) {
			if (errno == ENAMETOOLONG)
				msg("output path %s is too long", path);
			else
				msg_errno("cannot create a temporary file for %s",
					  path);
			return -1;
		}
		f->pend = outpend_add(f->dir, f->tmpname, path, f->base);
	}
	if (take_attrs(f) == 0 &&
	    (!(flags & OUTFILE_MAP) || !size || map_output(f) == 0))
		return 0;
	outfile_abort(f);
	return -1;
}

/*
 * A UFFDIO_COPY that failed (errno set): a tmpfs that another process
 * filled since the room check fails it with ENOMEM before Linux 6.6
 * (shmem_mfill_atomic_pte), with ENOSPC from then on.  Say ENOSPC when
 * the rest of the file no longer fits: that is what write() would say.
 */
static int fill_failed(const struct outfile *f, uint64_t off)
{
	struct statfs st;
	int err = errno;

	if (err == ENOMEM && fstatfs(f->fd, &st) == 0 &&
	    tmpfs_room(&st, f->size - off) == ENOSPC)
		err = ENOSPC;
	errno = err;
	return -1;
}

/*
 * Filling (pagefill.h): every page is filled as soon as a byte of it
 * arrives, whole pages straight from p, a last partial one from a zeroed
 * copy; the rest of that page comes with the next write, which copies it
 * into the mapping as usual (the page is there now).  A write out of
 * order stops the filling (outfile_write), and the mapping faults as
 * usual from then on.
 */
static int write_filled(struct outfile *f, uint64_t off,
			const unsigned char *p, size_t n, uint32_t *crc)
{
	size_t page = f->fill.page, head, whole, tail;

	head = off % page ? page - (size_t)(off % page) : 0;
	if (head > n)
		head = n;
	if (head && map_copy(f->map + off, p, head, crc)) {
		errno = EIO;
		return -1;
	}
	off += head;
	p += head;
	n -= head;
	whole = n / page * page;
	tail = n - whole;
	if (crc)
		*crc = crc32c(*crc, p, n);
	if (whole && pagefill_copy(&f->fill, (size_t)off, p, whole))
		return fill_failed(f, off);
	if (tail) {
		memcpy(f->stage, p + whole, tail);
		memset(f->stage + tail, 0, page - tail);
		if (pagefill_copy(&f->fill, (size_t)(off + whole), f->stage,
				  page))
			return fill_failed(f, off + whole);
	}
	f->next = off + n;
	return 0;
}

int outfile_write(struct outfile *f, uint64_t off, const void *p, size_t n,
		  uint32_t *crc)
{
	if (f->fill.fd >= 0 && off != f->next)
		pagefill_stop(&f->fill);
	if (f->fill.fd >= 0)
		return write_filled(f, off, p, n, crc);
	if (f->map) {
		errno = reserve(f, off + n);
		if (errno)
			return -1;
		map_populate(f->map + off, n, 1);
		/* SIGBUS: the file was cut short or its storage failed. */
		if (map_copy(f->map + off, p, n, crc)) {
			errno = EIO;
			return -1;
		}
		return 0;
	}
	if (crc)
		*crc = crc32c(*crc, p, n);
	return write_full(f->fd, p, n) < 0 ? -1 : 0;
}

static void outfile_unmap(struct outfile *f)
{
	pagefill_stop(&f->fill);
	free(f->stage);
	f->stage = NULL;
	if (f->map)
		munmap(f->map, f->size);
	f->map = NULL;
	if (f->rmap && f->rmap != MAP_FAILED)
		munmap((void *)f->rmap, f->size);
	f->rmap = NULL;
}

int outfile_close(struct outfile *f)
{
	int ret = 0;

	/*
	 * Unmapped without msync(): the pages stay dirty in the page cache,
	 * and outfile_commit_all() flushes them with the rest, or fsync
	 * here where that flush is per file.
	 */
	outfile_unmap(f);
	if (outdir_fsync_each(f->dir) && fsync(f->fd)) {
		msg_errno("writing %s to disk", f->tmp);
		ret = -1;
	}
	/* Held until its link (outset.c): a local file system's close reports nothing. */
	if (f->unnamed) {
		f->fd = -1;
		return ret;
	}
	/* close() is where a network file system reports a failed write. */
	if (close(f->fd)) {
		msg_errno("writing %s", f->tmp);
		ret = -1;
	}
	f->fd = -1;
	if (ret) {
		outpend_remove(f->pend);
		f->pend = NULL;
	}
	return ret;
}

int outfile_commit(struct outfile *f)
{
	unsigned int done;

	if (outfile_close(f))
		return -1;
	return outfile_commit_all(&done);
}

void outfile_abort(struct outfile *f)
{
	outfile_unmap(f);
	if (f->fd >= 0 && !f->unnamed)
		close(f->fd);
	f->fd = -1;
	if (f->pend)
		outpend_remove(f->pend);
	f->pend = NULL;
}

void *outfile_map_page(const struct outfile *f)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *p, c;

	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, 0);
	if (p == MAP_FAILED) {
		msg_errno("cannot mmap %s for its page line", f->path);
		return NULL;
	}
	/* SIGBUS: the file was cut short meanwhile. */
	if (map_copy(&c, p, 1, NULL) || map_copy(p, &c, 1, NULL)) {
		msg("cannot map %s for its page line: the file was cut short",
		    f->path);
		munmap(p, page);
		return NULL;
	}
	return p;
}
