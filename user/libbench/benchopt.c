// SPDX-License-Identifier: GPL-2.0
#include "benchopt.h"
#include "plot.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The value of an option that takes one, or NULL after a message. */
static const char *value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc) {
		msg("%s needs a value", argv[*i]);
		return NULL;
	}
	return argv[++*i];
}

int benchopt_parse(struct benchopt *o, int *argc, char **argv)
{
	const char *tmp = getenv("TMPDIR");
	int i, out = 1;
	uint64_t reps;

	memset(o, 0, sizeof(*o));
	o->fmt = REPORT_TEXT;
	o->dir = tmp && *tmp ? tmp : "/var/tmp";
	for (i = 1; i < *argc; i++) {
		const char *a = argv[i];

		if (report_format_arg(a, &o->fmt))
			continue;
		if (!strcmp(a, "--quick")) {
			o->mode = BENCH_QUICK;
		} else if (!strcmp(a, "--smoke")) {
			o->mode = BENCH_SMOKE;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			o->help = 1;
		} else if (!strcmp(a, "--reps")) {
			const char *v = value(*argc, argv, &i);

			if (!v)
				return -1;
			if (parse_uint(v, 1, 100000, &reps)) {
				msg("--reps: '%s' is not a count in 1..100000",
				    v);
				return -1;
			}
			o->reps = (unsigned)reps;
		} else if (!strcmp(a, "--plot")) {
			/* Refuse a bad name before minutes of measuring. */
			if (!(o->plot = value(*argc, argv, &i)) ||
			    plot_check_path(o->plot))
				return -1;
		} else if (!strcmp(a, "--dir")) {
			if (!(o->dir = value(*argc, argv, &i)))
				return -1;
			o->dir_given = 1;
		} else {
			argv[out++] = argv[i];
		}
	}
	argv[out] = NULL;
	*argc = out;
	return 0;
}

void benchopt_usage(FILE *f)
{
	fputs("common options:\n"
	      "  --csv, --json  machine-readable output (default: a table)\n"
	      "  --quick        fewer, shorter samples and smaller sizes\n"
	      "  --smoke        tiny sizes: checks it runs, not how fast\n"
	      "  --reps N       samples per figure (default 11, quick 7, "
	      "smoke 3)\n"
	      "  --plot FILE    draw the curve with gnuplot (.svg, .png, .txt);\n"
	      "                 FILE.dat and FILE.gp are written beside it\n"
	      "  --dir DIR      scratch files (default $TMPDIR or /var/tmp)\n",
	      f);
}

void benchopt_measure(const struct benchopt *o, struct measure *m)
{
	memset(m, 0, sizeof(*m));
	switch (o->mode) {
	case BENCH_FULL:
		m->samples = 11;
		m->warmup = 2;
		m->min_sample_ns = 10e6;
		break;
	case BENCH_QUICK:
		m->samples = 7;
		m->warmup = 1;
		m->min_sample_ns = 2e6;
		break;
	case BENCH_SMOKE:
		m->samples = 3;
		m->warmup = 1;
		m->min_sample_ns = 50e3;
		break;
	}
	if (o->reps)
		m->samples = o->reps;
}

const char *benchopt_mode_name(const struct benchopt *o)
{
	static const char *const names[] = { "full", "quick", "smoke" };

	return names[o->mode];
}
