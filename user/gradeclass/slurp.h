/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's own files of a student's work directory, read whole but
 * bounded: no link followed, nothing but a regular file opened, nothing
 * that could block.
 */
#ifndef GRADECLASS_SLURP_H
#define GRADECLASS_SLURP_H

#include <stddef.h>

/*
 * The first max bytes of the regular file path, NUL-terminated (a NUL
 * inside stays: *len says how many were read); NULL when there is no such
 * regular file or it cannot be read.  Free it.
 */
char *slurp(const char *path, size_t max, size_t *len);

/*
 * s with every control character (C0, DEL, and C1 as UTF-8, U+0080 to
 * U+009F) and every NUL of its len bytes as a space, in place: text a
 * guest wrote, made safe for a terminal and for every report.
 */
void text_clean(char *s, size_t len);

#endif
