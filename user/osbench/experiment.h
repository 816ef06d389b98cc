/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The experiment framework of osbench, after fio's engines: every command
 * is one static descriptor in the file named after it, with its options
 * as data (optable.h) and a run() that gets them parsed, together with a
 * context that says where and how to print.  main.c parses the command
 * line and prints help from the descriptor; "all" and "report" run the
 * descriptors flagged CMD_ALL with a context of their own.  Nothing in a
 * command walks argv, prints help or decides where its table goes.
 *
 *	struct x_opts { uint64_t size; };
 *	static const struct opt x_options[] = {
 *		{ .name = "size", .kind = OPT_SIZE, .arg = "SIZE",
 *		  .off = offsetof(struct x_opts, size), .def = "64M",
 *		  .help = "buffer size" },
 *		{ 0 },
 *	};
 *	static const char usage[] = "usage: osbench x [--size SIZE]\n...";
 *	static int x_run(const struct ctx *c, const void *opts) { ... }
 *	OSBENCH_COMMAND(x, "x", CMD_TABLE | CMD_ALL, "one-line summary",
 *			COMMAND_OPTIONS(x_options, struct x_opts));
 *
 * and one line in command_table.c (docs/design.md, "Adding an experiment").
 */
#ifndef OSBENCH_EXPERIMENT_H
#define OSBENCH_EXPERIMENT_H

#include "benchopt.h"
#include "optable.h"
#include "report/figures.h"

#include <stdio.h>

enum command_flags {
	/* Prints a table: takes --csv, --json, --quick, --smoke, --reps. */
	CMD_TABLE = BENCHOPT_TABLE,
	CMD_PLOT = BENCHOPT_PLOT,	/* draws a curve: takes --plot */
	CMD_SCRATCH = BENCHOPT_DIR,	/* writes scratch files: takes --dir */
	/* Part of "all" and "report" (and so takes all's options). */
	CMD_ALL = 8,
};

/* What run() is given besides its own options. */
struct ctx {
	FILE *out;		/* the table (stdout, or report's file) */
	struct benchopt o;	/* format, mode, reps, plot, scratch dir */
	char **args;		/* the operands, NULL-terminated */
	int nargs;
	struct summary *summary;	/* NULL unless "report" runs it */
	/*
	 * Every command (osbench_commands), for those that run others:
	 * given by whoever runs a command, so that no command's file
	 * depends on the table that lists it.
	 */
	const struct command *const *commands;
};

struct command {
	const char *name;
	const char *summary;	/* one line for "osbench --help" */
	const char *usage;	/* --help: usage lines and what it does */
	const struct opt *options;	/* NULL: none of its own */
	size_t opts_size;	/* the struct options' offsets point into */
	unsigned int flags;	/* command_flags */
	int min_args, max_args;	/* operands; max_args -1: any number */
	/*
	 * Runs per figure without --reps (full, --quick, --smoke); all 0:
	 * the measurement's own (benchopt_reps).  max_reps 0: benchopt's.
	 */
	unsigned int reps[3];
	unsigned int max_reps;
	/* The exit code: EXIT_OK, or why it failed (after a message). */
	int (*run)(const struct ctx *c, const void *opts);
};

/*
 * The descriptor of a command, at the end of the file that implements it:
 * cmd_<id> with name, flags and summary, the file's "usage" string as its
 * --help and <id>_run as its run(); further fields (COMMAND_OPTIONS(),
 * .min_args, .max_args, .reps, .max_reps) follow as designated
 * initializers.
 */
#define OSBENCH_COMMAND(id, cmd_name, cmd_flags, cmd_summary, ...)	\
	const struct command cmd_##id = {				\
		.name = cmd_name, .summary = cmd_summary,		\
		.usage = usage, .flags = cmd_flags, .run = id##_run,	\
		__VA_ARGS__						\
	}
/* Its own options: the table and the struct the table fills. */
#define COMMAND_OPTIONS(table, type)					\
	.options = (table), .opts_size = sizeof(type)

/* Every command, in the order of "osbench --help"; NULL-terminated. */
extern const struct command *const osbench_commands[];

/* The command named name in a NULL-terminated table, or NULL. */
const struct command *command_find(const struct command *const *table,
				   const char *name);

/*
 * Parse argv (argv[0] the command's name) into opts (opts_size bytes)
 * and c->o / c->args; prints help on --help.  Returns -1 to go on and
 * run, else the exit code (EXIT_OK after help, EXIT_USAGE).
 */
int command_parse(const struct command *cmd, int argc, char **argv,
		  void *opts, struct ctx *c);

/* Options struct with every default of cmd, for all and report. */
void *command_defaults(const struct command *cmd);

/* Without --reps, the command's runs per figure for the mode (.reps). */
void command_reps(const struct command *cmd, struct benchopt *o);

/* Record a headline figure for the report (nothing when not asked). */
void ctx_figure(const struct ctx *c, enum figure f, double value,
		const char *unit);
/* The same for a median of samples: st in unit, its spread kept. */
void ctx_figure_st(const struct ctx *c, enum figure f,
		   const struct stats *st, const char *unit);

#endif
