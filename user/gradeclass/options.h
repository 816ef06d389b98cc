/* SPDX-License-Identifier: GPL-2.0 */
/*
 * grade.options: what a batch's grades depend on, one "key=value" a line
 * (scripts/grade/grade writes it), and what differs between two.
 */
#ifndef GRADECLASS_OPTIONS_H
#define GRADECLASS_OPTIONS_H

#include <stddef.h>

/* Keys in the order of their first line; a later line of a key wins. */
struct options {
	char **key, **val;
	size_t n;
};

/* Read path into *o; -1 with errno when it cannot be read. */
int options_read(const char *path, struct options *o);
/* The value of key, or NULL. */
const char *options_get(const struct options *o, const char *key);
/* Set key (in place if it is there, else at the end). */
void options_set(struct options *o, const char *key, const char *val);
void options_free(struct options *o);

/*
 * The compared keys (all but shard and rubric_file, which say which part
 * of the class and where, not how it was graded, and those of the
 * NULL-terminated skip, if any) whose values differ, as "key: 'A' vs 'B'"
 * ("(none)" for a missing key), sorted by key.  Returns how many; *lines
 * (free each and the array) gets them.
 */
size_t options_diff(const struct options *a, const struct options *b,
		    const char *const *skip, char ***lines);

#endif
