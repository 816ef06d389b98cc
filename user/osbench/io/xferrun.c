// SPDX-License-Identifier: GPL-2.0
#include "xferrun.h"
#include "device.h"
#include "util.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* Start bindir/prog with argv, stdout into out_fd, stderr kept; or -1. */
static pid_t start(const char *bindir, char *const argv[], int out_fd)
{
	char path[PATH_MAX + 16];
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", bindir, argv[0]);
	pid = fork();
	if (pid < 0)
		return fail_errno("fork");
	if (pid == 0) {
		if (dup2(out_fd, 1) < 0)
			_exit(127);
		execv(path, argv);
		msg_errno("cannot run %s", path);
		_exit(127);
	}
	return pid;
}

static int finish(pid_t pid, const char *what)
{
	int st;

	if (waitpid(pid, &st, 0) < 0)
		return fail_errno("waitpid");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return fail("%s failed (status 0x%x)", what, st);
	return 0;
}

/* The milliseconds of the "Transmission time" line in fd's file. */
static double parse_ms(int fd)
{
	char buf[512];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	double ms;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "Transmission time: %lf ms", &ms) != 1)
		return -1;
	return ms;
}

/* Sender and receiver, their stdout into sfd and rfd; 0 or -1. */
static int run_pair(const char *bindir, char **sargv, char **rargv, int sfd,
		    int rfd)
{
	pid_t s = start(bindir, sargv, sfd);
	pid_t r = s < 0 ? -1 : start(bindir, rargv, rfd);
	int bad;

	if (s < 0)
		return -1;
	if (r < 0) {
		/* The sender waits for a receiver that never comes. */
		kill(s, SIGTERM);
		finish(s, sargv[0]);
		return -1;
	}
	bad = finish(r, rargv[0]);
	bad |= finish(s, sargv[0]);
	return bad ? -1 : 0;
}

double xferrun_pair(const char *bindir, char **sargv, char **rargv,
		    const char *what)
{
	/* The programs' stdout, to read the time line from. */
	int sfd = memfd_create("sender", 0), rfd = memfd_create("receiver", 0);
	double ms = -1;

	if (sfd < 0 || rfd < 0)
		msg_errno("memfd_create");
	else if (run_pair(bindir, sargv, rargv, sfd, rfd) == 0)
		ms = parse_ms(rfd);
	if (sfd >= 0)
		close(sfd);
	if (rfd >= 0)
		close(rfd);
	if (ms <= 0)
		return fail("%s: the transfer failed", what);
	return ms;
}

int xferrun_find_programs(char bindir[PATH_MAX])
{
	ssize_t n = readlink("/proc/self/exe", bindir, PATH_MAX - 1);

	if (n < 0)
		return fail_errno("cannot find this program (/proc/self/exe)");
	bindir[n] = '\0';
	*strrchr(bindir, '/') = '\0';
	if (access(dev_path(DEV_MASTER), F_OK))
		return fail_errno("%s (is the syncdev module loaded?)",
				  dev_path(DEV_MASTER));
	return 0;
}

unsigned long long xferrun_module_param(const char *name)
{
	unsigned long long v;

	return dev_module_param(name, &v) ? 0 : v;
}
