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
 *	static int x_run(const struct ctx *c, const void *opts) { ... }
 *	const struct command cmd_x = {
 *		.name = "x", .summary = "...", .usage = "...",
 *		.options = x_options, .opts_size = sizeof(struct x_opts),
 *		.flags = CMD_TABLE | CMD_ALL, .run = x_run,
 *	};
 *
 * and one line in commands.c (docs/design.md, "Adding an experiment").
 */
#ifndef OSBENCH_EXPERIMENT_H
#define OSBENCH_EXPERIMENT_H

#include "benchopt.h"
#include "optable.h"
#include "summary.h"

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
};

struct command {
	const char *name;
	const char *alias;	/* an old name still accepted, or NULL */
	const char *summary;	/* one line for "osbench --help" */
	const char *usage;	/* --help: usage lines and what it does */
	const struct opt *options;	/* NULL: none of its own */
	size_t opts_size;	/* the struct options' offsets point into */
	unsigned int flags;	/* command_flags */
	int min_args, max_args;	/* operands; max_args -1: any number */
	unsigned int max_reps;	/* 0: benchopt's limit */
	const char *reps_default;	/* for --help: "5, --quick 3" */
	/* The exit code: EXIT_OK, or why it failed (after a message). */
	int (*run)(const struct ctx *c, const void *opts);
};

/* Every command, in the order of "osbench --help"; NULL-terminated. */
extern const struct command *const osbench_commands[];

/* The common option groups command c takes (benchopt_group bits). */
unsigned int command_groups(const struct command *c);

/*
 * Parse argv (argv[0] the command's name) into opts (opts_size bytes)
 * and c->o / c->args; prints help on --help.  Returns -1 to go on and
 * run, else the exit code (EXIT_OK after help, EXIT_USAGE).
 */
int command_parse(const struct command *cmd, int argc, char **argv,
		  void *opts, struct ctx *c);

/* Options struct with every default of cmd, for all and report. */
void *command_defaults(const struct command *cmd);

/* --help of cmd, from its descriptor. */
void command_help(const struct command *cmd, FILE *f);

/* Record a headline figure for the report (nothing when not asked). */
void ctx_figure(const struct ctx *c, enum figure f, double value,
		const char *unit);
/* The same for a median of samples: st in unit, its spread kept. */
void ctx_figure_st(const struct ctx *c, enum figure f,
		   const struct stats *st, const char *unit);

#endif
