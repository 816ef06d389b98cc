/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output-file library's own parts (outset.c): the outputs' directories,
 * each held open from its check to the renames, and the list of temporary
 * files that exist now.  Not for the library's users: outfile.h.
 */
#ifndef SYNCDEV_OUTPRIV_H
#define SYNCDEV_OUTPRIV_H

#include <stddef.h>

/* path's directory ("." if none) into dir, and its last component. */
void outfile_split_path(const char *path, char *dir, size_t dirlen,
			const char **base);

/*
 * outset.c: the directories of the outputs, each opened once (by
 * outfile_check or the first outfile_create in it) and held until
 * outfile_commit_all, so that every step after the check is made in the
 * directory that was checked, whatever happens to its path.  The index of
 * dir, or -1 after a message.
 */
int outdir_open(const char *dir, const char *path);
int outdir_fd(unsigned int dir);
/*
 * 1 when files in dir are flushed one by one at their close (fsync), on
 * a file system whose syncfs() does not reach the storage (outset.c).
 */
int outdir_fsync_each(unsigned int dir);
/*
 * 1 when an unnamed file (O_TMPFILE) can be made in dir and linked to its
 * name by this process, on a file system whose files are not flushed one
 * by one (outset.c says how it is found out, once per directory).
 */
int outdir_unnamed(unsigned int dir);
/*
 * 1 for a file system type (statfs f_type) whose syncfs() does not reach
 * the storage, where each file is flushed with fsync() instead: FUSE, 9p,
 * SMB/CIFS.
 */
int outfile_syncfs_untrusted(unsigned long f_type);

/* outset.c: the list of temporary files that exist now. */
struct outpend;
/* tmp and base: names in directory dir (outdir_open); path: for messages. */
struct outpend *outpend_add(unsigned int dir, const char *tmp,
			    const char *path, const char *base);
/*
 * An unnamed file (fd, held until outfile_commit_all links it to base,
 * or closed with its entry); tmp: the name it takes should base be taken
 * during the transfer.
 */
struct outpend *outpend_add_unnamed(unsigned int dir, int fd, const char *tmp,
				    const char *path, const char *base);
/* Whether one more unnamed file may be held open (descriptors left). */
int outpend_fd_room(void);

/* Remove the temporary file and its entry. */
void outpend_remove(struct outpend *p);
/* Nothing had p's final name when its file was created. */
void outpend_set_new(struct outpend *p);

#endif
