// SPDX-License-Identifier: GPL-2.0
/*
 * gradeclass summarize: a batch's students (OUT/students, each graded
 * into OUT/NAME) into the class's tables and reports; --single for one
 * student graded into OUT itself; score: one student's score.
 */
#include "class.h"
#include "names.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read path into a new table kept by c; NULL after a message. */
static struct table *load_table(struct class *c, const char *path)
{
	struct table *t = xcalloc(1, sizeof(*t));

	if (csv_read(path, t)) {
		msg("%s: %s", path, strerror(errno));
		free(t);
		return NULL;
	}
	c->tables = xreallocarray(c->tables, c->ntables + 1,
				  sizeof(*c->tables));
	c->tables[c->ntables++] = t;
	return t;
}

/*
 * The files of a graded student in dir into c: results, failures, and
 * the times into *tm.  -1 after a message.
 */
static int load_graded(struct class *c, const char *dir, struct times *tm)
{
	char *p = xasprintf("%s/results.csv", dir);
	struct table *t = load_table(c, p);
	int rc = 0;

	free(p);
	if (!t)
		return -1;
	recs_add(&c->results, t);
	p = xasprintf("%s/failures.csv", dir);
	if (!access(p, F_OK)) {
		t = load_table(c, p);
		if (t)
			recs_add(&c->failures, t);
		else
			rc = -1;
	}
	free(p);
	p = xasprintf("%s/times.csv", dir);
	times_read(p, tm);
	free(p);
	return rc;
}

/*
 * One student of OUT into c: their files once OUT/NAME/done says they are
 * graded, and their summary row.  -1 after a message.
 */
static int load_student(struct class *c, const char *out, const char *name)
{
	char *dir = xasprintf("%s/%s", out, name), *p, why[160];
	const char *refused = name_problem(name, why, sizeof(why));
	struct times tm = { { 0 }, { 0 } };
	struct student *s;
	size_t first = c->results.n;
	int rc = 0;

	/* A refused name's folder, if any, is not the student's (work is
	 * the grader's own). */
	p = xasprintf("%s/done", dir);
	if (!refused && !access(p, F_OK))
		rc = load_graded(c, dir, &tm);
	free(p);
	free(dir);
	c->students = xreallocarray(c->students, c->nstudents + 1,
				    sizeof(*c->students));
	s = &c->students[c->nstudents++];
	student_summary(s, name, c->results.v + first, c->results.n - first,
			&c->rubric);
	s->times = tm;
	if (c->results.n == first)
		s->result = "not-graded";
	if (refused) {
		s->result = "refused";
		free(s->first_failure);
		s->first_failure = xasprintf("folder name refused: %s", refused);
	}
	return rc;
}

char **read_names(const char *path)
{
	FILE *f = fopen(path, "r");
	char **names = NULL, *line = NULL;
	size_t n = 0, cap = 0;
	ssize_t len;

	if (!f) {
		msg("%s: %s", path, strerror(errno));
		return NULL;
	}
	names = xcalloc(1, sizeof(*names));
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len)
			continue;
		names = xreallocarray(names, n + 2, sizeof(*names));
		names[n++] = xstrdup(line);
		names[n] = NULL;
	}
	free(line);
	fclose(f);
	return names;
}

/* grade.options and the rubric of dir into c; -1 after a message. */
static int load_setup(struct class *c, const char *dir)
{
	char *p = xasprintf("%s/grade.options", dir);
	int rc = options_read(p, &c->opts);

	if (rc)
		msg("%s: %s", p, strerror(errno));
	free(p);
	if (rc)
		return -1;
	p = xasprintf("%s/rubric", dir);
	rc = rubric_read(p, &c->rubric);
	free(p);
	return rc;
}

static int all_passed(const struct class *c)
{
	size_t i;

	for (i = 0; i < c->nstudents; i++)
		if (strcmp(c->students[i].result, "pass"))
			return 0;
	return 1;
}

int summarize(const char *out)
{
	struct class c = { 0 };
	char **names, *p;
	size_t i;

	if (load_setup(&c, out))
		return EXIT_USAGE;
	p = xasprintf("%s/students", out);
	names = read_names(p);
	free(p);
	if (!names)
		return EXIT_USAGE;
	for (i = 0; names[i]; i++)
		if (load_student(&c, out, names[i]))
			return EXIT_USAGE;
	class_totals(&c);
	if (write_tables(&c, out) ||
	    write_file(&c, out, "report.md", report_md) ||
	    write_file(&c, out, "report.html", report_html))
		return EXIT_USAGE;
	return all_passed(&c) ? EXIT_OK : EXIT_FAIL;
}

int score(const char *rubric, const char *results)
{
	struct class c = { 0 };
	struct table *t;
	struct student s;

	if (rubric_read(rubric, &c.rubric))
		return EXIT_USAGE;
	t = load_table(&c, results);
	if (!t)
		return EXIT_USAGE;
	recs_add(&c.results, t);
	student_summary(&s, "", c.results.v, c.results.n, &c.rubric);
	printf("%s\n", s.score);
	return strcmp(s.result, "pass") ? EXIT_FAIL : EXIT_OK;
}

int summarize_single(const char *out)
{
	struct class c = { 0 };
	struct table *t;
	char *p;
	int rc;

	p = xasprintf("%s/rubric", out);
	rc = rubric_read(p, &c.rubric);
	free(p);
	if (rc)
		return EXIT_USAGE;
	p = xasprintf("%s/results.csv", out);
	t = load_table(&c, p);
	free(p);
	if (!t)
		return EXIT_USAGE;
	recs_add(&c.results, t);
	c.students = xcalloc(1, sizeof(*c.students));
	c.nstudents = 1;
	student_summary(c.students, "", c.results.v, c.results.n, &c.rubric);
	p = xasprintf("%s/times.csv", out);
	times_read(p, &c.students[0].times);
	free(p);
	if (write_tables_summary(&c, out))
		return EXIT_USAGE;
	printf("%s\n", c.students[0].score);
	return all_passed(&c) ? EXIT_OK : EXIT_FAIL;
}
