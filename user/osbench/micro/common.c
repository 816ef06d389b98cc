// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the micro-benchmark subcommands. */
#include "micro.h"
#include "timing.h"
#include "util.h"

#include <stdarg.h>
#include <string.h>

static FILE *out_file;

FILE *mb_out(void)
{
	return out_file ? out_file : stdout;
}

void mb_set_out(FILE *f)
{
	out_file = f;
}

int mb_begin(struct benchopt *o, int *argc, char **argv, const char *usage)
{
	if (benchopt_parse(o, argc, argv))
		return EXIT_USAGE;
	if (o->help) {
		fputs(usage, stdout);
		benchopt_usage(stdout);
		return EXIT_OK;
	}
	return MB_GO;
}

int mb_begin_noargs(struct benchopt *o, int argc, char **argv,
		    const char *usage)
{
	int rc = mb_begin(o, &argc, argv, usage);

	if (rc == MB_GO && argc > 1)
		return mb_bad_arg(argv[1]);
	return rc;
}

int mb_bad_arg(const char *arg)
{
	msg("unexpected argument '%s' (see %s --help)", arg, progname());
	return EXIT_USAGE;
}

struct report *mb_report_new(const char *title, const struct benchopt *o,
			     const struct measure *m)
{
	struct report *r = report_new(title, o->fmt, mb_out());

	report_note(r, "mode", "%s", benchopt_mode_name(o));
	if (m)
		report_note(r, "method",
			    "%u samples of >= %.3g ms after %u warm-up, "
			    "median and spread", m->samples,
			    m->min_sample_ns / 1e6, m->warmup);
	report_note(r, "clock", "CLOCK_MONOTONIC, resolution %.3g ns; "
		    "TSC %.4g GHz", clock_resolution_ns(), tsc_ghz());
	return r;
}

static struct mb_figure figures[64];
static size_t nfigures;
static int recording;

void mb_summary_enable(void)
{
	recording = 1;
	nfigures = 0;
}

void mb_summary(const char *key, double value, const char *unit)
{
	struct mb_figure *f = NULL;
	size_t i;

	if (!recording)
		return;
	for (i = 0; i < nfigures; i++)
		if (!strcmp(figures[i].key, key))
			f = &figures[i];
	if (!f) {
		if (nfigures == sizeof(figures) / sizeof(figures[0]))
			return;
		f = &figures[nfigures++];
	}
	snprintf(f->key, sizeof(f->key), "%s", key);
	snprintf(f->unit, sizeof(f->unit), "%s", unit);
	f->value = value;
}

const struct mb_figure *mb_summary_get(const char *key)
{
	size_t i;

	for (i = 0; i < nfigures; i++)
		if (!strcmp(figures[i].key, key))
			return &figures[i];
	return NULL;
}

void mb_progress(const struct benchopt *o, const char *fmt, ...)
{
	va_list ap;

	if (o->mode == BENCH_SMOKE)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}
