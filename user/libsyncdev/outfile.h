/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An output file of the slave.  It is written under a temporary name in
 * its own directory (".NAME.syncdev-XXXXXX") and renamed to NAME only when
 * complete and verified, so a file with its final name is never partial.
 * One temporary file exists at a time; outfile_remove_on_signals() makes
 * SIGINT, SIGTERM and SIGHUP remove it too.
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
};

/*
 * Before connecting (outcheck.c): fail early, with a message, when path
 * cannot become a regular file: its directory is missing or not
 * writable, or it is a directory, a device, a FIFO or a socket.  A
 * symbolic link is followed to the regular file it leads to (which is
 * replaced, the link stays); a link that leads nowhere, or to anything but
 * a regular file, is refused.  Returns the name to write (malloc'd: path
 * itself or the link's target), or NULL.
 */
char *outfile_check(const char *path);

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

/*
 * Create the temporary file for size bytes; in mmap mode allocate and map
 * it (on tmpfs: check the room, and fill the pages as they are written,
 * pagefill.h).  Prints a message and returns -1 on failure.
 */
int outfile_create(struct outfile *f, const char *path, uint64_t size,
		   int map);
/*
 * Store n bytes at offset off (in order), folding them into *crc unless
 * crc is NULL; -1 with errno on failure.
 */
int outfile_write(struct outfile *f, uint64_t off, const void *p, size_t n,
		  uint32_t *crc);
/*
 * Close and rename to the final name, giving it the owner, group and
 * permissions of the file it replaces; the data is flushed to the disk
 * (msync, fsync) before the rename and the directory after it, unless
 * outfile_set_sync(0).  Prints a message on failure.
 */
int outfile_commit(struct outfile *f);
/* Close and remove the temporary file. */
void outfile_abort(struct outfile *f);

void outfile_remove_on_signals(void);

/* 0: outfile_commit does not flush to the disk (slave --no-sync). */
void outfile_set_sync(int on);

#endif
