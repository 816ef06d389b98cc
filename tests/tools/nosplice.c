// SPDX-License-Identifier: GPL-2.0
/*
 * nosplice: run a command on a kernel that takes no sendfile() and no
 * splice(): both fail with EINVAL (a file or device without the splice
 * operations) or ENOSYS (a kernel or seccomp profile without the calls),
 * every other call is untouched.  The tests of the fallbacks to read()
 * and write() run the master's fcntl mode and tcpcopy --zerocopy under
 * it (tests/vm/66-splice.sh).
 *
 *	nosplice [--errno EINVAL|ENOSYS] -- COMMAND [ARG]...
 *	nosplice [--errno EINVAL|ENOSYS] --probe
 *
 * --probe installs nothing: it calls sendfile() from a memfd and splice()
 * from a pipe, both to /dev/null, and exits 0 if each failed with the
 * errno, 1 if not (saying what it did), so that a test can show that the
 * filter it runs under is there.  Exit 2 on a usage error, 1 if the
 * filter cannot be installed, 127 if COMMAND cannot be run.
 */
#include "denycalls.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct {
	const char *name;
	int err;
} errnos[] = {
	{ "EINVAL", EINVAL },
	{ "ENOSYS", ENOSYS },
};

#define NERRNOS (sizeof(errnos) / sizeof(errnos[0]))

static const char usage[] =
	"usage: nosplice [--errno EINVAL|ENOSYS] -- COMMAND [ARG]...\n"
	"       nosplice [--errno EINVAL|ENOSYS] --probe\n";

static int parse_errno(const char *arg)
{
	size_t i;

	for (i = 0; i < NERRNOS; i++)
		if (!strcmp(arg, errnos[i].name))
			return errnos[i].err;
	die(EXIT_USAGE, "--errno takes EINVAL or ENOSYS, not '%s'\n%s", arg, usage);
}

static const char *errno_name(int err)
{
	size_t i;

	for (i = 0; i < NERRNOS; i++)
		if (errnos[i].err == err)
			return errnos[i].name;
	return strerror(err);
}

/* r, errno: what CALL did; 0 if it failed with want, else 1 after a message. */
static int refused(const char *call, ssize_t r, int want)
{
	if (r >= 0) {
		msg("%s() moved %zd bytes: not refused", call, r);
		return 1;
	}
	if (errno != want) {
		msg("%s() failed with %s, not %s", call, errno_name(errno), errno_name(want));
		return 1;
	}
	return 0;
}

/* --probe: sendfile() and splice() each once, both must fail with want. */
static int probe(int want)
{
	int in, out, p[2], bad;
	char c = 'x';
	off_t pos = 0;
	ssize_t r;

	in = memfd_create("nosplice", MFD_CLOEXEC);
	out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (in < 0 || out < 0 || write(in, &c, 1) != 1)
		die_errno("cannot make the probe's memfd or open /dev/null");
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) || write(p[1], &c, 1) != 1)
		die_errno("cannot make the probe's pipe");
	r = sendfile(out, in, &pos, 1);
	bad = refused("sendfile", r, want);
	r = splice(p[0], NULL, out, NULL, 1, 0);
	bad |= refused("splice", r, want);
	/* The rest runs: the byte a refused splice() left is in the pipe. */
	if (!bad && read(p[0], &c, 1) != 1)
		die_errno("read() of the probe's pipe failed: more than the two calls refused");
	if (!bad)
		printf("nosplice: sendfile() and splice() fail with %s\n", errno_name(want));
	return bad ? EXIT_FAIL : EXIT_OK;
}

static void run(char **cmd, int err)
{
	unsigned int nrs[] = {
		__NR_sendfile,
#ifdef __NR_sendfile64
		__NR_sendfile64,
#endif
		__NR_splice,
	};

	if (deny_calls(nrs, sizeof(nrs) / sizeof(nrs[0]), err))
		die_errno("cannot install the seccomp filter");
	execvp(cmd[0], cmd);
	msg_errno("cannot run %s", cmd[0]);
	exit(127);
}

int main(int argc, char **argv)
{
	int i = 1, err = EINVAL;

	set_progname(argv[0]);
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("%sRun COMMAND with sendfile() and splice() failing with the errno\n"
		       "(EINVAL unless told), every other system call untouched; a call\n"
		       "of another ABI (i386, x32) kills it.  --probe: check that\n"
		       "sendfile() and splice() fail with the errno here (exit 0) or\n"
		       "not (exit 1).\n", usage);
		return EXIT_OK;
	}
	if (i < argc && !strcmp(argv[i], "--errno")) {
		if (i + 1 == argc)
			die(EXIT_USAGE, "--errno needs a value\n%s", usage);
		err = parse_errno(argv[i + 1]);
		i += 2;
	}
	if (i < argc && !strcmp(argv[i], "--probe")) {
		if (i + 1 != argc)
			die(EXIT_USAGE, "--probe takes no command\n%s", usage);
		return probe(err);
	}
	if (i == argc)
		die(EXIT_USAGE, "no command\n%s", usage);
	if (strcmp(argv[i], "--"))
		die(EXIT_USAGE, "unknown option '%s'\n%s", argv[i], usage);
	if (i + 1 == argc)
		die(EXIT_USAGE, "no command after --\n%s", usage);
	run(argv + i + 1, err);
	return EXIT_FAIL;
}
