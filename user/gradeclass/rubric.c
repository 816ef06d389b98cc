// SPDX-License-Identifier: GPL-2.0
#include "rubric.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const char *const criteria[NCRIT] = {
	"bytes", "exits", "time_line", "pages", "kernel_log"
};

static int crit_index(const char *name)
{
	int i;

	for (i = 0; i < NCRIT; i++)
		if (!strcmp(criteria[i], name))
			return i;
	return -1;
}

/* line without surrounding white space, for a message. */
static const char *trimmed(char *line)
{
	size_t n = strlen(line);

	while (n && isspace((unsigned char)line[n - 1]))
		line[--n] = '\0';
	while (isspace((unsigned char)*line))
		line++;
	return line;
}

/* Split line (up to a '#') into at most 4 words; returns how many. */
static int split_words(char *line, char *w[4])
{
	char *hash = strchr(line, '#'), *save = NULL, *tok;
	int n = 0;

	if (hash)
		*hash = '\0';
	for (tok = strtok_r(line, " \t\r\n\v\f", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n\v\f", &save))
		if (n < 4)
			w[n++] = tok;
		else
			return 4;
	return n;
}

/*
 * A rubric's setting: its key, its two words (for 0 and 1), the words as
 * a message shows them, and the field of struct rubric it sets.
 */
struct option {
	const char *key, *word[2], *shown;
	size_t at;
};

static const struct option options[] = {
	{ "strict_time_line", { "no", "yes" }, "yes|no",
	  offsetof(struct rubric, strict_time_line) },
	{ "legacy_send_result", { "bytes", "zero" }, "bytes|zero",
	  offsetof(struct rubric, legacy_send_zero) },
	{ "legacy_read", { "fill", "starter" }, "fill|starter",
	  offsetof(struct rubric, legacy_read_starter) },
};

/* The setting called key, or NULL. */
static const struct option *option_of(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (!strcmp(options[i].key, key))
			return &options[i];
	return NULL;
}

/*
 * "strict_time_line yes|no", "legacy_send_result bytes|zero" or
 * "legacy_read fill|starter"; -1 after a message when it is wrong.
 */
static int parse_option(const struct option *o, const char *value,
			const char *name, unsigned long n, struct rubric *r)
{
	int *field = (int *)((char *)r + o->at), v;

	for (v = 0; v < 2; v++)
		if (!strcmp(value, o->word[v])) {
			*field = v;
			return 0;
		}
	return fail("%s:%lu: want '%s %s': %s %s", name, n, o->key, o->shown,
		    o->key, value);
}

/* One rubric line into r; -1 after a message when it is wrong. */
static int parse_line(char *line, const char *name, unsigned long n,
		      struct rubric *r)
{
	char *copy = xstrdup(line), *w[4];
	int words = split_words(line, w), c, i;
	uint64_t weight;

	if (!words || (words == 2 && option_of(w[0]))) {
		free(copy);
		return words ? parse_option(option_of(w[0]), w[1], name, n, r) : 0;
	}
	c = words == 3 ? crit_index(w[0]) : -1;
	if (c < 0 || parse_uint(w[1], 0, UINT32_MAX, &weight) ||
	    (strcmp(w[2], "required") && strcmp(w[2], "optional"))) {
		msg("%s:%lu: want 'CRITERION WEIGHT required|optional' with CRITERION one of bytes, exits, time_line, pages, kernel_log: %s",
		    name, n, trimmed(copy));
		free(copy);
		return -1;
	}
	free(copy);
	for (i = 0; i < r->n; i++)
		if (r->line[i].crit == c)
			return fail("%s:%lu: %s given twice", name, n, w[0]);
	r->line[r->n].crit = c;
	r->line[r->n].weight = (unsigned long)weight;
	r->line[r->n++].required = !strcmp(w[2], "required");
	return 0;
}

int rubric_parse(FILE *f, const char *name, struct rubric *r)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long n = 0, total = 0;
	int i, rc = 0;

	memset(r, 0, sizeof(*r));
	while (!rc && getline(&line, &cap, f) >= 0)
		rc = parse_line(line, name, ++n, r);
	free(line);
	if (rc)
		return -1;
	for (i = 0; i < r->n; i++)
		total += r->line[i].weight;
	if (!total)
		return fail("%s: no criterion has a weight", name);
	return 0;
}

int rubric_read(const char *path, struct rubric *r)
{
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return fail("%s: %s", path, strerror(errno));
	rc = rubric_parse(f, path, r);
	fclose(f);
	return rc;
}

double case_score(const struct rec *row, const struct rubric *r)
{
	unsigned long got = 0, total = 0;
	char key[32];
	int i;

	for (i = 0; i < r->n; i++) {
		const struct rubric_line *l = &r->line[i];
		const char *st;

		snprintf(key, sizeof(key), "%s_ok", criteria[l->crit]);
		st = rec_get_or(row, key, "");
		if (!strcmp(st, "n/a"))
			continue;
		if (l->required && strcmp(st, "pass"))
			return 0.0;
		total += l->weight;
		if (!strcmp(st, "pass"))
			got += l->weight;
	}
	return total ? (double)got / (double)total : 1.0;
}

void rubric_describe(FILE *f, const struct rubric *r)
{
	int i;

	for (i = 0; i < r->n; i++)
		fprintf(f, "%s%s %lu%s", i ? ", " : "",
			criteria[r->line[i].crit], r->line[i].weight,
			r->line[i].required ? " (required)" : "");
	if (r->strict_time_line)
		fputs("; strict time line", f);
}
