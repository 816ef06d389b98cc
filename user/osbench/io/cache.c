// SPDX-License-Identifier: GPL-2.0
/*
 * osbench cache: the sweep twice per block size, from a warm page cache
 * and after dropping it, side by side.
 */
#include "dropcache.h"
#include "io.h"
#include "plot.h"
#include "util.h"

#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

/* cache takes no --device or --cold: a file, cold set per run. */
static const struct opt cache_options[] = {
	SWEEP_OPTIONS,
	{ 0 },
};

static struct report *cache_table(const struct ctx *c)
{
	struct report *r = report_new("cache", c->o.fmt, c->out);

	report_column(r, "block", "bytes");
	report_column(r, "run", "bytes");
	report_column_range(r, "warm", "MiB/s");
	report_column_range(r, "cold", "MiB/s");
	report_column(r, "warm_per_cold", NULL);
	report_column(r, "flag", NULL);
	return r;
}

/* Warm and cold per block size, *drop the method used; 0 or -1. */
static int cache_points(const struct sweep_opts *o, struct point_cfg *cfg,
			struct report *r, struct plot *p, int *drop)
{
	struct point warm, cold;
	uint64_t bs;
	size_t i;

	for (bs = o->min_block; bs <= o->max_block; bs *= 2) {
		cfg->cold = false;
		if (point_measure(cfg, bs, &warm))
			return -1;
		cfg->cold = true;
		if (point_measure(cfg, bs, &cold))
			return -1;
		*drop = cold.drop_method;
		msg("%llu B: warm %.1f MiB/s, cold %.1f MiB/s",
		    (unsigned long long)bs, warm.mib_s[0], cold.mib_s[0]);
		report_num(r, (double)bs);
		report_num(r, (double)warm.bytes);
		for (i = 0; i < 3; i++)
			report_num(r, warm.mib_s[i]);
		for (i = 0; i < 3; i++)
			report_num(r, cold.mib_s[i]);
		report_num(r, warm.mib_s[0] / cold.mib_s[0]);
		report_str(r, point_flag(cfg, &warm));
		if (p) {
			plot_point_err(p, 0, (double)bs, warm.mib_s[0],
				       warm.mib_s[1], warm.mib_s[2]);
			plot_point_err(p, 1, (double)bs, cold.mib_s[0],
				       cold.mib_s[1], cold.mib_s[2]);
		}
		if (bs > IO_MAX_BLOCK / 2 || point_last(cfg, bs))
			break;
	}
	return 0;
}

static const char usage[] =
	"usage: osbench cache [options] <file>\n\n"
	"For each block size, measure read() from the warm page cache and\n"
	"after dropping it (as osbench sweep and sweep --cold do) and print\n"
	"both with their ratio.\n";

static struct plot *cache_plot(const struct sweep_opts *o)
{
	struct plot *p;

	p = plot_new("read() rate by block size, warm and cold cache",
		     "block size", "MiB/s", PLOT_LOGX);
	(void)o;
	plot_series(p, "warm");
	plot_series(p, "cold");
	return p;
}

static int cache_end_notes(struct report *r, const struct point_cfg *cfg,
			   int drop)
{
	(void)cfg;
	report_note(r, "cache drop", "before every cold run: %s",
		    drop < 0 ? "none" : dropcache_name(drop));
	return EXIT_OK;
}

static int cache_run(const struct ctx *c, const void *opts)
{
	static const struct sweep_kind kind = {
		cache_table, cache_plot, cache_points, cache_end_notes,
	};

	return sweep_drive(c, opts, &kind);
}

OSBENCH_COMMAND(cache, "cache", CMD_TABLE | CMD_PLOT,
		"the sweep from a warm and a dropped page cache",
		COMMAND_OPTIONS(cache_options, struct sweep_opts),
		.max_args = 1, .max_reps = 1000, .reps = { 5, 3, 3 });
