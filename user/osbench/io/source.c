// SPDX-License-Identifier: GPL-2.0
/* Options and inputs shared by the I/O experiments. */
#include "device.h"
#include "io.h"
#include "netaddr.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int io_source_opt(struct io_source *s, int c, const char *arg)
{
	switch (c) {
	case 'D':
		s->path = NULL;
		if (!s->master)
			s->master = "127.0.0.1";
		return 1;
	case 'M':
		s->master = arg;
		return 1;
	}
	return 0;
}

void io_source_operand(struct io_source *s, int nargs, char **args)
{
	if (s->master && !s->path) {
		if (nargs != 0)
			die(EXIT_USAGE, "--device reads %s; no file operand",
			    dev_path(DEV_SLAVE));
		/* Refuse a bad address before anything is opened. */
		if (parse_ipv4_port(s->master, dev_port(), &s->addr, &s->port))
			exit(EXIT_USAGE);
		return;
	}
	if (nargs != 1)
		die(EXIT_USAGE, "expected one file (or --device); see --help");
	s->path = args[0];
}

int io_source_open(const struct io_source *s)
{
	int fd;

	if (s->path) {
		fd = open(s->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die_errno("cannot open '%s'", s->path);
		return fd;
	}
	fd = dev_open(dev_path(DEV_SLAVE));
	if (fd < 0 || dev_connect(fd, s->addr, s->port, 0, 0))
		exit(EXIT_FAIL);
	return fd;
}

const char *io_source_name(const struct io_source *s)
{
	static char name[128];

	if (s->path)
		return s->path;
	snprintf(name, sizeof(name), "%s (master %s)", dev_path(DEV_SLAVE),
		 s->master);
	return name;
}

void io_common_parse(struct benchopt *o, int *argc, char **argv,
		     void (*usage)(FILE *f), unsigned int flags,
		     unsigned int max_reps)
{
	if (benchopt_parse(o, argc, argv))
		exit(EXIT_USAGE);
	if (o->help) {
		usage(stdout);
		exit(EXIT_OK);
	}
	if (o->plot && !(flags & IO_OPT_PLOT))
		die(EXIT_USAGE, "%s has no curve to --plot", progname());
	if (o->dir_given && !(flags & IO_OPT_DIR))
		die(EXIT_USAGE, "%s writes no scratch files: no --dir",
		    progname());
	if (o->reps > max_reps)
		die(EXIT_USAGE, "bad --reps %u (1..%u)", o->reps, max_reps);
}

void io_common_usage(FILE *f, unsigned int flags)
{
	fputs("  --csv, --json  machine-readable output (default: a table)\n"
	      "  --quick        3 runs, and a fifth of the default --time\n"
	      "  --smoke        3 runs and a fiftieth: checks it runs, not speed\n",
	      f);
	if (flags & IO_OPT_PLOT)
		fputs("  --plot FILE    draw the curve with gnuplot (.svg, .png, "
		      ".txt);\n"
		      "                 FILE.dat and FILE.gp are written beside "
		      "it\n", f);
}

uint64_t io_pick_time(const struct benchopt *o, uint64_t full_ns)
{
	return benchopt_pick(o, full_ns, full_ns / 5, full_ns / 50);
}

unsigned int io_pick_reps(const struct benchopt *o, unsigned int full)
{
	if (o->reps)
		return o->reps;
	return (unsigned int)benchopt_pick(o, full, 3, 3);
}

size_t io_parse_block(const char *what, const char *s)
{
	uint64_t v;

	if (parse_size(s, &v))
		die(EXIT_USAGE, "bad %s '%s': %s", what, s,
		    errno == ERANGE ? "too large" :
				      "not a size (e.g. 512, 4K, 1M)");
	if (v < 1 || v > IO_MAX_BLOCK)
		die(EXIT_USAGE, "bad %s '%s': must be 1 byte to 1 GiB", what, s);
	return (size_t)v;
}

uint64_t io_parse_seconds(const char *what, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > 3600)
		die(EXIT_USAGE, "bad %s '%s': want seconds in (0, 3600]", what,
		    s);
	return (uint64_t)(v * 1e9);
}

void io_usage_exit(void (*usage)(FILE *f), int c)
{
	usage(c == 'h' ? stdout : stderr);
	exit(c == 'h' ? EXIT_OK : EXIT_USAGE);
}
