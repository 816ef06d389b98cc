// SPDX-License-Identifier: GPL-2.0
/*
 * capdrop: run a command without the capabilities that reach into other
 * processes, other mount namespaces or the kernel's memory.
 *
 *	capdrop [--also sys_time|wake_alarm] COMMAND [ARG...]
 *
 * The grader starts each program under test with it
 * (scripts/grade/guest/grade.sh): as root a program may open devices and write files, but it cannot read the
 * master's input through /proc/PID/root, ptrace, process_vm_readv,
 * setns, mount, a file handle, a module, BPF, perf or /dev/mem; it cannot
 * set the console's log level (syslog(2)), make a device node (a
 * /dev/kmsg of its own beside confine's /dev) or lift the kernel's
 * limits (CAP_SYS_RESOURCE: the log's rate limits, quotas).  The
 * capabilities leave the bounding set too, and no_new_privs is set, so
 * neither a setuid program nor a file capability brings them back.
 *
 * --also drops one capability more, which neither program needs: the
 * grader drops CAP_SYS_TIME from the master and CAP_WAKE_ALARM from the
 * slave, so that neither's capabilities are a subset of the other's, and
 * the kernel lets neither reach into the other (/proc/PID/cwd, ptrace): a
 * master cannot write the slave's output files, a slave cannot read the
 * master's input.
 * Exit 2 on a usage error, 1 if a capability cannot be dropped or COMMAND
 * cannot be run.
 */
#include "util.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const int dropped[] = {
	CAP_SYS_PTRACE, CAP_SYS_ADMIN, CAP_SYS_MODULE, CAP_SYS_RAWIO,
	CAP_DAC_READ_SEARCH, CAP_BPF, CAP_PERFMON, CAP_SYS_BOOT,
	CAP_SYSLOG, CAP_MKNOD, CAP_SYS_RESOURCE,
};

#define NDROPPED (sizeof(dropped) / sizeof(dropped[0]))

/* The capability --also names, or -1. */
static int also_cap(const char *name)
{
	if (!strcmp(name, "sys_time"))
		return CAP_SYS_TIME;
	if (!strcmp(name, "wake_alarm"))
		return CAP_WAKE_ALARM;
	return -1;
}

/* Drop @cap from the bounding set; a capability this kernel does not know
 * (EINVAL: CAP_BPF before 5.8) cannot be held either. */
static void drop_bounding(int cap)
{
	if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
		die(EXIT_FAIL, "cannot drop capability %d from the bounding set: %s",
		    cap, strerror(errno));
}

/* Clear the dropped capabilities from the effective, permitted and
 * inheritable sets (glibc has no capset wrapper; libcap is not used). */
static int drop_from_sets(int also)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	size_t i;

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	for (i = 0; i < NDROPPED; i++) {
		unsigned int word = CAP_TO_INDEX(dropped[i]);
		unsigned int mask = CAP_TO_MASK(dropped[i]);

		data[word].effective &= ~mask;
		data[word].permitted &= ~mask;
		data[word].inheritable &= ~mask;
	}
	if (also >= 0) {
		data[CAP_TO_INDEX(also)].effective &= ~CAP_TO_MASK(also);
		data[CAP_TO_INDEX(also)].permitted &= ~CAP_TO_MASK(also);
		data[CAP_TO_INDEX(also)].inheritable &= ~CAP_TO_MASK(also);
	}
	return (int)syscall(SYS_capset, &hdr, data);
}

int main(int argc, char **argv)
{
	int also = -1;
	size_t i;

	set_progname(argv[0]);
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: capdrop [--also sys_time|wake_alarm] COMMAND [ARG...]\n\n"
		       "Run COMMAND without CAP_SYS_PTRACE, CAP_SYS_ADMIN, CAP_SYS_MODULE,\n"
		       "CAP_SYS_RAWIO, CAP_DAC_READ_SEARCH, CAP_BPF, CAP_PERFMON and\n"
		       "CAP_SYS_BOOT, CAP_SYSLOG, CAP_MKNOD and CAP_SYS_RESOURCE (and the\n"
		       "one --also names), with no_new_privs set.\n");
		return EXIT_OK;
	}
	if (argc > 2 && !strcmp(argv[1], "--also")) {
		also = also_cap(argv[2]);
		if (also < 0)
			die(EXIT_USAGE, "--also takes sys_time or wake_alarm, not '%s'", argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc < 2)
		die(EXIT_USAGE, "usage: capdrop [--also sys_time|wake_alarm] COMMAND [ARG...]");
	for (i = 0; i < NDROPPED; i++)
		drop_bounding(dropped[i]);
	if (also >= 0)
		drop_bounding(also);
	if (drop_from_sets(also))
		die_errno("cannot drop the capabilities");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		die_errno("cannot set no_new_privs");
	execvp(argv[1], argv + 1);
	die_errno("cannot run %s", argv[1]);
}
