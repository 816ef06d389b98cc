/* SPDX-License-Identifier: GPL-2.0 */
/* Whole directory trees: a copy that leaves some names out, a removal. */
#ifndef GRADECLASS_TREE_H
#define GRADECLASS_TREE_H

/*
 * Copy directory src to dst (which must not exist): directories, regular
 * files (a symbolic link as the file it names) with their modes and
 * times, skipping every entry called skip at any depth.  -1 after a
 * message naming the file.
 */
int tree_copy(const char *src, const char *dst, const char *skip);
/* One file, as tree_copy copies it (replacing dst if it exists). */
int file_copy(const char *src, const char *dst);
/* Remove path and everything under it, if it exists. */
int tree_remove(const char *path);

#endif
