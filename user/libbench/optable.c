// SPDX-License-Identifier: GPL-2.0
/* Options as data: the one parser and help printer (optable.h). */
#include "optable.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define HELP_COLUMN 17

/* "1 byte", "4 KiB", "1 GiB": exact, for the bounds in messages. */
static void human(char *buf, size_t len, uint64_t v)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB",
					    "TiB" };
	int i = 0;

	while (v >= 1024 && v % 1024 == 0 && i < 4) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)v,
		 v == 1 && i == 0 ? "byte" : unit[i]);
}

static int size_value(const struct opt *d, const char *what, const char *v,
		      uint64_t *out)
{
	uint64_t max = d->max ? d->max : UINT64_MAX;
	char lo[32], hi[32];

	if (parse_size(v, out)) {
		msg("bad %s '%s': %s", what, v, errno == ERANGE ? "too large" :
		    "not a size (e.g. 512, 4K, 1M)");
		return -1;
	}
	if (*out >= d->min && *out <= max)
		return 0;
	human(lo, sizeof(lo), d->min);
	human(hi, sizeof(hi), max);
	if (max == UINT64_MAX)
		msg("bad %s '%s': must be at least %s", what, v, lo);
	else
		msg("bad %s '%s': must be %s to %s", what, v, lo, hi);
	return -1;
}

static int uint_value(const struct opt *d, const char *what, const char *v,
		      uint64_t *out)
{
	uint64_t max = d->max ? d->max : UINT64_MAX;

	if (!parse_uint(v, d->min, max, out))
		return 0;
	if (max == UINT64_MAX)
		msg("%s: '%s' is not a count >= %llu", what, v,
		    (unsigned long long)d->min);
	else
		msg("%s: '%s' is not a count in %llu..%llu", what, v,
		    (unsigned long long)d->min, (unsigned long long)max);
	return -1;
}

static int seconds_value(const char *what, const char *v, uint64_t *out)
{
	char *end;
	double s;

	errno = 0;
	s = strtod(v, &end);
	if (errno || end == v || *end || !isfinite(s) || s <= 0 || s > 3600) {
		msg("bad %s '%s': want seconds in (0, 3600]", what, v);
		return -1;
	}
	*out = (uint64_t)(s * 1e9);
	return 0;
}

int optable_value(const struct opt *d, const char *what, const char *v,
		  void *dst)
{
	void *p = (char *)dst + d->off;

	switch (d->kind) {
	case OPT_FLAG:
		*(bool *)p = true;
		return 0;
	case OPT_SETINT:
		*(int *)p = (int)d->min;
		return 0;
	case OPT_STR:
		*(const char **)p = v;
		return 0;
	case OPT_SIZE:
		return size_value(d, what, v, p);
	case OPT_UINT:
		return uint_value(d, what, v, p);
	case OPT_SECONDS:
		return seconds_value(what, v, p);
	case OPT_CALL:
		return d->parse(what, v, p);
	}
	return -1;
}

int optable_defaults(const struct optset *set)
{
	const struct opt *d;

	for (d = set->opts; d->name || d->letter; d++)
		if (d->def && optable_value(d, d->name, d->def, set->dst))
			return -1;
	return 0;
}

/* The option named name[0..len) (letter when len is 0), or NULL. */
static const struct opt *find(const struct optset *sets, size_t nsets,
			      const char *name, size_t len,
			      const struct optset **set)
{
	const struct opt *d;
	size_t s;

	for (s = 0; s < nsets; s++) {
		for (d = sets[s].opts; d->name || d->letter; d++) {
			if (len ? d->name && !strncmp(d->name, name, len) &&
				  !d->name[len] :
				  d->letter == name[0]) {
				*set = &sets[s];
				return d;
			}
		}
	}
	return NULL;
}

/* Store option d found as arg; *v its attached value (NULL: none). */
static int apply(const struct optset *set, const struct opt *d,
		 const char *arg, const char *v, int argc, char **argv, int *i)
{
	if (!d) {
		msg("unknown option '%s' (see %s --help)", arg,
		    command_name());
		return -1;
	}
	if (d->group && !(set->groups & d->group)) {
		if (d->refused)
			msg(d->refused, progname());
		else
			msg("unknown option '%s' (see %s --help)", arg,
			    command_name());
		return -1;
	}
	if (!d->arg) {
		if (v) {
			msg("%s takes no value", arg);
			return -1;
		}
		return optable_value(d, arg, NULL, set->dst);
	}
	if (!v) {
		if (*i + 1 >= argc) {
			msg("%s needs a value", arg);
			return -1;
		}
		v = argv[++*i];
	}
	return optable_value(d, arg, v, set->dst);
}

static int parse_long(const struct optset *sets, size_t nsets, int argc,
		      char **argv, int *i)
{
	const char *a = argv[*i], *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
	const struct optset *set = NULL;
	const struct opt *d = find(sets, nsets, a + 2, len, &set);
	char name[64];

	snprintf(name, sizeof(name), "%.*s", (int)(len + 2), a);
	return apply(set, d, name, eq ? eq + 1 : NULL, argc, argv, i);
}

/* "-x", or letters together ("-rw"), the last one may take a value. */
static int parse_short(const struct optset *sets, size_t nsets, int argc,
		       char **argv, int *i)
{
	const char *a = argv[*i] + 1;
	const struct optset *set = NULL;
	const struct opt *d;
	char name[3] = "-";

	for (; *a; a++) {
		name[1] = *a;
		d = find(sets, nsets, a, 0, &set);
		if (a[1] == '=')
			return apply(set, d, name, a + 2, argc, argv, i);
		if (d && d->arg)
			return apply(set, d, name, a[1] ? a + 1 : NULL, argc,
				     argv, i);
		if (apply(set, d, name, NULL, argc, argv, i))
			return -1;
	}
	return 0;
}

static bool wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

int optable_parse(const struct optset *sets, size_t nsets, int argc,
		  char **argv)
{
	bool operands_only = false;
	int i, n = 0, rc;
	size_t s;

	for (s = 0; s < nsets; s++)
		if (optable_defaults(&sets[s]))
			return -1;
	if (wants_help(argc, argv))
		return OPTABLE_HELP;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (operands_only || a[0] != '-' || !a[1]) {
			argv[++n] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			operands_only = true;
			continue;
		}
		rc = a[1] == '-' ? parse_long(sets, nsets, argc, argv, &i) :
				   parse_short(sets, nsets, argc, argv, &i);
		if (rc)
			return -1;
	}
	argv[n + 1] = NULL;
	return n;
}

static void help_line(FILE *f, const struct opt *d)
{
	const char *h = d->help, *nl;
	int col;

	col = fprintf(f, "  %s%c%s%s%s%s", d->letter && !d->name ? "-" : "",
		      d->letter && !d->name ? d->letter : '-',
		      d->name ? "-" : "", d->name ? d->name : "",
		      d->arg ? " " : "", d->arg ? d->arg : "");
	if (col >= HELP_COLUMN - 1) {
		fputc('\n', f);
		col = 0;
	}
	for (;;) {
		fprintf(f, "%*s", HELP_COLUMN - col, "");
		nl = strchr(h, '\n');
		if (!nl)
			break;
		fprintf(f, "%.*s\n", (int)(nl - h), h);
		h = nl + 1;
		col = 0;
	}
	fputs(h, f);
	if (d->def && !strstr(d->help, "default"))
		fprintf(f, " (default %s)", d->def);
	fputc('\n', f);
}

void optable_help(FILE *f, const struct optset *set)
{
	const struct opt *d;

	for (d = set->opts; d->name || d->letter; d++)
		if (d->help && (!d->group || (set->groups & d->group)))
			help_line(f, d);
}
