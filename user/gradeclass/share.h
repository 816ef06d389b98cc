/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading what a guest wrote into a shared directory.  A guest's root can
 * make links, FIFOs and device nodes there that are real on the host, so
 * each component of the path is opened relative to the one before it
 * without following a link, the file must be a regular file, its open
 * never blocks, and at most a cap of its bytes is copied.
 */
#ifndef GRADECLASS_SHARE_H
#define GRADECLASS_SHARE_H

#include <stddef.h>
#include <stdint.h>

/* Why a path was refused, for the message. */
#define SHARE_WHY_MAX 256

/* The default cap of share-read and share-copy. */
#define SHARE_MAX_DEFAULT (1024 * 1024)

/* share-read's and share-copy's exit status when the file held more. */
#define SHARE_EXIT_TRUNCATED 3

/*
 * A descriptor open for reading on the regular file root/path, or -1
 * with why set ("a symbolic link", "a FIFO, not a regular file", ...).
 * root is the host's own directory and is followed; path is relative,
 * its components neither empty, "." nor "..".
 */
int share_open(const char *root, const char *path, char *why, size_t len);

/*
 * Copy at most max bytes of in to out.  0 when in ended within them, 1
 * when it held more (the first max bytes are copied), -1 with why set.
 */
int share_copy(int in, int out, uint64_t max, char *why, size_t len);

/* The subcommands: share-read and share-copy with their arguments. */
int share_read_main(int argc, char **argv);
int share_copy_main(int argc, char **argv);

#endif
