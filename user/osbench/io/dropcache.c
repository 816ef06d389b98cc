// SPDX-License-Identifier: GPL-2.0
/* osbench dropcache: make files cold, for scripts (scripts/bench-io). */
#include "dropcache.h"
#include "io.h"
#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: osbench dropcache [--fadvise] <file>...\n\n"
		"Write back and drop the files' pages from the page cache: as root\n"
		"through /proc/sys/vm/drop_caches (the whole cache), otherwise, or\n"
		"with --fadvise, with posix_fadvise(DONTNEED) on each file.\n"
		"Prints the method used.\n");
}

int io_dropcache_main(int argc, char **argv)
{
	int i = 1, global = 1, fd, method, ret = EXIT_OK;

	if (argc > 1 && !strcmp(argv[1], "--help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc > 1 && !strcmp(argv[1], "--fadvise")) {
		global = 0;
		i++;
	}
	if (i >= argc || argv[i][0] == '-') {
		usage(stderr);
		return EXIT_USAGE;
	}
	for (; i < argc; i++) {
		fd = open(argv[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			msg_errno("cannot open '%s'", argv[i]);
			ret = EXIT_FAIL;
			continue;
		}
		method = dropcache(fd, global);
		if (method < 0) {
			msg_errno("cannot drop the cache of '%s'", argv[i]);
			ret = EXIT_FAIL;
		} else {
			printf("%s: dropped (%s)\n", argv[i],
			       dropcache_name(method));
		}
		close(fd);
	}
	return ret;
}
