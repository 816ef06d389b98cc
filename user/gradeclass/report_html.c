// SPDX-License-Identifier: GPL-2.0
/*
 * The class's report.html: one static page (style and script inline, no
 * external file) with the class table, sortable by a column, each
 * student's failures by kind and the totals per case.  Every string that
 * comes from a submission (names, messages, reasons) is escaped.
 */
#include "class.h"
#include "html_assets.h"
#include "text.h"

#include <stdlib.h>
#include <stdint.h>
#include <string.h>

/*
 * <td class="cls" data-v="sort">value</td>, value cut at max characters
 * (and sorted by what is shown unless sort is given).
 */
static void td(FILE *f, const char *cls, const char *sort, const char *value,
	       size_t max)
{
	size_t n = utf8_prefix(value, max);

	fputs("<td", f);
	if (cls)
		fprintf(f, " class=\"%s\"", cls);
	fputs(" data-v=\"", f);
	if (sort)
		html_put(f, sort);
	else
		html_put_n(f, value, n);
	fputs("\">", f);
	html_put_n(f, value, n);
	fputs("</td>", f);
}

/* td of a count. */
static void td_num(FILE *f, const char *cls, size_t v)
{
	fprintf(f, "<td%s%s%s data-v=\"%zu\">%zu</td>", cls ? " class=\"" : "",
		cls ? cls : "", cls ? "\"" : "", v, v);
}

static void html_student_row(FILE *f, const struct student *s)
{
	static const char *const order[] = { "fail", "not-graded", "pass" };
	char sort[64], pct[16], secs[24];
	int k, rank = 3;

	for (k = 0; k < 3; k++)
		if (!strcmp(s->result, order[k]))
			rank = k;
	fprintf(f, "<tr class=\"%s\"><td data-v=\"", s->result);
	html_put(f, s->name);
	fputs("\"><a href=\"./", f);
	url_put(f, s->name);
	fputs("/report.md\">", f);
	html_put(f, s->name);
	fputs("</a></td>", f);
	td(f, "num", NULL, s->score, SIZE_MAX);
	snprintf(sort, sizeof(sort), "%d %s", rank, s->result);
	td(f, "result", sort, s->result, SIZE_MAX);
	td_num(f, "num", s->passed);
	td_num(f, "num", s->cases);
	for (k = 0; k < NCRIT; k++) {
		snprintf(pct, sizeof(pct), "%s%%", s->crit[k]);
		td(f, "num", s->crit[k][0] ? s->crit[k] : "-1",
		   s->crit[k][0] ? pct : "n/a", SIZE_MAX);
	}
	td(f, NULL, NULL, s->first_failure, 200);
	for (k = 0; k < NTIMES; k++)
		td(f, "num", s->times.has[k] ? NULL : "-1",
		   times_cell(&s->times, k, secs), SIZE_MAX);
	fputs("</tr>\n", f);
}

static void html_class_table(FILE *f, const struct class *c)
{
	size_t i;
	int k;

	fprintf(f, "<table id=\"class\" data-students=\"%zu\"><thead><tr>"
		"<th>student</th><th>score</th><th>result</th><th>passed</th>"
		"<th>cases</th>", c->nstudents);
	for (k = 0; k < NCRIT; k++)
		fprintf(f, "<th>%s</th>", criteria[k]);
	fputs("<th>first failure</th>", f);
	for (k = 0; k < NTIMES; k++)
		fprintf(f, "<th>%s</th>", time_columns[k]);
	fputs("</tr></thead><tbody>\n", f);
	for (i = 0; i < c->nstudents; i++)
		html_student_row(f, &c->students[i]);
	fputs("</tbody></table>\n", f);
}

/* One failure kind of a student: a list item. */
static void html_kind(FILE *f, const struct rec *r)
{
	fputs("<li><span class=\"kind\">", f);
	html_put(f, rec_get_or(r, "kind", ""));
	fputs("</span> in ", f);
	html_put(f, rec_get_or(r, "cases", ""));
	fputs(" cases; first ", f);
	html_put(f, rec_get_or(r, "first_case", ""));
	fputs(": ", f);
	html_put_cut(f, rec_get_or(r, "first_message", ""), 300);
	fputs("</li>\n", f);
}

static void html_failures(FILE *f, const struct class *c)
{
	size_t i, j;

	fputs("<h2>Failures by kind</h2><div id=\"failures\">\n", f);
	for (i = 0; i < c->nstudents; i++) {
		const char *name = c->students[i].name;
		int any = 0;

		for (j = 0; j < c->failures.n; j++) {
			const struct rec *r = &c->failures.v[j];

			if (strcmp(rec_get_or(r, "student", ""), name))
				continue;
			if (!any) {
				fputs("<div class=\"student\" data-student=\"", f);
				html_put(f, name);
				fputs("\"><b>", f);
				html_put(f, name);
				fputs("</b><ul class=\"kinds\">\n", f);
			}
			any = 1;
			html_kind(f, r);
		}
		if (any)
			fputs("</ul></div>\n", f);
	}
	fputs("</div>\n", f);
}

static void html_totals(FILE *f, const struct class *c)
{
	size_t i, *order = totals_order(c);
	int k;

	fputs("<h2>Cases across the class (most failed first)</h2><table id=\"cases\"><thead><tr>"
	      "<th>VMs</th><th>case</th><th>passed</th><th>failed</th><th>not run</th>", f);
	for (k = 0; k < NCRIT; k++)
		fprintf(f, "<th>%s failed</th>", criteria[k]);
	fputs("</tr></thead><tbody>\n", f);
	for (i = 0; i < c->ntotals; i++) {
		const struct case_total *t = &c->totals[order[i]];

		fputs("<tr>", f);
		td(f, NULL, NULL, t->vms, SIZE_MAX);
		td(f, NULL, NULL, t->name, SIZE_MAX);
		td_num(f, NULL, t->passed);
		td_num(f, NULL, t->failed);
		td_num(f, NULL, t->not_run);
		for (k = 0; k < NCRIT; k++)
			td_num(f, NULL, t->crit_failed[k]);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	free(order);
}

void report_html(FILE *f, const struct class *c)
{
	char *d[NDESCRIBE];
	size_t i, n = class_describe(c, d);

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<title>Grading summary</title>\n<style>%s</style>\n"
		"<script>%s</script></head><body>\n"
		"<h1>Grading summary</h1><ul>\n", html_style, html_script);
	for (i = 0; i < n; i++) {
		fputs("<li>", f);
		html_put(f, d[i]);
		fputs("</li>\n", f);
		free(d[i]);
	}
	fputs("</ul><p id=\"check\"></p>\n<p>Criteria: the percentage of the cases "
	      "it applies to that passed it; click a column to sort.</p>\n", f);
	html_class_table(f, c);
	html_failures(f, c);
	html_totals(f, c);
	fputs("</body></html>\n", f);
}
