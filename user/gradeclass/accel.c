// SPDX-License-Identifier: GPL-2.0
#include "accel.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *accel_of(const struct options *o)
{
	const char *v = options_get(o, "accel");

	return v && *v ? v : "not recorded";
}

/* The K of a shard's "K/N" (0 when it has none, sorting first). */
static unsigned long long shard_k(const struct options *o)
{
	const char *v = options_get(o, "shard");

	return v ? strtoull(v, NULL, 10) : 0;
}

static const struct options *sorting;

static int cmp_shard(const void *a, const void *b)
{
	unsigned long long x = shard_k(&sorting[*(const size_t *)a]);
	unsigned long long y = shard_k(&sorting[*(const size_t *)b]);

	if (a == b)
		return 0;
	if (x != y)
		return x < y ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

char *accel_by_shard(const struct options *o, size_t n)
{
	size_t i, *order, len = 0;
	char *list = NULL;
	FILE *f;

	for (i = 1; i < n && !strcmp(accel_of(&o[i]), accel_of(&o[0])); i++)
		;
	if (i >= n)
		return NULL;
	order = xcalloc(n, sizeof(*order));
	for (i = 0; i < n; i++)
		order[i] = i;
	sorting = o;
	qsort(order, n, sizeof(*order), cmp_shard);
	f = open_memstream(&list, &len);
	if (!f)
		die(EXIT_FAIL, "out of memory");
	for (i = 0; i < n; i++) {
		const char *k = options_get(&o[order[i]], "shard");

		fprintf(f, "%s%s (shard %s)", i ? ", " : "",
			accel_of(&o[order[i]]), k ? k : "1/1");
	}
	fclose(f);
	free(order);
	return list;
}

char *accel_describe(const struct options *o)
{
	const char *shards = options_get(o, "accel_shards");

	if (shards && *shards)
		return xasprintf("accelerators: %s", shards);
	return xasprintf("accelerator: %s", accel_of(o));
}
