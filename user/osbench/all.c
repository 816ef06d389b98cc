// SPDX-License-Identifier: GPL-2.0
/*
 * osbench all: every experiment flagged CMD_ALL in the command table, in
 * its order, each with its own table (a JSON array of the experiments'
 * documents with --json).  A failing experiment is reported and the run
 * goes on; the exit status is 1 when any failed.
 */
#include "experiment.h"
#include "runner.h"
#include "util.h"

#include <stdio.h>

static const char usage[] =
	"usage: osbench all [options]\n\n"
	"Run every micro-benchmark: machine, overhead, call, syscall, spawn,\n"
	"ctxsw, memlat, membw, pagefault, fileaccess (in --dir) and net.\n"
	"With --quick the whole run takes well under a minute on two cores.  An\n"
	"experiment that fails is reported as such (its message, and with\n"
	"--json a document with a \"failed\" note) and the others still run;\n"
	"the exit status is then 1 and the last line says how many failed.\n";

static int all_run(const struct ctx *c, const void *opts)
{
	const struct command *const *cmd;
	struct tally t = { 0 };
	int n = 0;

	(void)opts;
	if (c->o.fmt == REPORT_JSON)
		fputs("[\n", c->out);
	for (cmd = c->commands; *cmd; cmd++) {
		if (!((*cmd)->flags & CMD_ALL))
			continue;
		if (n++)
			fputs(c->o.fmt == REPORT_JSON ? ",\n" : "\n", c->out);
		if (c->o.fmt == REPORT_TEXT)
			fprintf(c->out, "== %s\n", (*cmd)->name);
		else if (c->o.fmt == REPORT_CSV)
			fprintf(stderr, "# experiment: %s\n", (*cmd)->name);
		fflush(c->out);
		runner_one(*cmd, c, &t);
	}
	if (c->o.fmt == REPORT_JSON)
		fputs("]\n", c->out);
	if (fflush(c->out)) {
		msg_errno("cannot write the output");
		return EXIT_FAIL;
	}
	return runner_done(&t);
}

OSBENCH_COMMAND(all, "all", CMD_TABLE | CMD_SCRATCH,
		"every micro-benchmark in one run");
