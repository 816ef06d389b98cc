// SPDX-License-Identifier: GPL-2.0
/*
 * The class's report.md: the options, the class table, each student's
 * failures by kind and the totals per case, most failed first.
 */
#include "accel.h"
#include "class.h"
#include "text.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The value of key in the options, or "?". */
static const char *opt(const struct class *c, const char *key, const char *def)
{
	const char *v = options_get(&c->opts, key);

	return v ? v : def;
}

char *class_time(const struct class *c)
{
	unsigned long long sum = 0, mean;
	size_t i, timed = 0;
	char *rest, *line;

	for (i = 0; i < c->nstudents; i++) {
		if (!c->students[i].times.has[T_TOTAL])
			continue;
		sum += c->students[i].times.secs[T_TOTAL];
		timed++;
	}
	if (!timed)
		return xstrdup("time: not recorded");
	mean = (sum + timed / 2) / timed;
	rest = timed < c->nstudents ?
	       xasprintf(" (%zu not timed)", c->nstudents - timed) : xstrdup("");
	line = xasprintf("time: %llu s for the %zu student%s timed, a mean of %llu s each%s",
			 sum, timed, timed == 1 ? "" : "s", mean, rest);
	free(rest);
	return line;
}

size_t class_describe(const struct class *c, char *lines[NDESCRIBE])
{
	char *rub = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&rub, &len);

	if (!f)
		die(EXIT_FAIL, "out of memory");
	rubric_describe(f, &c->rubric);
	fclose(f);
	lines[0] = xasprintf("guest kernel %s, module %s", opt(c, "kernel", "?"),
			     opt(c, "module", "?"));
	lines[1] = xasprintf("cases: %s VMs x data %s x methods %s, time limit %s s",
			     opt(c, "vms", "?"), opt(c, "data", "?"),
			     opt(c, "methods", "?"), opt(c, "timeout", "?"));
	lines[2] = xasprintf("command lines: `%s`, `%s`", opt(c, "cli", "?"),
			     opt(c, "slave_cli", "?"));
	lines[3] = xasprintf("rubric (%s): %s", opt(c, "rubric_file", "?"), rub);
	lines[4] = xasprintf("shards: %s", opt(c, "shard", "1/1"));
	lines[5] = accel_describe(&c->opts);
	lines[6] = class_time(c);
	free(rub);
	return NDESCRIBE;
}

/* A student's seconds per column, each after " | " (empty if none). */
static void md_times(FILE *f, const struct student *s)
{
	char buf[24];
	int k;

	for (k = 0; k < NTIMES; k++)
		fprintf(f, " | %s", times_cell(&s->times, k, buf));
}

static void md_class_table(FILE *f, const struct class *c)
{
	size_t i;
	int k;

	fputs("| student | score | result | passed | ", f);
	for (k = 0; k < NCRIT; k++)
		fprintf(f, "%s%s", k ? " | " : "", criteria[k]);
	fputs(" | first failure", f);
	for (k = 0; k < NTIMES; k++)
		fprintf(f, " | %s", time_columns[k]);
	fputs(" |\n", f);
	for (k = 0; k < NCRIT + 5 + NTIMES; k++)
		fputs("|---", f);
	fputs("|\n", f);
	for (i = 0; i < c->nstudents; i++) {
		const struct student *s = &c->students[i];

		fputs("| [", f);
		md_put(f, s->name, SIZE_MAX);
		fputs("](", f);
		url_put(f, s->name);
		fprintf(f, "/report.md) | %s | %s | %zu/%zu | ", s->score,
			s->result, s->passed, s->cases);
		for (k = 0; k < NCRIT; k++)
			fprintf(f, "%s%s%s", k ? " | " : "",
				s->crit[k][0] ? s->crit[k] : "n/a",
				s->crit[k][0] ? "%" : "");
		fputs(" | ", f);
		md_put(f, s->first_failure, 200);
		md_times(f, s);
		fputs(" |\n", f);
	}
}

static void md_failures(FILE *f, const struct class *c)
{
	size_t i, j;

	for (i = 0; i < c->nstudents; i++) {
		const char *name = c->students[i].name;
		int first = 1;

		for (j = 0; j < c->failures.n; j++) {
			const struct rec *r = &c->failures.v[j];

			if (strcmp(rec_get_or(r, "student", ""), name))
				continue;
			if (first) {
				fputs("- **", f);
				md_put(f, name, SIZE_MAX);
				fputs("**: ", f);
			}
			fputs(first ? "" : "; ", f);
			md_put(f, rec_get_or(r, "kind", ""), SIZE_MAX);
			fputs(" in ", f);
			md_put(f, rec_get_or(r, "cases", ""), SIZE_MAX);
			fputs(" cases (first ", f);
			md_put(f, rec_get_or(r, "first_case", ""), SIZE_MAX);
			fputs(": ", f);
			md_put(f, rec_get_or(r, "first_message", ""), 160);
			fputc(')', f);
			first = 0;
		}
		if (!first)
			fputc('\n', f);
	}
}

static void md_totals(FILE *f, const struct class *c)
{
	size_t i, *order = totals_order(c);
	int k;

	fputs("| VMs | case | passed | failed | not run | ", f);
	for (k = 0; k < NCRIT; k++)
		fprintf(f, "%s%s failed", k ? " | " : "", criteria[k]);
	fputs(" |\n", f);
	for (k = 0; k < NCRIT + 5; k++)
		fputs("|---", f);
	fputs("|\n", f);
	for (i = 0; i < c->ntotals; i++) {
		const struct case_total *t = &c->totals[order[i]];

		fprintf(f, "| %s | %s | %zu | %zu | %zu | ", t->vms, t->name,
			t->passed, t->failed, t->not_run);
		for (k = 0; k < NCRIT; k++)
			fprintf(f, "%s%zu", k ? " | " : "", t->crit_failed[k]);
		fputs(" |\n", f);
	}
	free(order);
}

void report_md(FILE *f, const struct class *c)
{
	char *d[NDESCRIBE];
	size_t i, n = class_describe(c, d);

	fputs("# Grading summary\n\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "- %s\n", d[i]);
		free(d[i]);
	}
	fputc('\n', f);
	md_class_table(f, c);
	fputs("\nCriteria: the percentage of the cases it applies to that passed it.\n\n"
	      "## Failures by kind\n\n", f);
	md_failures(f, c);
	fputs("\n## Cases across the class (most failed first)\n\n", f);
	md_totals(f, c);
}
