// SPDX-License-Identifier: GPL-2.0
#include "slurp.h"
#include "util.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

char *slurp(const char *path, size_t max, size_t *len)
{
	struct stat st;
	ssize_t n;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	buf = xmalloc(max + 1);
	n = read_full(fd, buf, max);
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = (size_t)n;
	return buf;
}

void text_clean(char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f) {
			s[i] = ' ';
		} else if (c == 0xc2 && i + 1 < len &&
			   (unsigned char)s[i + 1] >= 0x80 &&
			   (unsigned char)s[i + 1] <= 0x9f) {
			s[i] = ' ';
			s[i + 1] = ' ';
			i++;
		}
	}
}
