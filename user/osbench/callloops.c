// SPDX-License-Identifier: GPL-2.0
/* Call loops shared by osbench syscall, syscall-rate and spawn (callloops.h). */
#include "callloops.h"
#include "util.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int call_getpid(void *arg, uint64_t n)
{
	(void)arg;
	while (n--)
		syscall(SYS_getpid);
	return 0;
}

int call_open_close(void *arg, uint64_t n)
{
	const char *path = arg;
	int fd;

	while (n--) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			msg_errno("open %s", path);
			return -1;
		}
		if (close(fd)) {
			msg_errno("close %s", path);
			return -1;
		}
	}
	return 0;
}

int call_fork(void *arg, uint64_t n)
{
	pid_t pid;

	(void)arg;
	while (n--) {
		pid = fork();
		if (pid < 0) {
			msg_errno("fork");
			return -1;
		}
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, NULL, 0) < 0) {
			msg_errno("waitpid");
			return -1;
		}
	}
	return 0;
}
