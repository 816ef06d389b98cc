// SPDX-License-Identifier: GPL-2.0
/*
 * One build's figures for osbench micro-opt (micro_opt.h): measured here
 * without a table of their own, as cells, and as the --this-build table
 * the comparing half reads back from the -O0 build.
 */
#include "experiment.h"
#include "micro/micro.h"
#include "micro_opt.h"
#include "runner.h"
#include "sysinfo.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* This program's build, as its micro-benchmarks were compiled. */
static const char *build_name(void)
{
	return micro_optimised() ? "optimised" : "unoptimised";
}

int mo_measure_here(const struct ctx *c, const char *name,
		    struct summary *s, struct tally *t)
{
	struct ctx sub = *c;
	FILE *null = fopen("/dev/null", "w");
	int rc;

	if (!null) {
		msg_errno("open /dev/null");
		return EXIT_FAIL;
	}
	sub.out = null;
	sub.o.fmt = REPORT_TEXT;
	sub.o.plot = NULL;
	sub.summary = s;
	rc = runner_one(command_find(c->commands, name), &sub, t);
	fclose(null);
	return rc;
}

bool mo_compared(const struct summary *s, enum figure f)
{
	/* The empty loop is the timing library's, optimised in both. */
	return s->set[f] && f != FIG_LOOP;
}

int mo_this_build(const struct ctx *c, const char *experiments)
{
	struct summary s = { 0 };
	struct tally t = { 0 };
	struct report *r;
	char *list = xstrdup(experiments), *save = NULL, *name;
	int f, rc;

	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save))
		mo_measure_here(c, name, &s, &t);
	free(list);
	r = report_new("micro-opt", c->o.fmt, c->out);
	sysinfo_note(r);
	report_note(r, "build", "%s (__OPTIMIZE__ %s when micro/ was "
		    "compiled)", build_name(),
		    micro_optimised() ? "defined" : "not defined");
	report_note(r, "mode", "%s", benchopt_mode_name(&c->o));
	report_column(r, "benchmark", NULL);
	report_column(r, "build", NULL);
	report_column(r, "n", NULL);
	report_column(r, "median", NULL);
	report_column(r, "median_lo", NULL);
	report_column(r, "median_hi", NULL);
	report_column(r, "unit", NULL);
	for (f = 0; f < FIG_COUNT; f++) {
		if (!mo_compared(&s, f))
			continue;
		report_str(r, rep_figure_name(f));
		report_str(r, build_name());
		mo_stat_cells(r, &s, f);
		report_str(r, s.unit[f] ? s.unit[f] : "");
	}
	rc = report_end(r) ? EXIT_FAIL : EXIT_OK;
	return runner_done(&t) ? EXIT_FAIL : rc;
}

void mo_stat_cells(struct report *r, const struct summary *s, enum figure f)
{
	if (!s->set[f]) {
		report_none(r);
		report_none(r);
		report_none(r);
		report_none(r);
		return;
	}
	if (s->has_st[f])
		report_num(r, (double)s->st[f].n);
	else
		report_none(r);
	report_num(r, s->value[f]);
	if (s->has_st[f]) {
		report_num(r, s->st[f].ci_lo);
		report_num(r, s->st[f].ci_hi);
	} else {
		report_none(r);
		report_none(r);
	}
}
