// SPDX-License-Identifier: GPL-2.0
/*
 * A student's summary row and the totals per case: the figures of
 * summary.csv and cases.csv.
 */
#include "class.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *cell(const struct rec *r, const char *key)
{
	return rec_get_or(r, key, "");
}

/* The percentage of crit's applicable cases that passed it, or "". */
static void crit_percent(char out[8], const char *crit, const struct rec *rows,
			 size_t n)
{
	size_t i, applies = 0, passed = 0;
	char key[32];

	snprintf(key, sizeof(key), "%s_ok", crit);
	for (i = 0; i < n; i++) {
		const char *st = rec_get_or(&rows[i], key, "n/a");

		if (!strcmp(st, "n/a"))
			continue;
		applies++;
		passed += !strcmp(st, "pass");
	}
	out[0] = '\0';
	/* rounded half to even, as the figures always were */
	if (applies)
		snprintf(out, 8, "%.0f",
			 nearbyint((double)(100 * passed) / (double)applies));
}

void student_summary(struct student *s, const char *name,
		     const struct rec *rows, size_t n, const struct rubric *r)
{
	const struct rec *bad = NULL;
	double sum = 0;
	size_t i;
	int c;

	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->cases = n;
	for (i = 0; i < n; i++) {
		const char *res = cell(&rows[i], "result");

		s->passed += !strcmp(res, "pass");
		s->failed += !strcmp(res, "fail");
		s->not_run += !strcmp(res, "not-run");
		if (strcmp(res, "pass") && !bad)
			bad = &rows[i];
		sum += case_score(&rows[i], r);
	}
	for (c = 0; c < NCRIT; c++)
		crit_percent(s->crit[c], criteria[c], rows, n);
	snprintf(s->score, sizeof(s->score), "%.1f",
		 n ? 100 * sum / (double)n : 0.0);
	s->result = bad || !n ? "fail" : "pass";
	if (bad)
		s->first_failure = xasprintf("%svm %s: %s", cell(bad, "vms"),
					     cell(bad, "case"),
					     cell(bad, "reason"));
	else
		s->first_failure = xstrdup(n ? "" : "no results");
}

/* The total of case (vms, name), added at the end when it is new. */
static struct case_total *total_of(struct class *c, const char *vms,
				   const char *name)
{
	struct case_total *t;
	size_t i;

	for (i = c->ntotals; i-- > 0;)
		if (!strcmp(c->totals[i].vms, vms) &&
		    !strcmp(c->totals[i].name, name))
			return &c->totals[i];
	c->totals = xreallocarray(c->totals, c->ntotals + 1,
				  sizeof(*c->totals));
	t = &c->totals[c->ntotals++];
	memset(t, 0, sizeof(*t));
	t->vms = vms;
	t->name = name;
	return t;
}

void class_totals(struct class *c)
{
	char key[32];
	size_t i;
	int k;

	for (i = 0; i < c->results.n; i++) {
		const struct rec *r = &c->results.v[i];
		struct case_total *t = total_of(c, cell(r, "vms"),
						cell(r, "case"));
		const char *res = cell(r, "result");

		t->students++;
		if (!strcmp(res, "pass"))
			t->passed++;
		else if (!strcmp(res, "fail"))
			t->failed++;
		else
			t->not_run++;
		for (k = 0; k < NCRIT; k++) {
			snprintf(key, sizeof(key), "%s_ok", criteria[k]);
			t->crit_failed[k] += !strcmp(cell(r, key), "fail");
		}
	}
}

static const struct class *sorting;

/* Most failed first; in case order between equals (a stable sort). */
static int cmp_failed(const void *a, const void *b)
{
	const struct case_total *x = &sorting->totals[*(const size_t *)a];
	const struct case_total *y = &sorting->totals[*(const size_t *)b];
	size_t fx = x->failed + x->not_run, fy = y->failed + y->not_run;

	if (x == y)
		return 0;
	if (fx != fy)
		return fx > fy ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

size_t *totals_order(const struct class *c)
{
	size_t *order = xcalloc(c->ntotals + 1, sizeof(*order));
	size_t i;

	for (i = 0; i < c->ntotals; i++)
		order[i] = i;
	sorting = c;
	qsort(order, c->ntotals, sizeof(*order), cmp_failed);
	return order;
}

void recs_add(struct recs *rs, const struct table *t)
{
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		if (rs->n == rs->cap) {
			rs->cap = rs->cap ? 2 * rs->cap : 256;
			rs->v = xreallocarray(rs->v, rs->cap, sizeof(*rs->v));
		}
		rs->v[rs->n].t = t;
		rs->v[rs->n++].cells = t->rows[i];
	}
}
