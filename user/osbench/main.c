// SPDX-License-Identifier: GPL-2.0
/*
 * osbench: the benchmark driver.  "osbench <command> [args]" runs one
 * experiment; the same binary invoked as run, run2 or fast behaves as the
 * course program of that name.  Commands are the descriptors of
 * command_table.c; this file only finds one, parses and runs it.
 */
#include "command_table.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	const struct command *const *c;
	const char *sep = "  ";

	fprintf(f,
		"usage: osbench <command> [options]\n"
		"       osbench <command> --help\n\n"
		"Operating-system and I/O benchmarks.  A command prints a table,\n"
		"for people by default and with --csv or --json for machines,\n"
		"except these, which print their own lines:\n");
	for (c = osbench_commands; *c; c++)
		if (!((*c)->flags & CMD_TABLE)) {
			fprintf(f, "%s%s", sep, (*c)->name);
			sep = ", ";
		}
	fprintf(f, "\n\ncommands:\n");
	for (c = osbench_commands; *c; c++)
		fprintf(f, "  %-12s %s\n", (*c)->name, (*c)->summary);
}

static int run(const struct command *cmd, int argc, char **argv)
{
	void *opts = xcalloc(1, cmd->opts_size ? cmd->opts_size : 1);
	struct ctx c;
	int rc = command_parse(cmd, argc, argv, opts, &c);

	c.commands = osbench_commands;
	if (rc < 0)
		rc = cmd->run(&c, opts);
	free(opts);
	if (fflush(stdout) && rc == EXIT_OK) {
		msg_errno("cannot write the output");
		rc = EXIT_FAIL;
	}
	return rc;
}

int main(int argc, char **argv)
{
	const struct command *c;
	char typed[64];

	set_progname(argv[0]);
	c = command_find(osbench_commands, progname());
	if (c)
		return run(c, argc, argv);

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	c = command_find(osbench_commands, argv[1]);
	if (!c) {
		msg("unknown command '%s' (see osbench --help)", argv[1]);
		return EXIT_USAGE;
	}
	set_progname(c->name);
	snprintf(typed, sizeof(typed), "osbench %s", c->name);
	set_command_name(typed);
	return run(c, argc - 1, argv + 1);
}
