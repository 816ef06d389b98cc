/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The osbench subcommands.  Each experiment lives in its own file and
 * exposes one entry point; main.c dispatches on argv[1] (or on argv[0] for
 * the course programs run, run2 and fast).
 */
#ifndef OSBENCH_COMMANDS_H
#define OSBENCH_COMMANDS_H

struct command {
	const char *name;
	int (*run)(int argc, char **argv);	/* argv[0] is the name */
	const char *summary;
};

/* Subcommands, in the order "osbench --help" lists them (NULL-terminated). */
extern const struct command osbench_commands[];

#endif
