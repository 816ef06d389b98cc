// SPDX-License-Identifier: GPL-2.0
/*
 * gradeclass share-read [--max BYTES] ROOT PATH
 * gradeclass share-copy [--max BYTES] ROOT PATH DEST
 */
#include "share.h"
#include "util.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * [--max BYTES] then n operands: the index of the first, or -1 after a
 * message.
 */
static int share_args(int argc, char **argv, int n, uint64_t *max)
{
	int i = 1;

	*max = SHARE_MAX_DEFAULT;
	if (i < argc && !strcmp(argv[i], "--max")) {
		if (i + 1 >= argc || parse_size(argv[i + 1], max)) {
			msg("%s: --max wants a number of bytes (K and M suffixes too), not '%s'",
			    argv[0], i + 1 < argc ? argv[i + 1] : "");
			return -1;
		}
		i += 2;
	}
	if (argc - i != n) {
		msg("usage: gradeclass %s [--max BYTES] ROOT PATH%s", argv[0],
		    n == 3 ? " DEST" : "");
		return -1;
	}
	return i;
}

/* The exit status of a copy that returned rc. */
static int copy_status(int rc, const char *cmd, const char *path,
		       uint64_t max, const char *why)
{
	if (rc < 0) {
		msg("%s: %s: %s", cmd, path, why);
		return EXIT_FAIL;
	}
	if (rc > 0) {
		msg("%s: %s holds more than %" PRIu64 " bytes: the first %" PRIu64
		    " copied", cmd, path, max, max);
		return SHARE_EXIT_TRUNCATED;
	}
	return EXIT_OK;
}

/* share_open with the refusal said; -1 after it. */
static int open_or_say(const char *cmd, const char *root, const char *path)
{
	char why[SHARE_WHY_MAX];
	int fd = share_open(root, path, why, sizeof(why));

	if (fd < 0)
		msg("%s: refused %s in the share %s: %s", cmd, path, root, why);
	return fd;
}

int share_read_main(int argc, char **argv)
{
	char why[SHARE_WHY_MAX];
	uint64_t max;
	int i = share_args(argc, argv, 2, &max), fd, rc;

	if (i < 0)
		return EXIT_USAGE;
	fd = open_or_say(argv[0], argv[i], argv[i + 1]);
	if (fd < 0)
		return EXIT_FAIL;
	rc = share_copy(fd, STDOUT_FILENO, max, why, sizeof(why));
	close(fd);
	return copy_status(rc, argv[0], argv[i + 1], max, why);
}

int share_copy_main(int argc, char **argv)
{
	char why[SHARE_WHY_MAX];
	const char *dest;
	uint64_t max;
	int i = share_args(argc, argv, 3, &max), fd, out, rc;

	if (i < 0)
		return EXIT_USAGE;
	dest = argv[i + 2];
	fd = open_or_say(argv[0], argv[i], argv[i + 1]);
	if (fd < 0)
		return EXIT_FAIL;
	out = open(dest, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0) {
		msg_errno("%s: create %s", argv[0], dest);
		close(fd);
		return EXIT_FAIL;
	}
	rc = share_copy(fd, out, max, why, sizeof(why));
	close(fd);
	if (close(out) < 0 && rc >= 0) {
		snprintf(why, sizeof(why), "close %s: %s", dest, strerror(errno));
		rc = -1;
	}
	if (rc < 0)
		unlink(dest);
	return copy_status(rc, argv[0], argv[i + 1], max, why);
}
