// SPDX-License-Identifier: GPL-2.0
/*
 * asuser: run a command as another user, without a password database
 * (the test guest has none).
 *
 *	asuser UID GID COMMAND [ARG...]
 *
 * Drops the supplementary groups, then sets the group and user IDs (real,
 * effective and saved) and executes COMMAND.  Exit 2 on a usage error, 1
 * if the IDs cannot be set or COMMAND cannot be run.
 */
#include "util.h"

#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end1, *end2;
	long uid, gid;

	set_progname(argv[0]);
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: asuser UID GID COMMAND [ARG...]\n\n"
		       "Run COMMAND with these user and group IDs and no supplementary groups.\n");
		return EXIT_OK;
	}
	if (argc < 4)
		die(EXIT_USAGE, "usage: asuser UID GID COMMAND [ARG...]");
	uid = strtol(argv[1], &end1, 10);
	gid = strtol(argv[2], &end2, 10);
	if (*end1 || *end2 || uid < 0 || gid < 0)
		die(EXIT_USAGE, "UID and GID must be numbers");
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid))
		die_errno("cannot become %ld:%ld", uid, gid);
	execvp(argv[3], argv + 3);
	die_errno("cannot run %s", argv[3]);
}
