/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An output file of the slave.  It is written under a temporary name in
 * its own directory (".NAME.syncdev-XXXXXX") and renamed to NAME only when
 * complete and verified, so a file with its final name is never partial.
 * Several temporary files may wait for their rename, which comes for all
 * of them at once, after one flush of their data (outfile_commit_all,
 * outset.c); outfile_remove_on_signals() makes SIGINT, SIGTERM and SIGHUP
 * remove them too.
 */
#ifndef SYNCDEV_OUTFILE_H
#define SYNCDEV_OUTFILE_H

#include "pagefill.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

struct outfile {
	const char *path;
	char tmp[PATH_MAX];
	int fd;
	uint64_t size;
	unsigned char *map;	/* mmap mode, size > 0 only */
	/*
	 * mmap mode on tmpfs: the pages are filled by UFFDIO_COPY as the
	 * bytes arrive (fill.fd >= 0), a partial page through stage.
	 */
	struct pagefill fill;
	unsigned char *stage;
	uint64_t next;		/* the offset the next write must have */
	struct outpend *pend;	/* the temporary file's entry (outset.c) */
	int absent;		/* OUTFILE_ABSENT */
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

/* path's directory ("." if none) into dir, and its last component. */
void outfile_split_path(const char *path, char *dir, size_t dirlen,
			const char **base);

/* outfile_create's flags. */
enum {
	/* mmap mode: the file is allocated and mapped, and written through the mapping */
	OUTFILE_MAP = 1,
	/*
	 * Nothing had the name when outfile_check looked: the close does not
	 * look again (a system call a file), and the rename takes the name
	 * with RENAME_NOREPLACE.  A file made under the name meanwhile is
	 * replaced all the same, without its owner and mode being kept.
	 */
	OUTFILE_ABSENT = 2,
};

/*
 * Create the temporary file for size bytes; with OUTFILE_MAP allocate and
 * map it (on tmpfs: check the room, and fill the pages as they are
 * written, pagefill.h).  Prints a message and returns -1 on failure.  path
 * is kept, not copied: it must stay until outfile_commit_all.
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
 * The data is complete and verified: give the temporary file the owner,
 * group and permissions of the file it replaces, unmap and close it.  It
 * waits for outfile_commit_all.  Prints a message, removes the temporary
 * file and returns -1 on failure.
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
/* outfile_close then outfile_commit_all: 0 or -1 after a message. */
int outfile_commit(struct outfile *f);
/* Close and remove the temporary file. */
void outfile_abort(struct outfile *f);

void outfile_remove_on_signals(void);

/* 0: outfile_commit_all does not flush to the disk (slave --no-sync). */
void outfile_set_sync(int on);

/* outset.c: the list of temporary files that exist now. */
struct outpend;
struct outpend *outpend_add(const char *tmp, const char *path);
/* Remove the temporary file and its entry. */
void outpend_remove(struct outpend *p);
/* Nothing had p's final name when it was closed (outfile_close). */
void outpend_set_new(struct outpend *p);

#endif
