// SPDX-License-Identifier: GPL-2.0
/* Parsing and help from a command's descriptor (experiment.h). */
#include "experiment.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const struct opt no_options[] = { { 0 } };

const struct command *command_find(const struct command *const *table,
				   const char *name)
{
	for (; *table; table++)
		if (!strcmp((*table)->name, name))
			return *table;
	return NULL;
}

/* The common option groups command c takes (benchopt_group bits). */
static unsigned int command_groups(const struct command *c)
{
	unsigned int g = c->flags & (CMD_TABLE | CMD_PLOT | CMD_SCRATCH);

	/* Every experiment of "all" takes what all passes on to it. */
	if (c->flags & CMD_ALL)
		g |= CMD_TABLE | CMD_SCRATCH;
	return g;
}

static unsigned int max_reps(const struct command *cmd)
{
	return cmd->max_reps ? cmd->max_reps : 100000;
}

/* Operand count and --reps against the descriptor's limits. */
static int check_counts(const struct command *cmd, const struct ctx *c)
{
	if (c->nargs < cmd->min_args) {
		msg("missing arguments (see %s --help)", command_name());
		return -1;
	}
	if (cmd->max_args >= 0 && c->nargs > cmd->max_args) {
		msg("unexpected argument '%s' (see %s --help)",
		    c->args[cmd->max_args], command_name());
		return -1;
	}
	if (c->o.reps > max_reps(cmd)) {
		msg("--reps: '%llu' is not a count in 1..%u",
		    (unsigned long long)c->o.reps, max_reps(cmd));
		return -1;
	}
	return 0;
}

void *command_defaults(const struct command *cmd)
{
	void *opts = xcalloc(1, cmd->opts_size ? cmd->opts_size : 1);
	const struct optset set = { cmd->options ? cmd->options : no_options,
				    opts, 0 };

	/* The tables' own defaults: a failure is a bug in a table. */
	if (optable_defaults(&set))
		die(EXIT_FAIL, "%s: a default of its option table is invalid",
		    cmd->name);
	return opts;
}

/* The common options, --reps with this command's default. */
static void common_help(const struct command *cmd, FILE *f)
{
	struct opt common[16];
	char reps[160];
	size_t i;

	const unsigned int *r = cmd->reps[0] ? cmd->reps : benchopt_reps;

	snprintf(reps, sizeof(reps), "%s (default %u, --quick %u, --smoke %u)",
		 "samples (timed runs) per figure", r[0], r[1], r[2]);
	for (i = 0; benchopt_options[i].name && i < 15; i++) {
		common[i] = benchopt_options[i];
		if (!strcmp(common[i].name, "reps"))
			common[i].help = reps;
	}
	common[i] = (struct opt){ 0 };
	fputs("\ncommon options:\n", f);
	optable_help(f, &(struct optset){ common, NULL,
					  command_groups(cmd) });
}

/* --help of cmd, from its descriptor. */
static void command_help(const struct command *cmd, FILE *f)
{
	fputs(cmd->usage, f);
	if (cmd->options && cmd->options[0].help) {
		fputs("\noptions:\n", f);
		optable_help(f, &(struct optset){ cmd->options, NULL, 0 });
	}
	if (command_groups(cmd))
		common_help(cmd, f);
	fputs("  --help         this text\n", f);
}

int command_parse(const struct command *cmd, int argc, char **argv,
		  void *opts, struct ctx *c)
{
	const struct optset sets[2] = {
		{ cmd->options ? cmd->options : no_options, opts, 0 },
		{ benchopt_options, &c->o, command_groups(cmd) },
	};
	int n;

	memset(c, 0, sizeof(*c));
	c->out = stdout;
	n = optable_parse(sets, 2, argc, argv);
	if (n == OPTABLE_HELP) {
		command_help(cmd, stdout);
		return EXIT_OK;
	}
	if (n < 0)
		return EXIT_USAGE;
	benchopt_finish(&c->o);
	command_reps(cmd, &c->o);
	c->args = argv + 1;
	c->nargs = n;
	return check_counts(cmd, c) ? EXIT_USAGE : -1;
}

void command_reps(const struct command *cmd, struct benchopt *o)
{
	if (!o->reps && cmd->reps[0])
		o->reps = cmd->reps[o->mode];
}

void ctx_figure(const struct ctx *c, enum figure f, double value,
		const char *unit)
{
	if (!c->summary || f >= FIG_COUNT)
		return;
	c->summary->set[f] = true;
	c->summary->value[f] = value;
	c->summary->unit[f] = unit;
}

void ctx_figure_st(const struct ctx *c, enum figure f,
		   const struct stats *st, const char *unit)
{
	ctx_figure(c, f, st->median, unit);
	if (!c->summary || f >= FIG_COUNT)
		return;
	c->summary->has_st[f] = true;
	c->summary->st[f] = *st;
}
