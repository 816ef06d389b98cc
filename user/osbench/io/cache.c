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

static struct report *cache_table(const struct ctx *c)
{
	struct report *r = report_new("cache", c->o.fmt, c->out);

	report_column(r, "block", "bytes");
	report_column(r, "run", "bytes");
	report_column(r, "warm", "MiB/s");
	report_column(r, "warm_min", "MiB/s");
	report_column(r, "warm_max", "MiB/s");
	report_column(r, "cold", "MiB/s");
	report_column(r, "cold_min", "MiB/s");
	report_column(r, "cold_max", "MiB/s");
	report_column(r, "warm_per_cold", NULL);
	return r;
}

/* Warm and cold per block size; the drop method used, or -1. */
static int cache_points(const struct sweep_opts *o, struct point_cfg *cfg,
			struct report *r, struct plot *p)
{
	struct point warm, cold;
	int drop = -1;
	uint64_t bs;
	size_t i;

	for (bs = o->min_block; bs <= o->max_block; bs *= 2) {
		cfg->cold = false;
		point_measure(cfg, bs, &warm);
		cfg->cold = true;
		point_measure(cfg, bs, &cold);
		drop = cold.drop_method;
		msg("%llu B: warm %.1f MiB/s, cold %.1f MiB/s",
		    (unsigned long long)bs, warm.mib_s[0], cold.mib_s[0]);
		report_num(r, (double)bs);
		report_num(r, (double)warm.bytes);
		for (i = 0; i < 3; i++)
			report_num(r, warm.mib_s[i]);
		for (i = 0; i < 3; i++)
			report_num(r, cold.mib_s[i]);
		report_num(r, warm.mib_s[0] / cold.mib_s[0]);
		if (p) {
			plot_point_err(p, 0, (double)bs, warm.mib_s[0],
				       warm.mib_s[1], warm.mib_s[2]);
			plot_point_err(p, 1, (double)bs, cold.mib_s[0],
				       cold.mib_s[1], cold.mib_s[2]);
		}
		if (bs > IO_MAX_BLOCK / 2)
			break;
	}
	return drop;
}

static int cache_run(const struct ctx *c, const void *opts)
{
	struct io_source src;
	struct point_cfg cfg;
	struct report *r;
	struct plot *p = NULL;
	int drop, rc = sweep_open(c, opts, &src, &cfg);

	if (rc != EXIT_OK)
		return rc;
	r = cache_table(c);
	if (c->o.plot) {
		p = plot_new("read() rate by block size, warm and cold cache",
			     "block size", "MiB/s", PLOT_LOGX);
		plot_series(p, "warm");
		plot_series(p, "cold");
	}
	drop = cache_points(opts, &cfg, r, p);
	close(cfg.fd);
	sweep_notes(r, &src, &cfg);
	report_note(r, "cache drop", "before every cold run: %s",
		    drop < 0 ? "none" : dropcache_name(drop));
	if (report_end(r)) {
		msg_errno("cannot write the report");
		plot_free(p);
		return EXIT_FAIL;
	}
	if (p && plot_write(p, c->o.plot) < 0)
		return EXIT_FAIL;
	return EXIT_OK;
}

/* cache takes no --device or --cold: a file, cold set per run. */
static const struct opt cache_options[] = {
	SWEEP_OPTIONS,
	{ 0 },
};

const struct command cmd_cache = {
	.name = "cache",
	.summary = "the sweep from a warm and a dropped page cache",
	.usage =
	"usage: osbench cache [options] <file>\n\n"
	"For each block size, measure read() from the warm page cache and\n"
	"after dropping it (as osbench sweep and sweep --cold do) and print\n"
	"both with their ratio.\n",
	.options = cache_options,
	.opts_size = sizeof(struct sweep_opts),
	.flags = CMD_TABLE | CMD_PLOT,
	.max_args = 1,
	.max_reps = 1000,
	.reps_default = "5, --quick and --smoke 3",
	.run = cache_run,
};
