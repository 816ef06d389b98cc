// SPDX-License-Identifier: GPL-2.0
/*
 * fast --timeline: where a run's time went, step by step (the sampling
 * of the page cache, the engines' set-up, each probe, the rest, the
 * teardown).  A reading step shows its rate twice: by the wall clock,
 * which is what the run delivers, and by the threads' CPU time shared
 * among them, which is what the probes compare; "busy" is CPU over wall,
 * the threads the step kept running on average.  The gap between the
 * two rates is time the threads did not run: other work on the cores,
 * or a thread that finished before the others.
 */
#include "fast_method.h"

#include <stdio.h>

#define MIB_B (1ull << 20)

static double mib_s(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / (double)MIB_B / ((double)ns / 1e9) : 0;
}

static size_t step_line(const struct fast_step *s, char *buf, size_t len)
{
	unsigned int threads = s->threads ? s->threads : 1;

	const char *m = s->method == FAST_AUTO ? "" :
			fast_method_name(s->method);

	if (!s->bytes)
		return (size_t)snprintf(buf, len, "\n  %-9s %-6s %8.3f ms",
					s->what, m, (double)s->wall_ns / 1e6);
	return (size_t)snprintf(buf, len,
				"\n  %-9s %-6s %8.3f ms  %5llu MiB  %6.0f MiB/s (wall)  %6.0f MiB/s (CPU)  threads %u, busy %.2f%s",
				s->what, m, (double)s->wall_ns / 1e6,
				(unsigned long long)(s->bytes >> 20),
				mib_s(s->bytes, s->wall_ns),
				mib_s(s->bytes, s->cpu_ns / threads), threads,
				(double)s->cpu_ns / (double)s->wall_ns,
				s->beside ? ", beside the above" : "");
}

void fast_timeline_describe(const struct fast_choice *c, char *buf,
			    size_t len)
{
	uint64_t total = 0;
	unsigned int i;
	size_t n;

	n = (size_t)snprintf(buf, len, "timeline:");
	for (i = 0; i < c->nsteps && n < len; i++) {
		n += step_line(&c->steps[i], buf + n, len - n);
		/* Steps side by side took their time once. */
		if (!c->steps[i].beside)
			total += c->steps[i].wall_ns;
	}
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "\n  %-16s %8.3f ms",
				      "all steps", (double)total / 1e6);
	if (n < len && c->reason[0])
		snprintf(buf + n, len - n, "\n  %-9s %s", "choice", c->reason);
}
