// SPDX-License-Identifier: GPL-2.0
/*
 * Reading what a guest wrote into its share (user/gradeclass/share.c):
 * a regular file whole and capped, and each thing a guest can plant in
 * place of a file refused: a link to a host file at the last component
 * and in the middle, a FIFO (which must not block: an alarm ends the test
 * if it does), a device node, a directory, '..', '.', an empty
 * component and an absolute path.
 */
#include "check.h"
#include "share.h"
#include "tmpdir.h"
#include "util.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>

static char why[SHARE_WHY_MAX];

/* share_open of dir/p then share_copy of up to max bytes into a buffer. */
static int get(const char *p, uint64_t max, char *out, size_t *n)
{
	char tmp[] = "/tmp/syncdev-share-XXXXXX";
	int fd = share_open(dir, p, why, sizeof(why)), o, rc;

	*n = 0;
	if (fd < 0)
		return -2;
	o = mkstemp(tmp);
	rc = share_copy(fd, o, max, why, sizeof(why));
	close(fd);
	*n = (size_t)pread(o, out, 4096, 0);
	close(o);
	unlink(tmp);
	return rc;
}

/* share_open refuses p with a reason that contains what. */
static void refused(const char *p, const char *what, const char *name)
{
	char buf[4096];
	size_t n;

	CHECK(get(p, 4096, buf, &n) == -2 && strstr(why, what),
	      "share: %s refused: %s", name, why);
}

/* A device node (or, where mknod is not allowed, a socket). */
static const char *make_special(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s;

	if (!mknod(path("dev"), S_IFCHR | 0600, makedev(1, 3)))
		return "a character device";
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path("dev"));
	bind(s, (struct sockaddr *)&a, sizeof(a));
	close(s);
	return "a socket";
}

static void test_refusals(void)
{
	const char *kind;

	symlink(path("canary"), path("link"));
	symlink("d", path("dlink"));
	mkfifo(path("fifo"), 0600);
	kind = make_special();
	refused("link", "link is a symbolic link", "a link to a host file");
	refused("dlink/f", "dlink is a symbolic link", "a link in a middle component");
	refused("fifo", "fifo is a FIFO, not a regular file", "a FIFO, without blocking");
	refused("dev", kind, "a device node or socket");
	refused("d", "d is a directory, not a regular file", "a directory");
	refused("canary/x", "canary is a regular file, not a directory",
		"a file as a directory");
	refused("d/../canary", "has a '..' component", "'..'");
	refused("d/./f", "has a '.' component", "'.'");
	refused("d//f", "has an empty component", "an empty component");
	refused("", "the path is empty", "an empty path");
	refused(path("canary"), "is absolute", "an absolute path");
	refused("nope", "No such file or directory", "a missing file");
}

static void test_copy(void)
{
	char buf[4096];
	size_t n;

	CHECK(get("d/f", 4096, buf, &n) == 0 && n == 100 &&
	      !memcmp(buf, slurp(path("d/f")), 100),
	      "share: a file in a directory copied whole, byte for byte");
	CHECK(get("d/f", 100, buf, &n) == 0 && n == 100,
	      "share: a file of exactly the cap is whole");
	CHECK(get("d/f", 99, buf, &n) == 1 && n == 99 &&
	      !memcmp(buf, slurp(path("d/f")), 99),
	      "share: a file one byte over the cap: its first 99 bytes, and 'more'");
	CHECK(get("d/f", 0, buf, &n) == 1 && n == 0,
	      "share: a cap of 0 copies nothing and says 'more'");
	CHECK(get("canary", 4096, buf, &n) == 0 && n == 6,
	      "share: a file at the top");
}

int main(void)
{
	set_progname("test");
	/* A FIFO that blocked would hang the test: end it instead. */
	alarm(60);
	if (tmpdir_make())
		return 1;
	mkdir(path("d"), 0700);
	make_file("d/f", 100, 7);
	make_file("canary", 6, 1);
	test_copy();
	test_refusals();
	unlink(path("d/f"));
	rmdir(path("d"));
	tmpdir_remove();
	return check_done();
}
