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
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
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

/*
 * The filter's refusals for list into code[*n .. cap - 2] (one place
 * left for the final allow): 0, or -1 after a message.
 */
static int add_calls(char *list, struct sock_filter *code, unsigned int *n,
		     unsigned int cap)
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
		if (*n + 3 > cap) {
			fprintf(stderr, "refuse: too many system calls\n");
			return -1;
		}
		code[(*n)++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ |
							    BPF_K, calls[i].nr,
							    0, 1);
		code[(*n)++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
							    SECCOMP_RET_ERRNO |
							    EPERM);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct sock_filter code[4 + 2 * NCALLS + 1] = {
		/* Another architecture's numbers mean other calls: refuse. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
	};
	unsigned int n = 4;
	struct sock_fprog prog = { .filter = code };

	if (argc == 2 && !strcmp(argv[1], "--help"))
		return usage(stdout, 0);
	if (argc < 3)
		return usage(stderr, 2);
	if (add_calls(argv[1], code, &n, sizeof(code) / sizeof(code[0])))
		return 2;
	code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						 SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fprintf(stderr, "refuse: cannot install the filter: %s\n",
			strerror(errno));
		return 1;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "refuse: cannot run '%s': %s\n", argv[2],
		strerror(errno));
	return 127;
}
