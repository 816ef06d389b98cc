// SPDX-License-Identifier: GPL-2.0
/*
 * osbench: the benchmark driver.  "osbench <command> [args]" runs one
 * experiment; the same binary invoked as run, run2 or fast behaves as the
 * course program of that name.
 */
#include "commands.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	const struct command *c;

	fprintf(f,
		"usage: osbench <command> [options]\n"
		"       osbench <command> --help\n\n"
		"Operating-system and I/O benchmarks.  Every table is printed for\n"
		"people by default and with --csv or --json for machines.\n\n"
		"commands:\n");
	for (c = osbench_commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
}

static const struct command *find(const char *name)
{
	const struct command *c;

	for (c = osbench_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *c;

	set_progname(argv[0]);
	c = find(progname());
	if (c)
		return c->run(argc, argv);

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	c = find(argv[1]);
	if (!c) {
		msg("unknown command '%s' (see osbench --help)", argv[1]);
		return EXIT_USAGE;
	}
	set_progname(c->name);
	return c->run(argc - 1, argv + 1);
}
