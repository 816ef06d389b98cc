// SPDX-License-Identifier: GPL-2.0
/* Call loops shared by osbench syscall, syscall-rate and spawn (calls.h). */
#include "calls.h"
#include "util.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

void call_getpid(void *arg, uint64_t n)
{
	(void)arg;
	while (n--)
		syscall(SYS_getpid);
}

void call_open_close(void *arg, uint64_t n)
{
	const char *path = arg;
	int fd;

	while (n--) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die_errno("open %s", path);
		if (close(fd))
			die_errno("close %s", path);
	}
}

void call_fork(void *arg, uint64_t n)
{
	pid_t pid;

	(void)arg;
	while (n--) {
		pid = fork();
		if (pid < 0)
			die_errno("fork");
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, NULL, 0) < 0)
			die_errno("waitpid");
	}
}
