/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Student names as folder names in the class's output folder: one path
 * component, printable, short, never one of the class's own files.
 */
#ifndef GRADECLASS_NAMES_H
#define GRADECLASS_NAMES_H

#include <stddef.h>

/* The longest name, in bytes. */
#define NAME_MAX_BYTES 100

/* The names the class's output folder uses at its top level; NULL ends it. */
extern const char *const class_reserved[];

/*
 * NULL when name can be a student's folder, else why not (in buf, or a
 * constant string).
 */
const char *name_problem(const char *name, char *buf, size_t len);

/* gradeclass check-name NAME */
int check_name_main(int argc, char **argv);

#endif
