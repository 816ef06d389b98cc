// SPDX-License-Identifier: GPL-2.0
/*
 * gradeclass merge: the outputs of the N shards of a class into one
 * summary, once they are shown to be the same grading (options, grader,
 * kernel, module) of N different parts, all present.
 */
#include "accel.h"
#include "class.h"
#include "json.h"
#include "tree.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>

/* The shard's "K/N" split at the slash: *k and *n point into a copy. */
static char *shard_split(const struct options *o, char **n)
{
	const char *v = options_get(o, "shard");
	char *k = xstrdup(v ? v : "1/1"), *slash = strchr(k, '/');

	*n = slash ? slash + 1 : k + strlen(k);
	if (slash)
		*slash = '\0';
	return k;
}

/*
 * Every shard graded as the first; -1 after naming what differs.  The
 * accelerator may differ: time limits scale with it, so it changes how
 * long a case may take, not what is checked, and the merged reports say
 * which shard ran under which.
 */
static int same_grading(struct options *o, char **dirs, int ndirs)
{
	static const char *const not_compared[] = { "accel", NULL };
	char **lines, *all;
	size_t n, i, len;
	int d;

	for (d = 1; d < ndirs; d++) {
		n = options_diff(&o[0], &o[d], not_compared, &lines);
		for (i = 0, len = 1; i < n; i++)
			len += strlen(lines[i]) + 2;
		all = xcalloc(1, len);
		for (i = 0; i < n; i++) {
			strcat(all, i ? "; " : "");
			strcat(all, lines[i]);
			free(lines[i]);
		}
		free(lines);
		if (n) {
			msg("%s was graded differently from %s: %s", dirs[d],
			    dirs[0], all);
			free(all);
			return -1;
		}
		free(all);
	}
	return 0;
}

/*
 * Each shard's summary.json, where it wrote one, is of the format this
 * gradeclass writes: a shard summarized by another is merged by that one.
 * A shard without one stopped before its summary; its students are
 * reported as not graded.  -1 after naming the shard.
 */
static int same_format(char **dirs, int ndirs)
{
	char head[64];
	int d, v;

	for (d = 0; d < ndirs; d++) {
		char *p = xasprintf("%s/summary.json", dirs[d]);
		FILE *f = fopen(p, "r");
		size_t n;

		if (!f && errno == ENOENT) {
			free(p);
			continue;
		}
		if (!f) {
			msg("%s: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		n = fread(head, 1, sizeof(head) - 1, f);
		fclose(f);
		head[n] = '\0';
		v = json_format_version(head);
		if (v != GRADECLASS_FORMAT_VERSION) {
			if (v < 0)
				msg("%s: no format_version: not a summary gradeclass writes", p);
			else
				msg("%s: format_version %d, not %d: merge it with the gradeclass that graded it",
				    p, v, GRADECLASS_FORMAT_VERSION);
			free(p);
			return -1;
		}
		free(p);
	}
	return 0;
}

/* "shards missing: K/N, ..." for the parts 1..total not in k[0..ndirs). */
static int missing_parts(char **k, int ndirs, uint64_t total, const char *n)
{
	char *list = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&list, &len);
	const char *sep = "";
	uint64_t i;
	int e;

	if (!f)
		die(EXIT_FAIL, "out of memory");
	for (i = 1; i <= total; i++) {
		char num[24];

		snprintf(num, sizeof(num), "%llu", (unsigned long long)i);
		for (e = 0; e < ndirs && strcmp(k[e], num); e++)
			;
		if (e < ndirs)
			continue;
		fprintf(f, "%s%s/%s", sep, num, n);
		sep = ", ";
	}
	fclose(f);
	if (*list)
		msg("shards missing: %s", list);
	free(list);
	return *sep ? -1 : 0;
}

/* The shards are 1..N of the same N, each once; -1 after saying not. */
static int all_parts(struct options *o, char **dirs, int ndirs)
{
	char **k = xcalloc((size_t)ndirs, sizeof(*k)), **n;
	const char *first = options_get(&o[0], "shard");
	uint64_t total;
	int d, e, rc = 0;

	n = xcalloc((size_t)ndirs, sizeof(*n));
	for (d = 0; d < ndirs; d++)
		k[d] = shard_split(&o[d], &n[d]);
	for (d = 0; d < ndirs && !rc; d++) {
		if (strcmp(n[d], n[0]))
			rc = fail("%s is shard %s/%s, %s one of %s", dirs[d],
				  k[d], n[d], dirs[0], first ? first : "None");
		for (e = 0; e < d && !rc; e++)
			if (!strcmp(k[e], k[d]))
				rc = fail("%s and %s are both shard %s/%s",
					  dirs[d], dirs[e], k[d], n[d]);
	}
	if (!rc && parse_uint(n[0], 0, INT_MAX, &total))
		rc = fail("%s: bad shard '%s'", dirs[0], first);
	if (!rc)
		rc = missing_parts(k, ndirs, total, n[0]);
	for (d = 0; d < ndirs; d++)
		free(k[d]);
	free(k);
	free(n);
	return rc;
}

/* dir's students copied into out (unless dir is out); appended to *names. */
static int take_students(const char *out, const char *dir, char ***names,
			 size_t *nnames)
{
	char *p = xasprintf("%s/students", dir), **mine = read_names(p);
	char rd[PATH_MAX], ro[PATH_MAX];
	int same, rc = 0;
	size_t i;

	free(p);
	if (!mine)
		return -1;
	same = realpath(dir, rd) && realpath(out, ro) && !strcmp(rd, ro);
	for (i = 0; mine[i]; i++) {
		char *src = xasprintf("%s/%s", dir, mine[i]);
		char *dst = xasprintf("%s/%s", out, mine[i]);

		if (!same && !rc)
			rc = tree_remove(dst) || tree_copy(src, dst, "work") ? -1 : 0;
		free(src);
		free(dst);
		*names = xreallocarray(*names, *nnames + 1, sizeof(**names));
		(*names)[(*nnames)++] = mine[i];
	}
	free(mine);
	return rc;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* out's grade.options, rubric and students: those of the merged class. */
static int write_setup(const char *out, struct options *o, int ndirs,
		       const char *dir0, char **names, size_t n)
{
	char *p = xasprintf("%s/grade.options", out), *v, *r0, *r;
	struct stat s0, s1;
	FILE *f = fopen(p, "w");
	size_t i;
	int rc;

	if (!f)
		return fail("%s: %s", p, strerror(errno));
	v = xasprintf("merged from %d", ndirs);
	options_set(o, "shard", v);
	free(v);
	for (i = 0; i < o->n; i++)
		fprintf(f, "%s=%s\n", o->key[i], o->val[i]);
	rc = fclose(f) ? fail("%s: %s", p, strerror(errno)) : 0;
	free(p);
	r0 = xasprintf("%s/rubric", dir0);
	r = xasprintf("%s/rubric", out);
	/* The first shard's rubric, unless out is that shard. */
	if (!rc && (stat(r0, &s0) || stat(r, &s1) || s0.st_dev != s1.st_dev ||
		    s0.st_ino != s1.st_ino))
		rc = file_copy(r0, r);
	free(r0);
	free(r);
	p = xasprintf("%s/students", out);
	f = rc ? NULL : fopen(p, "w");
	if (!rc && !f)
		rc = fail("%s: %s", p, strerror(errno));
	qsort(names, n, sizeof(*names), cmp_name);
	for (i = 0; f && i < n; i++)
		fprintf(f, "%s\n", names[i]);
	if (f && fclose(f))
		rc = fail("%s: %s", p, strerror(errno));
	free(p);
	return rc;
}

int merge(const char *out, char **dirs, int ndirs)
{
	struct options *o = xcalloc((size_t)ndirs, sizeof(*o));
	char **names = NULL, *by_shard;
	size_t n = 0;
	int d;

	for (d = 0; d < ndirs; d++) {
		char *p = xasprintf("%s/grade.options", dirs[d]);

		if (options_read(p, &o[d])) {
			msg("%s: %s", p, strerror(errno));
			return EXIT_USAGE;
		}
		free(p);
	}
	if (same_grading(o, dirs, ndirs) || all_parts(o, dirs, ndirs) ||
	    same_format(dirs, ndirs))
		return EXIT_USAGE;
	if (mkdir(out, 0777) && errno != EEXIST) {
		msg("%s: %s", out, strerror(errno));
		return EXIT_USAGE;
	}
	for (d = 0; d < ndirs; d++)
		if (take_students(out, dirs[d], &names, &n))
			return EXIT_USAGE;
	by_shard = accel_by_shard(o, (size_t)ndirs);
	if (by_shard) {
		options_set(&o[0], "accel", "mixed");
		options_set(&o[0], "accel_shards", by_shard);
		free(by_shard);
	}
	if (write_setup(out, &o[0], ndirs, dirs[0], names, n))
		return EXIT_USAGE;
	return summarize(out);
}
