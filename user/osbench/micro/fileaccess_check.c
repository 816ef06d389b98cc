// SPDX-License-Identifier: GPL-2.0
/*
 * The scratch file's bytes are known, so what a file system hands back
 * can be checked: the file holds pattern.h's stream cut into periods of
 * max-chunk bytes (byte o is pattern byte o mod period), every write puts
 * back exactly the bytes that are already there, and after a directory's
 * series the whole file is read back, with its cached pages dropped, and
 * compared.  On a network file system that read comes from the server.
 */
#include "fileaccess.h"
#include "pattern.h"
#include "util.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *fa_pattern_new(size_t period)
{
	char *buf = xmalloc(2 * period);

	/* Twice, so that a chunk at any offset is one contiguous window. */
	pattern_fill(buf, period, 0);
	memcpy(buf + period, buf, period);
	return buf;
}

/* The first differing offset of a block read back. */
static size_t first_diff(const char *got, const char *want, size_t n)
{
	size_t i;

	for (i = 0; i < n && got[i] == want[i]; i++)
		;
	return i;
}

int fa_verify(int fd, uint64_t fsize, const char *pattern, size_t period,
	      const char *where)
{
	char *buf = xmalloc(period);
	uint64_t off;
	ssize_t got;
	int err, rc = EXIT_OK;

	err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (err)
		msg("%s: posix_fadvise(DONTNEED): %s: the check reads the "
		    "page cache", where, strerror(err));
	for (off = 0; off < fsize && rc == EXIT_OK; off += period) {
		got = pread(fd, buf, period, (off_t)off);
		if (got != (ssize_t)period) {
			if (got < 0)
				msg_errno("%s: reading back at %llu", where,
					  (unsigned long long)off);
			else
				msg("%s: reading back at %llu: %zd bytes, "
				    "want %zu", where,
				    (unsigned long long)off, got, period);
			rc = EXIT_FAIL;
		} else if (memcmp(buf, pattern, period)) {
			msg("%s: byte %llu of the scratch file differs from "
			    "what was written", where, (unsigned long long)
			    (off + first_diff(buf, pattern, period)));
			rc = EXIT_CORRUPT;
		}
	}
	free(buf);
	return rc;
}
