// SPDX-License-Identifier: GPL-2.0
/*
 * The notes of a CSV table from the metadata beside it, NAME.meta.json
 * as report.h writes it: {"format_version":1, "tables":[{"title":…,
 * "notes":{"k":"v", …}, …}, …]}; the first table's notes are read.  Only
 * what that writer produces is understood: the version first, strings
 * with \" \\ and \uXXXX escapes.
 */
#include "csvtab.h"
#include "json.h"
#include "report.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void add(struct csvtab *t, char *key, char *val)
{
	t->note_keys = xreallocarray(t->note_keys, t->nnotes + 1,
				     sizeof(char *));
	t->note_vals = xreallocarray(t->note_vals, t->nnotes + 1,
				     sizeof(char *));
	t->note_keys[t->nnotes] = key;
	t->note_vals[t->nnotes++] = val;
}

int csvtab_meta_parse(struct csvtab *t, const char *json)
{
	const char *p = strstr(json, "\"notes\"");
	char *key, *val;

	if (!p || json_format_version(json) != REPORT_FORMAT_VERSION)
		return -1;
	p = json_skip_ws(p + 7);
	if (*p != ':' || *(p = json_skip_ws(p + 1)) != '{')
		return -1;
	for (p = json_skip_ws(p + 1); *p != '}'; p = json_skip_ws(p)) {
		p = json_get_string(p, &key);
		if (!p)
			return -1;
		p = json_skip_ws(p);
		if (*p != ':' || !(p = json_get_string(json_skip_ws(p + 1), &val))) {
			free(key);
			return -1;
		}
		add(t, key, val);
		p = json_skip_ws(p);
		if (*p == ',')
			p++;
	}
	return 0;
}

/* The whole text of path (it holds no NUL; "" when empty), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	if (getdelim(&text, &cap, '\0', f) <= 0) {
		free(text);
		text = xstrdup("");
	}
	fclose(f);
	return text;
}

int csvtab_meta_check(const char *path)
{
	char *text = slurp(path);
	int v;

	if (!text)
		return fail_errno("cannot read %s", path);
	v = json_format_version(text);
	free(text);
	if (v == REPORT_FORMAT_VERSION)
		return 0;
	if (v < 0)
		return fail("%s: no format_version first: not metadata osbench "
			    "report writes (format_version %d); measure again",
			    path, REPORT_FORMAT_VERSION);
	return fail("%s: format_version %d is not the one this osbench reads "
		    "(%d); measure again, or render with the osbench that "
		    "wrote it", path, v, REPORT_FORMAT_VERSION);
}

int csvtab_meta_load(struct csvtab *t, const char *csv_path)
{
	size_t n = strlen(csv_path);
	char *path, *text;
	int rc;

	if (n < 4 || strcmp(csv_path + n - 4, ".csv"))
		return -1;
	path = xasprintf("%.*s.meta.json", (int)(n - 4), csv_path);
	text = slurp(path);
	free(path);
	if (!text)
		return -1;
	rc = csvtab_meta_parse(t, text);
	free(text);
	return rc;
}
