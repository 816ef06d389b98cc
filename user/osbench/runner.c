// SPDX-License-Identifier: GPL-2.0
/* One experiment of "all" or "report", failures counted (runner.h). */
#include "runner.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A failed experiment that printed nothing: a table that says why. */
static void failure_table(const struct command *cmd, const struct ctx *c,
			  const char *why)
{
	struct report *r = report_new(cmd->name, c->o.fmt, c->out);

	report_note(r, "failed", "%s", why);
	report_end(r);
}

static void count(struct tally *t, const struct command *cmd, int rc,
		  const char *why)
{
	size_t len = strlen(t->names);

	t->ran++;
	if (rc == EXIT_OK)
		return;
	t->failed++;
	msg("%s failed (exit %d): %s", cmd->name, rc, why);
	snprintf(t->names + len, sizeof(t->names) - len, "%s%s",
		 len ? ", " : "", cmd->name);
}

void keep_figures(struct summary *to, const struct summary *from)
{
	int f;

	for (f = 0; f < FIG_COUNT; f++) {
		if (!from->set[f])
			continue;
		to->set[f] = true;
		to->value[f] = from->value[f];
		to->unit[f] = from->unit[f];
		to->has_st[f] = from->has_st[f];
		to->st[f] = from->st[f];
	}
}

int runner_one(const struct command *cmd, const struct ctx *base,
	       struct tally *t)
{
	static char *no_args[] = { NULL };
	struct summary figures = { 0 };
	struct ctx c = *base;
	char *buf = NULL, why[512];
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	void *opts = command_defaults(cmd);
	const char *saved = progname();
	int rc;

	/* Buffered, so that a failure can be told from an empty table. */
	c.out = mem ? mem : base->out;
	c.args = no_args;
	c.nargs = 0;
	c.summary = base->summary ? &figures : NULL;
	command_reps(cmd, &c.o);
	set_progname(cmd->name);
	msg_forget();
	rc = cmd->run(&c, opts);
	snprintf(why, sizeof(why), "%s", msg_last()[0] ? msg_last() :
		 "no message");
	set_progname(saved);
	free(opts);
	if (mem) {
		fclose(mem);
		fwrite(buf, 1, len, base->out);
		free(buf);
	}
	if (rc != EXIT_OK && !len)
		failure_table(cmd, base, why);
	if (rc == EXIT_OK && base->summary)
		keep_figures(base->summary, &figures);
	count(t, cmd, rc, why);
	return rc;
}

int runner_done(const struct tally *t)
{
	if (!t->failed)
		return EXIT_OK;
	msg("%u of %u experiments failed (%s)", t->failed, t->ran, t->names);
	return EXIT_FAIL;
}
