// SPDX-License-Identifier: GPL-2.0
#include "options.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void options_set(struct options *o, const char *key, const char *val)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		if (!strcmp(o->key[i], key)) {
			free(o->val[i]);
			o->val[i] = xstrdup(val);
			return;
		}
	}
	o->key = xreallocarray(o->key, o->n + 1, sizeof(*o->key));
	o->val = xreallocarray(o->val, o->n + 1, sizeof(*o->val));
	o->key[o->n] = xstrdup(key);
	o->val[o->n++] = xstrdup(val);
}

int options_read(const char *path, struct options *o)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *eq;
	size_t cap = 0;
	ssize_t n;

	memset(o, 0, sizeof(*o));
	if (!f)
		return -1;
	while ((n = getline(&line, &cap, f)) >= 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		eq = strchr(line, '=');
		if (eq)
			*eq = '\0';
		if (line[0])
			options_set(o, line, eq ? eq + 1 : "");
	}
	free(line);
	fclose(f);
	return 0;
}

const char *options_get(const struct options *o, const char *key)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (!strcmp(o->key[i], key))
			return o->val[i];
	return NULL;
}

void options_free(struct options *o)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		free(o->key[i]);
		free(o->val[i]);
	}
	free(o->key);
	free(o->val);
	memset(o, 0, sizeof(*o));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether key is in keys[0..n) (up to the NULL that ends them). */
static int has_key(const char *const *keys, size_t n, const char *key)
{
	size_t i;

	for (i = 0; keys && i < n && keys[i]; i++)
		if (!strcmp(keys[i], key))
			return 1;
	return 0;
}

size_t options_diff(const struct options *a, const struct options *b,
		    const char *const *skip, char ***lines)
{
	char **keys = xcalloc(a->n + b->n + 1, sizeof(*keys));
	size_t i, nk = 0, nd = 0;

	for (i = 0; i < a->n + b->n; i++) {
		const char *k = i < a->n ? a->key[i] : b->key[i - a->n];

		if (strcmp(k, "shard") && strcmp(k, "rubric_file") &&
		    !has_key(skip, SIZE_MAX, k) &&
		    !has_key((const char *const *)keys, nk, k))
			keys[nk++] = (char *)k;
	}
	qsort(keys, nk, sizeof(*keys), cmp_str);
	*lines = xcalloc(nk + 1, sizeof(**lines));
	for (i = 0; i < nk; i++) {
		const char *va = options_get(a, keys[i]);
		const char *vb = options_get(b, keys[i]);

		if (va && vb && !strcmp(va, vb))
			continue;
		(*lines)[nd++] = xasprintf("%s: '%s' vs '%s'", keys[i],
					   va ? va : "(none)",
					   vb ? vb : "(none)");
	}
	free(keys);
	return nd;
}
