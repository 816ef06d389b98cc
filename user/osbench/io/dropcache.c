// SPDX-License-Identifier: GPL-2.0
/* osbench dropcache: make files cold, for scripts (scripts/bench/bench-io). */
#include "dropcache.h"
#include "io.h"
#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stddef.h>
#include <unistd.h>

struct dropcache_opts {
	bool fadvise;
};

static const struct opt dropcache_options[] = {
	{ .name = "fadvise", .kind = OPT_FLAG,
	  .off = offsetof(struct dropcache_opts, fadvise),
	  .help = "posix_fadvise(DONTNEED) on each file, even as root" },
	{ 0 },
};

static const char usage[] =
	"usage: osbench dropcache [--fadvise] <file>...\n\n"
	"Write back and drop the files' pages from the page cache: as root\n"
	"through /proc/sys/vm/drop_caches (the whole cache), otherwise, or\n"
	"with --fadvise, with posix_fadvise(DONTNEED) on each file.\n"
	"Prints the method used.\n";

static int dropcache_run(const struct ctx *c, const void *opts)
{
	const struct dropcache_opts *o = opts;
	int i, fd, method, ret = EXIT_OK;

	for (i = 0; i < c->nargs; i++) {
		fd = open(c->args[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			msg_errno("cannot open '%s'", c->args[i]);
			ret = EXIT_FAIL;
			continue;
		}
		method = dropcache(fd, !o->fadvise);
		if (method < 0) {
			msg_errno("cannot drop the cache of '%s'", c->args[i]);
			ret = EXIT_FAIL;
		} else {
			fprintf(c->out, "%s: dropped (%s)\n", c->args[i],
				dropcache_name(method));
		}
		close(fd);
	}
	return ret;
}

OSBENCH_COMMAND(dropcache, "dropcache", 0,
		"drop files from the page cache",
		COMMAND_OPTIONS(dropcache_options, struct dropcache_opts),
		.min_args = 1, .max_args = -1);
