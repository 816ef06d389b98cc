// SPDX-License-Identifier: GPL-2.0
/*
 * The slave's two ways of writing a file whose name nothing had: unnamed
 * (O_TMPFILE, linked to its name at the commit) where the directory and
 * the process allow it, else a named temporary renamed into place.  Which
 * one a slave took is seen in what a SIGKILL in the middle of a transfer
 * leaves: nothing of an unnamed file, the temporary name of a named one.
 * Both give the same bytes and modes; the named one is taken under
 * SYNCDEV_NO_TMPFILE and where a seccomp filter refuses linkat; a name
 * taken during the transfer is replaced either way.
 */
#include "check.h"
#include "tmpdir.h"
#include "crc32c.h"
#include "devio.h"
#include "frame.h"
#include "outfile/outfile.h"
#include "util.h"
#include "xfer.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* Two sets of files: a few of every kind, and many small ones held at once. */
#define NFILES 150
#define FEW 5
static const size_t few[FEW] = { 0, 1, 1000, 70000, 1u << 20 };

static size_t size_of(unsigned int set, unsigned int i)
{
	return set ? (i * 37u) % 3000u : few[i];
}

static unsigned int count_of(unsigned int set)
{
	return set ? NFILES : FEW;
}

/* What the slave's probe decides for dir, tried here the same way. */
static int unnamed_here(void)
{
	int tf = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600), ok;

	if (tf < 0)
		return 0;
	ok = linkat(tf, "", AT_FDCWD, path("probe"), AT_EMPTY_PATH) == 0;
	unlink(path("probe"));
	close(tf);
	return ok;
}

/* From here on system call nr fails with EPERM, as under a container's seccomp profile. */
static void refuse(unsigned int nr)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		_exit(8);
}

/*
 * The slave's side in a child on fd: xfer_recv into out[0..n-1], exit
 * code its result; system call nr refused there (0: none).
 */
/* Descriptors a slave started by start_slave may have (0: as many as it may). */
static rlim_t fd_cap;
/* start_slave's child checks what it holds after the commit (held_after). */
static int check_release;

/* This process's descriptors on files of the test directory. */
static unsigned int own_files(void)
{
	char fdpath[64], target[400];
	unsigned int fd, n = 0;
	ssize_t len;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%u", fd);
		len = readlink(fdpath, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		n += !strncmp(target, dir, strlen(dir));
	}
	return n;
}

/*
 * After a commit of n unnamed files: each in place under its name and
 * its descriptor still held, for the answer not to wait for the closes;
 * none held after outfile_release.  ret, or 20.
 */
static int held_after(int ret, char **out, unsigned int n)
{
	unsigned int i, held = own_files();

	for (i = 0; i < n; i++)
		if (access(out[i], F_OK))
			return 20;
	outfile_release();
	return held == n && own_files() == 0 ? ret : 20;
}

static pid_t start_slave(int fd, char **out, unsigned int n, unsigned int nr)
{
	struct xfer_opts o = { 0 };
	struct xfer_pages pg;
	struct xfer_report r;
	unsigned char absent[NFILES];
	struct devbuf b;
	pid_t pid = fork();
	unsigned int i;

	if (pid)
		return pid;
	if (nr)
		refuse(nr);
	if (fd_cap) {
		struct rlimit rl = { .rlim_cur = fd_cap, .rlim_max = fd_cap };

		if (setrlimit(RLIMIT_NOFILE, &rl))
			_exit(8);
	}
	for (i = 0; i < n; i++)
		absent[i] = access(out[i], F_OK) != 0;
	o.absent = absent;
	devbuf_open(&b, fd, METHOD_FCNTL, 4096);
	i = (unsigned int)xfer_recv(&b, out, n, &o, &r, &pg);
	_exit(check_release ? held_after((int)i, out, n) : (int)i);
}

/* The frames of file index with size bytes of seed's data, into s: its length. */
static size_t put_file(unsigned char *s, unsigned int index, size_t size,
		       unsigned int seed, int trailer)
{
	unsigned char *d = s + FRAME_FILE_HDR_LEN;
	size_t i;

	frame_put_file_hdr(s, index, size);
	for (i = 0; i < size; i++) {
		seed = seed * 1103515245u + 12345u;
		d[i] = (unsigned char)(seed >> 16);
	}
	if (trailer)
		frame_put_trailer(d + size, crc32c(0, d, size));
	return FRAME_FILE_HDR_LEN + size + (trailer ? FRAME_TRAILER_LEN : 0);
}

/*
 * The child's descriptors on files of the test directory: *named those
 * with a name there, *unnamed those without (O_TMPFILE: "#ino (deleted)"
 * or "/dir/#ino (deleted)").
 */
static void child_files(pid_t pid, int *named, int *unnamed)
{
	char fdpath[64], target[400];
	unsigned int fd;
	ssize_t n;

	*named = *unnamed = 0;
	for (fd = 0; fd < 64; fd++) {
		snprintf(fdpath, sizeof(fdpath), "/proc/%d/fd/%u", (int)pid, fd);
		n = readlink(fdpath, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strncmp(target, dir, strlen(dir)))
			continue;
		if (strstr(target, " (deleted)"))
			++*unnamed;
		else if (strstr(target, ".syncdev-"))
			++*named;
	}
}

/*
 * Until the child holds file 2's temporary open (the first one done:
 * held if unnamed, closed if named): 1, or 0 if it never did (it died,
 * or 30 s passed: a bound against a hang, not a measurement).
 */
static int wait_second_file(pid_t pid)
{
	int named, unnamed, tries;

	for (tries = 0; tries < 30000; tries++) {
		child_files(pid, &named, &unnamed);
		if (named == 1 && unnamed == 0 && count_entries(".syncdev-") == 2)
			return 1;
		if (unnamed == 2)
			return 1;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return 0;
		usleep(1000);
	}
	return 0;
}

/*
 * A slave killed with SIGKILL while file 2 of 2 arrives: the number of
 * temporary files it left (0: both were unnamed), or -1 if it was not
 * caught in the middle.
 */
static int killed_leaves(unsigned int nr)
{
	static unsigned char s[4096];
	char *out[2] = { path("out0"), path("out1") };
	size_t len = FRAME_STREAM_HDR_LEN;
	int sv[2], left;
	pid_t pid;

	remove_outputs();
	frame_put_stream_hdr(s, 2);
	len += put_file(s + len, 0, 100, 1, 1);
	len += put_file(s + len, 1, 1000, 2, 0) - 500;	/* half of its data */
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pid = start_slave(sv[0], out, 2, nr);
	close(sv[0]);
	write_full(sv[1], s, len);
	left = wait_second_file(pid) ? 0 : -1;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(sv[1]);
	/* A final name would be a partial file: never. */
	if (left == 0)
		left = access(out[0], F_OK) && access(out[1], F_OK) ?
		       count_entries(".syncdev-") : 99;
	remove_outputs();
	return left;
}

static void test_which_way(void)
{
	int here = unnamed_here();

	/* Root (CAP_DAC_READ_SEARCH) on a local file system: unnamed. */
	CHECK(killed_leaves(0) == (here ? 0 : 2),
	      "a slave killed mid-transfer leaves %s",
	      here ? "nothing (unnamed files)" :
		     "its two temporary files (unnamed files not allowed here)");
	setenv("SYNCDEV_NO_TMPFILE", "1", 1);
	CHECK(killed_leaves(0) == 2,
	      "SYNCDEV_NO_TMPFILE=1: named temporary files (two left by a SIGKILL)");
	unsetenv("SYNCDEV_NO_TMPFILE");
	CHECK(killed_leaves(__NR_linkat) == 2,
	      "linkat refused by seccomp: named temporary files (two left by a SIGKILL)");
}

/*
 * The files of set in one stream to PREFIX<i>, the slave in a child
 * (system call nr refused there, 0: none); before file k's trailer (k <
 * 0: never) "out0" is made by another hand, a name taken during the
 * transfer.  The slave's exit code.
 */
static int transfer(const char *prefix, unsigned int set, unsigned int nr,
		    int k)
{
	static unsigned char s[FRAME_STREAM_HDR_LEN + NFILES * 3100 + (1u << 21)];
	static char names[NFILES][320];
	unsigned int i, n = count_of(set);
	size_t len = FRAME_STREAM_HDR_LEN, at = 0;
	char *out[NFILES];
	int sv[2], st;
	pid_t pid;

	frame_put_stream_hdr(s, n);
	for (i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "%s%s%u", path(""), prefix,
			 i);
		out[i] = names[i];
		len += put_file(s + len, i, size_of(set, i), 10 + i, 1);
		if ((int)i == k)
			at = len - FRAME_TRAILER_LEN;
	}
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pid = start_slave(sv[0], out, n, nr);
	close(sv[0]);
	if (k >= 0) {
		write_full(sv[1], s, at);
		wait_second_file(pid);
		make_file("out0", 7, 99);
	}
	write_full(sv[1], s + at, len - at);
	shutdown(sv[1], SHUT_WR);
	waitpid(pid, &st, 0);
	close(sv[1]);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* a<i> and b<i> the same bytes and mode, for each file of set. */
static int same_outputs(const char *a, const char *b, unsigned int set)
{
	struct stat sa, sb;
	char pa[320], pb[320];
	unsigned int i;

	for (i = 0; i < count_of(set); i++) {
		snprintf(pa, sizeof(pa), "%s%u", path(a), i);
		snprintf(pb, sizeof(pb), "%s%u", path(b), i);
		if (!same_file(pa, pb) || stat(pa, &sa) || stat(pb, &sb) ||
		    sa.st_mode != sb.st_mode ||
		    sa.st_size != (off_t)size_of(set, i))
			return 0;
	}
	return 1;
}

/* Set received with system call nr refused (0: none): as ref<i>. */
static int same_as_ref(unsigned int set, unsigned int nr)
{
	int ok;

	ok = transfer("out", set, nr, -1) == 0 && same_outputs("out", "ref", set);
	remove_outputs();
	return ok;
}

static void test_same_bytes(void)
{
	unsigned int set;

	for (set = 0; set < 2; set++) {
		CHECK(transfer("ref", set, __NR_linkat, -1) == 0,
		      "linkat refused: %u files received (named temporaries)",
		      count_of(set));
		CHECK(same_as_ref(set, 0),
		      "%u files, by default: the same bytes and modes as the named way",
		      count_of(set));
		setenv("SYNCDEV_NO_TMPFILE", "1", 1);
		CHECK(same_as_ref(set, 0),
		      "%u files, SYNCDEV_NO_TMPFILE=1: the same bytes and modes",
		      count_of(set));
		unsetenv("SYNCDEV_NO_TMPFILE");
		fd_cap = 100;
		CHECK(same_as_ref(set, 0),
		      "%u files, 100 descriptors allowed: the same bytes and modes (named past the limit)",
		      count_of(set));
		fd_cap = 0;
		if (set)
			continue;
		if (unnamed_here()) {
			check_release = 1;
			CHECK(transfer("out", 0, 0, -1) == 0,
			      "after the commit every file is in place and held open, and closed by outfile_release");
			check_release = 0;
			remove_outputs();
		}
		CHECK(transfer("out", 0, 0, 1) == 0 &&
		      same_outputs("out", "ref", 0) &&
		      count_entries(".syncdev-") == 0,
		      "a name taken during the transfer is replaced, no temporary left");
		remove_outputs();
	}
}

int main(void)
{
	if (tmpdir_make())
		return 1;
	test_which_way();
	test_same_bytes();
	tmpdir_remove();
	return check_done();
}
