// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the micro-benchmark commands. */
#include "micro.h"
#include "sysinfo.h"
#include "timing.h"
#include "util.h"

#include <stdarg.h>

struct report *mb_report_new(const struct ctx *c, const char *title,
			     const struct measure *m)
{
	struct report *r = report_new(title, c->o.fmt, c->out);

	sysinfo_note(r);
	report_note(r, "mode", "%s", benchopt_mode_name(&c->o));
	if (m)
		report_note(r, "method",
			    "%u samples of >= %.3g ms after %u warm-up, "
			    "median and spread", m->samples,
			    m->min_sample_ns / 1e6, m->warmup);
	report_note(r, "clock", "CLOCK_MONOTONIC, resolution %.3g ns; "
		    "TSC %.4g GHz", clock_resolution_ns(), tsc_ghz());
	return r;
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
