// SPDX-License-Identifier: GPL-2.0
/*
 * nsshare: a user's share of the device buffers (max_user_buffer_mb) is
 * one share however many uids the user has: the uids of a user namespace
 * the user made, with a delegated range of subordinate uids mapped in it
 * (as newuidmap does), count as the user.  Run as root in the test guest,
 * the module loaded, the device nodes open to every user; one "PASS name"
 * / "FAIL name: why" line each.
 *
 *	nsshare UID
 *
 * A child as UID fills UID's share with buffers (mmap of /dev/master_device)
 * and holds them.  Another child as UID makes a user namespace in which
 * root writes the map "0 100000 1000", becomes uid 5 there (uid 100005
 * outside), and asks for one more buffer: ENOSPC, while the module's
 * whole limit still has room.  Then the holder lets go, and the same
 * namespace gets its buffers (so the refusal was the share, not the
 * namespace).  A kernel without user namespaces has nothing to check: a
 * "# " note says so.
 */
#include "../unit/check.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "syncdev_abi.h"

#define SUBUID	100000
#define INNER	5

static unsigned long param(const char *name)
{
	char path[128];
	unsigned long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/syncdev/parameters/%s", name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lu", &v) != 1) {
		fprintf(stderr, "nsshare: no parameter %s: is syncdev loaded?\n",
			name);
		exit(1);
	}
	fclose(f);
	return v;
}

/* Buffers of this process: open and map @n; how many were made, errno. */
static int take(unsigned long n, unsigned long bufsz, int *err)
{
	unsigned long i;
	int fd;

	*err = 0;
	for (i = 0; i < n; i++) {
		fd = open(SYNCDEV_MASTER_PATH, O_RDWR);
		if (fd < 0 || mmap(NULL, bufsz, PROT_READ, MAP_SHARED, fd, 0) ==
			      MAP_FAILED) {
			*err = errno;
			return (int)i;
		}
	}
	return (int)i;
}

static int become(uid_t uid)
{
	return setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	       setresuid(uid, uid, uid);
}

/* A byte on @fd, or -1. */
static int get1(int fd)
{
	unsigned char c;

	return read(fd, &c, 1) == 1 ? c : -1;
}

static void put1(int fd, int v)
{
	unsigned char c = (unsigned char)v;

	if (write(fd, &c, 1) != 1)
		_exit(3);
}

/* The holder: UID's whole share, reported, then held until killed. */
static pid_t holder(uid_t uid, unsigned long n, unsigned long bufsz, int *rd)
{
	int p[2], err;
	pid_t pid;

	if (pipe(p))
		exit(1);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		put1(p[1], become(uid) ? 255 : take(n, bufsz, &err));
		pause();
		_exit(0);
	}
	close(p[1]);
	*rd = p[0];
	return pid;
}

static int write_map(pid_t pid, const char *which)
{
	char path[64], map[64];
	int fd, len, ok;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, which);
	len = snprintf(map, sizeof(map), "0 %d 1000\n", SUBUID);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, map, (size_t)len) == len;
	close(fd);
	return ok ? 0 : -1;
}

/*
 * UID in a namespace of its own, uid INNER there: @want buffers; the
 * count made, then the errno of the first refusal, on the pipe.
 */
static void in_namespace(uid_t uid, unsigned long want, unsigned long bufsz,
			 int *made, int *err)
{
	int go[2], res[2];
	pid_t pid;

	if (pipe(go) || pipe(res))
		exit(1);
	pid = fork();
	if (pid == 0) {
		int e = 0, n;

		if (become(uid) || unshare(CLONE_NEWUSER)) {
			put1(res[1], 254);
			put1(res[1], errno);
			_exit(0);
		}
		put1(res[1], 0);
		if (get1(go[0]) != 1 || setresgid(INNER, INNER, INNER) ||
		    setresuid(INNER, INNER, INNER)) {
			put1(res[1], 253);
			put1(res[1], errno);
			_exit(0);
		}
		n = take(want, bufsz, &e);
		put1(res[1], n);
		put1(res[1], e);
		_exit(0);
	}
	*made = -1;
	*err = 0;
	if (get1(res[0]) == 0) {
		put1(go[1], write_map(pid, "uid_map") || write_map(pid, "gid_map") ?
		     0 : 1);
		*made = get1(res[0]);
	} else {
		*made = 254;
	}
	*err = get1(res[0]);
	waitpid(pid, NULL, 0);
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
}

int main(int argc, char **argv)
{
	unsigned long bufsz, share, total, n;
	int rd, got, made, err;
	uid_t uid;
	pid_t h;

	if (argc != 2 || !strcmp(argv[1], "--help")) {
		printf("usage: nsshare UID\n"
		       "A user's buffer share holds for the uids of its user namespaces.\n");
		return argc == 2 ? 0 : 2;
	}
	if (access("/proc/self/ns/user", F_OK)) {
		printf("# no user namespaces in this kernel (CONFIG_USER_NS): no uids to map, nothing to check\n");
		return 0;
	}
	uid = (uid_t)atoi(argv[1]);
	bufsz = param("buf_size");
	share = param("max_user_buffer_mb") << 20;
	total = param("max_buffer_mb") << 20;
	n = share / bufsz;
	if (n < 1 || n > 200 || share + bufsz > total) {
		fprintf(stderr, "nsshare: the limits (buf_size %lu, share %lu, total %lu) do not fit the test\n",
			bufsz, share, total);
		return 1;
	}
	h = holder(uid, n, bufsz, &rd);
	got = get1(rd);
	CHECK(got == (int)n, "uid %u fills its share: %lu buffers (%d)",
	      (unsigned int)uid, n, got);
	in_namespace(uid, 1, bufsz, &made, &err);
	CHECK(made == 0 && err == ENOSPC,
	      "uid %u as uid %d of its own user namespace (uid %d outside): no buffer past its share, ENOSPC (made %d, %s)",
	      (unsigned int)uid, INNER, SUBUID + INNER, made, strerror(err));
	kill(h, SIGKILL);
	waitpid(h, NULL, 0);
	close(rd);
	in_namespace(uid, n, bufsz, &made, &err);
	CHECK(made == (int)n,
	      "once uid %u let go, the namespace's uid gets the whole share (made %d of %lu, %s)",
	      (unsigned int)uid, made, n, strerror(err));
	return check_done();
}
