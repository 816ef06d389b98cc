/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which case a guest's console line belongs to, from the host's own
 * control file (STAGE/<log base>.control, written by the host's watcher
 * from the guest's control channel: "begin K OFFSET", "run K R OFFSET",
 * "end K OFFSET", "done OFFSET", "ignored N"): a line at byte offset X
 * belongs to the case whose begin has the greatest OFFSET <= X; lines
 * before the first begin, or with no control file, to the boot's first
 * case.  No text in the console ever selects a case.
 */
#ifndef GRADECLASS_ATTRIB_H
#define GRADECLASS_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

/* The kernel-problem lines of a boot's cases, one side's console. */
struct control {
	size_t nbegin;
	uint64_t off[1024];	/* begin offsets, increasing */
	size_t k[1024];		/* their cases, 1-based, increasing */
	size_t last_begun, last_ended;	/* 0: none */
	int present, done;
};

/* The control file at path (absent: c->present is 0). */
void control_load(const char *path, size_t ncases, struct control *c);

/* The 1-based case a console line at offset x belongs to. */
size_t control_case(const struct control *c, uint64_t x);

/*
 * For each of ncases cases, the first kernel-problem line (matching the
 * extended regular expression in ere_path) of the console log at log,
 * cleaned and cut to 200 bytes, into first[K - 1] (malloc'ed, or left
 * NULL).  0, or -1 after a message when the expression cannot be read.
 */
int console_problems(const char *log, const struct control *c, const char *ere_path,
		     char **first, size_t ncases);

#endif
