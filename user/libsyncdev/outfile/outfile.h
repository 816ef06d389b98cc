/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An output file of the slave.  It is written under a temporary name in
 * its own directory (".NAME.syncdev-XXXXXX"), or as an unnamed file
 * (O_TMPFILE) where nothing has NAME and the directory allows it
 * (outdir_unnamed), and renamed (linked) to NAME only when complete and
 * verified, so a file with its final name is never partial.
 * Several temporary files may wait for their rename, which comes for all
 * of them at once, after one flush of their data (outfile_commit_all,
 * outset.c); outfile_remove_on_signals() makes SIGINT, SIGTERM and SIGHUP
 * remove them too.
 *
 * The library's own parts see each other through outpriv.h (the
 * directories and the list of temporary files, outset.c), outrules.h (a
 * sticky directory's rules) and outjournal.h (what a file system's flush
 * reaches).
 */
#ifndef SYNCDEV_OUTFILE_H
#define SYNCDEV_OUTFILE_H

#include "pagefill.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/*
 * The largest size an output may have: the largest off_t.  A header that
 * announces more is refused before anything is created.
 */
#define OUTFILE_SIZE_MAX \
	((((uint64_t)1 << (sizeof(off_t) * CHAR_BIT - 1))) - 1)

/*
 * mmap mode: the space of a file is reserved (fallocate) as its bytes
 * arrive, never more than this far ahead of them, so that a header
 * alone, which nothing has authenticated yet, cannot fill the disk.
 */
#define OUTFILE_RESERVE_AHEAD	(8u << 20)

struct outfile {
	const char *path;	/* for messages */
	const char *base;	/* its last component, in outdir_fd(dir) */
	unsigned int dir;	/* outdir_open */
	char tmp[PATH_MAX];	/* for messages: dir/tmpname */
	const char *tmpname;	/* in tmp: the name in the directory */
	int fd;
	uint64_t size;
	uint64_t reserved;	/* mmap mode: bytes allocated from 0 */
	unsigned char *map;	/* mmap mode, size > 0 only */
	/* fcntl mode, outfile_splice: read-only, or MAP_FAILED once refused */
	const void *rmap;
	/*
	 * mmap mode on tmpfs: the pages are filled by UFFDIO_COPY as the
	 * bytes arrive (fill.fd >= 0), a partial page through stage.
	 */
	struct pagefill fill;
	unsigned char *stage;
	uint64_t next;		/* the offset the next write must have */
	struct outpend *pend;	/* the temporary file's entry (outset.c) */
	int absent;		/* OUTFILE_ABSENT */
	int unnamed;		/* fd is an unnamed file, pend's to close */
};

/*
 * Before connecting (outcheck.c): fail early, with a message, when path
 * cannot become a regular file: its directory is missing or not
 * writable, or it is a directory, a device, a FIFO or a socket.  A
 * symbolic link is followed to the regular file it leads to (which is
 * replaced, the link stays); a link that leads nowhere, or to anything but
 * a regular file, is refused.  Returns the name to write (malloc'd: path
 * itself or the link's target), or NULL.  *absent (unless absent is NULL):
 * 1 when nothing has that name now (OUTFILE_ABSENT below), else 0.
 */
char *outfile_check(const char *path, int *absent);

/*
 * outfile_check of each of the n paths: their targets (malloc'd), and in
 * absent[i] whether nothing has name i now; NULL after the message of the
 * first one refused.
 */
char **outfile_check_all(char *const *paths, unsigned int n,
			 unsigned char *absent);

/*
 * After outfile_check of each: -1 after a message naming both when two
 * of the n targets are the same file (same name, a link to it, or a hard
 * link of it), else 0.  paths are the names as given, for the message.
 */
int outfile_check_unique(char *const *paths, char *const *targets,
			 unsigned int n);

/* outfile_create's flags. */
enum {
	/* mmap mode: the file is allocated and mapped, and written through the mapping */
	OUTFILE_MAP = 1,
	/*
	 * Nothing had the name when outfile_check looked: outfile_create
	 * does not look again (a system call a file), and the rename takes
	 * the name with RENAME_NOREPLACE.  A file made under the name meanwhile is
	 * replaced all the same, without its owner and mode being kept.
	 */
	OUTFILE_ABSENT = 2,
};

/*
 * Create the temporary file for size bytes, owner-only, then give it the
 * owner, group and mode of the file it replaces (as far as the slave may)
 * or those open() would give a new file, before any data; with
 * OUTFILE_MAP map it, its space reserved as it is written (on tmpfs:
 * check the room, and fill the pages as they are written, pagefill.h; on
 * a 32-bit build a size past the address space is written with write()).
 * Prints a message and returns -1 on failure.  path is kept, not copied:
 * it must stay until outfile_commit_all.
 */
int outfile_create(struct outfile *f, const char *path, uint64_t size,
		   unsigned int flags);
/*
 * Store n bytes at offset off (in order), folding them into *crc unless
 * crc is NULL; -1 with errno on failure.
 */
int outfile_write(struct outfile *f, uint64_t off, const void *p, size_t n,
		  uint32_t *crc);
/*
 * fcntl mode (outsplice.c): n bytes from the pipe pipe_fd appended to f by
 * splice(), at offset off (where the file's writes have got to), then
 * handed to fn(ctx, p, n) where they landed: through a read-only mapping,
 * or read back into scratch (scratch_len bytes) where the file maps none.
 * One copy, into the page cache.  0; 1 when the file takes no splice()
 * (EINVAL before a byte moved: all n are still in the pipe); -1 with errno.
 */
int outfile_splice(struct outfile *f, uint64_t off, int pipe_fd, size_t n,
		   void (*fn)(void *ctx, const void *p, size_t n), void *ctx,
		   void *scratch, size_t scratch_len);
/*
 * The data is complete and verified: unmap and close the temporary file
 * (flushing it first where outdir_fsync_each).  It waits for
 * outfile_commit_all.  Prints a message, removes the temporary file and
 * returns -1 on failure.
 */
int outfile_close(struct outfile *f);
/*
 * Every closed temporary file to its final name, in the order they were
 * created: their data flushed to the disk together (syncfs once per file
 * system) before the first rename, and each directory once after the
 * last, unless outfile_set_sync(0).  *done: how many are in place (and on
 * the disk).  On a failure (a message), the temporary files not renamed
 * are removed and -1 is returned.
 */
int outfile_commit_all(unsigned int *done);
/*
 * Close what outfile_commit_all left open of the files it put in place
 * (the descriptors of linked unnamed files): after the answer, since the
 * files are in place and on the disk without it.  Exit does it too.
 */
void outfile_release(void);
/* outfile_close then outfile_commit_all: 0 or -1 after a message. */
int outfile_commit(struct outfile *f);
/* Close and remove the temporary file. */
void outfile_abort(struct outfile *f);
/*
 * For the course's page-descriptor line of a file written with write():
 * the first page of f (not empty, its bytes written) mapped shared and
 * writable, and its first byte stored again through the mapping, so that
 * the page's entry is the one a copy into a mapped output leaves
 * (present, writable, dirty).  NULL after a message.  The mapping (one
 * page) is the caller's, to munmap or to keep until it exits.
 */
void *outfile_map_page(const struct outfile *f);

void outfile_remove_on_signals(void);

/* 0: outfile_commit_all does not flush to the disk (slave --no-sync). */
void outfile_set_sync(int on);

#endif
