// SPDX-License-Identifier: GPL-2.0
/*
 * osbench all: every micro-benchmark in one run, each with its own table
 * (a JSON array of the experiments' documents with --json).
 */
#include "micro/micro.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

const struct mb_experiment mb_experiments[] = {
	{ "machine", mb_machine },
	{ "overhead", mb_overhead },
	{ "call", mb_call },
	{ "syscall", mb_syscall },
	{ "spawn", mb_spawn },
	{ "ctxsw", mb_ctxsw },
	{ "memlat", mb_memlat },
	{ "membw", mb_membw },
	{ "pagefault", mb_pagefault },
	{ "fileaccess", mb_fileaccess },
	{ NULL, NULL },
};

int mb_run_experiment(const struct mb_experiment *e,
		      const struct benchopt *o, const char *const *extra)
{
	static const char *const modes[] = { NULL, "--quick", "--smoke" };
	static const char *const fmts[] = { NULL, "--csv", "--json" };
	char reps[16], *argv[32];
	const char *saved = progname();
	int argc = 0, rc;

	argv[argc++] = (char *)e->name;
	if (modes[o->mode])
		argv[argc++] = (char *)modes[o->mode];
	if (fmts[o->fmt])
		argv[argc++] = (char *)fmts[o->fmt];
	if (o->reps) {
		snprintf(reps, sizeof(reps), "%u", o->reps);
		argv[argc++] = "--reps";
		argv[argc++] = reps;
	}
	argv[argc++] = "--dir";
	argv[argc++] = (char *)o->dir;
	while (extra && *extra && argc < 31)
		argv[argc++] = (char *)*extra++;
	argv[argc] = NULL;
	set_progname(e->name);
	rc = e->run(argc, argv);
	set_progname(saved);
	return rc;
}

static const char usage[] =
	"usage: osbench all [options]\n\n"
	"Run every micro-benchmark: machine, overhead, call, syscall, spawn,\n"
	"ctxsw, memlat, membw, pagefault and fileaccess (in --dir).  With\n"
	"--quick the whole run takes well under a minute on two cores.\n\n";

int mb_all(int argc, char **argv)
{
	const struct mb_experiment *e;
	struct benchopt o;
	FILE *out = mb_out();
	int rc = mb_begin_noargs(&o, argc, argv, usage), failed = 0;

	if (rc != MB_GO)
		return rc;
	if (o.plot)
		die(EXIT_USAGE, "all: --plot is per experiment (use report)");
	if (o.fmt == REPORT_JSON)
		fputs("[\n", out);
	for (e = mb_experiments; e->name; e++) {
		if (e != mb_experiments)
			fputs(o.fmt == REPORT_JSON ? ",\n" : "\n", out);
		if (o.fmt == REPORT_TEXT)
			fprintf(out, "== %s\n", e->name);
		else if (o.fmt == REPORT_CSV)
			fprintf(out, "# experiment: %s\n", e->name);
		fflush(out);
		rc = mb_run_experiment(e, &o, NULL);
		if (rc) {
			msg("%s failed (exit %d)", e->name, rc);
			failed = rc;
		}
	}
	if (o.fmt == REPORT_JSON)
		fputs("]\n", out);
	return fflush(out) ? EXIT_FAIL : failed;
}
