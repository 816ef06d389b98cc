// SPDX-License-Identifier: GPL-2.0
/*
 * refuse: run a command with some system calls refused, as the seccomp
 * profiles of container runtimes refuse them: each named call fails with
 * EPERM, every other one is untouched.  The tests of the fallbacks run
 * under it: fast's from io_uring to Linux AIO (tests/host/io_fast.sh),
 * the slave's from UFFDIO_COPY to faulting its mapping
 * (tests/host/pagefill.sh), the slave's from writing its files out to
 * syncfs on ext4 (tests/vmhost/durability.sh).
 *
 *	refuse CALL[,CALL]... COMMAND [ARG]...
 */
#include "denycalls.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct {
	const char *name;
	unsigned int nr;
} calls[] = {
	{ "io_uring_setup", __NR_io_uring_setup },
	{ "userfaultfd", __NR_userfaultfd },
	{ "sync_file_range", __NR_sync_file_range },
};

#define NCALLS (sizeof(calls) / sizeof(calls[0]))

static int usage(FILE *to, int status)
{
	size_t i;

	fprintf(to, "usage: refuse CALL[,CALL]... COMMAND [ARG]...\n"
		"Run COMMAND with the named system calls refused (EPERM).\n"
		"CALL:");
	for (i = 0; i < NCALLS; i++)
		fprintf(to, " %s", calls[i].name);
	fputc('\n', to);
	return status;
}

/* The numbers of the calls named in list into nrs[]: 0, or -1 after a message. */
static int parse_calls(char *list, unsigned int *nrs, size_t *n)
{
	char *name, *save = NULL;
	size_t i;

	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NCALLS && strcmp(name, calls[i].name); i++)
			;
		if (i == NCALLS) {
			fprintf(stderr, "refuse: unknown system call '%s'\n",
				name);
			return -1;
		}
		if (*n == DENYCALLS_MAX) {
			fprintf(stderr, "refuse: too many system calls\n");
			return -1;
		}
		nrs[(*n)++] = calls[i].nr;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int nrs[DENYCALLS_MAX];
	size_t n = 0;

	if (argc == 2 && !strcmp(argv[1], "--help"))
		return usage(stdout, 0);
	if (argc < 3)
		return usage(stderr, 2);
	if (parse_calls(argv[1], nrs, &n))
		return 2;
	if (deny_calls(nrs, n, EPERM)) {
		fprintf(stderr, "refuse: cannot install the filter: %s\n",
			strerror(errno));
		return 1;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "refuse: cannot run '%s': %s\n", argv[2],
		strerror(errno));
	return 127;
}
