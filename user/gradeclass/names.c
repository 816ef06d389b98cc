// SPDX-License-Identifier: GPL-2.0
/*
 * Which student names the grader accepts.  A student's folder OUT/NAME
 * sits beside the class's own files, and OUT/work/NAME is their share:
 * a student named "work" or "summary.csv" would be written over by, or
 * write over, what the grader keeps there.
 */
#include "names.h"
#include "slurp.h"
#include "util.h"

#include <stdlib.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *const class_reserved[] = {
	"work",			/* the students' shares: OUT/work/NAME */
	"students",		/* the batch's names, one a line */
	"rubric",		/* the rubric the class was graded with */
	"grade.options",	/* what the grades depend on */
	"grade.options.new",	/* the options of a run, before they are kept */
	"summary.csv",
	"summary.json",
	"results.csv",
	"failures.csv",
	"cases.csv",
	"report.md",
	"report.html",
	"times.csv",		/* a student's times, where OUT is the student's */
	NULL,
};

/* The reserved name that name is, ignoring case (a case-blind disk). */
static const char *reserved(const char *name)
{
	size_t i;

	for (i = 0; class_reserved[i]; i++)
		if (!strcasecmp(name, class_reserved[i]))
			return class_reserved[i];
	return NULL;
}

const char *name_problem(const char *name, char *buf, size_t len)
{
	const unsigned char *p;
	const char *r;

	if (!*name)
		return "the name is empty";
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return "'.' and '..' name no folder of their own";
	if (strlen(name) > NAME_MAX_BYTES) {
		snprintf(buf, len, "longer than %d bytes", NAME_MAX_BYTES);
		return buf;
	}
	for (p = (const unsigned char *)name; *p; p++) {
		if (*p == '/')
			return "a '/' in the name";
		if (*p < 0x20 || *p == 0x7f) {
			snprintf(buf, len, "a control character (byte 0x%02x) in the name", *p);
			return buf;
		}
		/* C1 (U+0080 to U+009F, UTF-8 c2 80..9f): CSI, NEL, ... */
		if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			snprintf(buf, len, "a control character (U+%04X) in the name", p[1]);
			return buf;
		}
	}
	/* A name that reads as an option to the commands the batch runs. */
	if (*name == '-')
		return "the name starts with '-'";
	r = reserved(name);
	if (r) {
		snprintf(buf, len, "'%s' is a name the class's output folder uses itself", r);
		return buf;
	}
	return NULL;
}

int check_name_main(int argc, char **argv)
{
	char buf[128];
	const char *why;

	if (argc != 2) {
		msg("usage: gradeclass check-name NAME");
		return EXIT_USAGE;
	}
	why = name_problem(argv[1], buf, sizeof(buf));
	if (why) {
		/* The name as a terminal may show it: control characters as spaces. */
		char *shown = xstrdup(argv[1]);

		text_clean(shown, strlen(shown));
		msg("student name refused: %s (the folder '%.120s')", why, shown);
		free(shown);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
