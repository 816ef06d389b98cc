/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options as data: a command declares its options in a table (name, kind,
 * help, default, where the value goes) and one parser and one help
 * printer serve every command, as fio's option tables do.
 *
 *	struct sweep_opts { uint64_t min; bool cold; };
 *	static const struct opt sweep_options[] = {
 *		{ .name = "min", .kind = OPT_SIZE, .arg = "SIZE",
 *		  .off = offsetof(struct sweep_opts, min), .def = "1",
 *		  .min = 1, .max = 1 << 30, .help = "smallest block" },
 *		{ .name = "cold", .kind = OPT_FLAG,
 *		  .off = offsetof(struct sweep_opts, cold),
 *		  .help = "drop the page cache before every run" },
 *		{ 0 },
 *	};
 *
 * Options are "--name VALUE", "--name=VALUE" or "-x" (a letter); they may
 * come before, between or after the operands, as with getopt_long, and
 * "--" ends them.
 */
#ifndef SYNCDEV_OPTABLE_H
#define SYNCDEV_OPTABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_kind {
	OPT_FLAG,	/* bool, set to true */
	OPT_SETINT,	/* int (or enum), set to min */
	OPT_STR,	/* const char *, the argument itself */
	OPT_SIZE,	/* uint64_t with K/M/G suffixes, in [min, max] */
	OPT_UINT,	/* uint64_t in decimal, in [min, max] */
	OPT_SECONDS,	/* uint64_t nanoseconds from decimal seconds */
	OPT_CALL,	/* parse() stores it */
};

struct opt {
	const char *name;	/* long name without "--"; NULL: letter only */
	char letter;		/* short "-x", or 0 */
	enum opt_kind kind;
	size_t off;		/* where the value goes in the options struct */
	const char *arg;	/* value name in help ("SIZE"); NULL: no value */
	const char *help;	/* lines after the first are indented */
	const char *def;	/* default, parsed before the command line */
	uint64_t min, max;	/* OPT_SIZE, OPT_UINT bounds; OPT_SETINT value */
	/* OPT_CALL: store v at dst, or -1 after a message naming what. */
	int (*parse)(const char *what, const char *v, void *dst);
	/*
	 * Options that belong to a group (bit) the command does not enable
	 * are refused with this message (%s: the command), exit 2.
	 */
	unsigned int group;
	const char *refused;
};

/* One table and the struct its offsets point into. */
struct optset {
	const struct opt *opts;	/* ends with an entry without name or letter */
	void *dst;
	unsigned int groups;	/* groups enabled (0: group-less only) */
};

#define OPTABLE_HELP (-2)

/*
 * Store every default, then parse argv[1..argc-1].  The operands (the
 * arguments that are not options) are moved, in order, to argv[1..n] and
 * n is returned; OPTABLE_HELP when --help or -h is there; -1 after a
 * message for a usage error.
 */
int optable_parse(const struct optset *sets, size_t nsets, int argc,
		  char **argv);

/* Store the defaults of one table (what optable_parse does first). */
int optable_defaults(const struct optset *set);

/*
 * Parse one value as option d says, what naming it in messages ("--min",
 * "block size").  0, or -1 after a message.
 */
int optable_value(const struct opt *d, const char *what, const char *v,
		  void *dst);

/* One line per option of the enabled groups: "  --name ARG   help". */
void optable_help(FILE *f, const struct optset *set);

#endif
