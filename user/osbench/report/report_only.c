// SPDX-License-Identifier: GPL-2.0
/*
 * Which experiments a report runs: all of them, or the ones named with
 * --only.  The names are those of the report's sections: every experiment
 * of "osbench all" (net includes the peer with --peer), micro-opt, io
 * (run, run2, fast, sweep, cache, syscall-rate and copy on one scratch
 * file, so they go together) and transfer.  machine is always measured:
 * no figure is given without the machine it came from.
 */
#include "command_table.h"
#include "report_parts.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static const char *const extra[] = { "micro-opt", "io", "transfer" };

#define N_EXTRA (sizeof(extra) / sizeof(extra[0]))

/* Is the name of n bytes at s a report experiment? */
static bool known(const char *s, size_t n)
{
	const struct command *const *cmd;
	size_t i;

	for (cmd = osbench_commands; *cmd; cmd++)
		if (((*cmd)->flags & CMD_ALL) && strlen((*cmd)->name) == n &&
		    !strncmp((*cmd)->name, s, n))
			return true;
	for (i = 0; i < N_EXTRA; i++)
		if (strlen(extra[i]) == n && !strncmp(extra[i], s, n))
			return true;
	return false;
}

/* Append name to the comma-separated list in buf of size cap. */
static void add_name(char *buf, size_t cap, const char *name)
{
	size_t len = strlen(buf);

	snprintf(buf + len, cap - len, "%s%s", len ? "," : "", name);
}

/* The names --only takes, for a message. */
static void say_names(void)
{
	const struct command *const *cmd;
	char names[512] = "";
	size_t i;

	for (cmd = osbench_commands; *cmd; cmd++)
		if ((*cmd)->flags & CMD_ALL)
			add_name(names, sizeof(names), (*cmd)->name);
	for (i = 0; i < N_EXTRA; i++)
		add_name(names, sizeof(names), extra[i]);
	msg("the report's experiments: %s", names);
}

int rep_only_parse(const char *what, const char *v, void *dst)
{
	const char *s = v;

	do {
		size_t n = strcspn(s, ",");

		if (!known(s, n)) {
			msg("%s: '%.*s' is not an experiment of the report",
			    what, (int)n, s);
			say_names();
			return -1;
		}
		s += n;
	} while (*s++);
	*(const char **)dst = v;
	return 0;
}

bool rep_selected(const struct rep *r, const char *name)
{
	const char *s = r->only;
	size_t n;

	if (!s || !strcmp(name, "machine"))
		return true;
	if (!strcmp(name, "net-peer"))
		name = "net";
	n = strlen(name);
	do {
		size_t len = strcspn(s, ",");

		if (len == n && !strncmp(s, name, n))
			return true;
		s += len;
	} while (*s++);
	return false;
}
