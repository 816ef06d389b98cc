// SPDX-License-Identifier: GPL-2.0
/*
 * osbench cache: the sweep twice per block size, from a warm page cache
 * and after dropping it, side by side.
 */
#include "dropcache.h"
#include "io.h"
#include "plot.h"
#include "util.h"

#include <stdio.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: osbench cache [options] <file>\n\n"
		"For each block size, measure read() from the warm page cache and\n"
		"after dropping it (as osbench sweep and sweep --cold do) and print\n"
		"both with their ratio.  Options as osbench sweep (--min, --max,\n"
		"--time, --reps, --bytes, --fadvise):\n");
	io_common_usage(f, IO_OPT_PLOT);
}

int io_cache_main(int argc, char **argv)
{
	struct sweep_opts o;
	struct point_cfg cfg;
	struct point warm, cold;
	struct report *r;
	struct plot *p = NULL;
	int drop = -1;
	size_t bs, i;

	sweep_parse(argc, argv, &o, usage, false);
	/* cache takes no --device or --cold: a file, cold set per run. */
	sweep_open(&o, &cfg);
	r = report_new("cache", o.common.fmt, stdout);
	report_column(r, "block", "bytes");
	report_column(r, "run", "bytes");
	report_column(r, "warm", "MiB/s");
	report_column(r, "warm_min", "MiB/s");
	report_column(r, "warm_max", "MiB/s");
	report_column(r, "cold", "MiB/s");
	report_column(r, "cold_min", "MiB/s");
	report_column(r, "cold_max", "MiB/s");
	report_column(r, "warm_per_cold", NULL);
	if (o.common.plot)
		p = plot_new("read() rate by block size, warm and cold cache",
			     "block size", "MiB/s", PLOT_LOGX);
	if (p) {
		plot_series(p, "warm");
		plot_series(p, "cold");
	}
	for (bs = o.min_block; bs <= o.max_block; bs *= 2) {
		cfg.cold = false;
		point_measure(&cfg, bs, &warm);
		cfg.cold = true;
		point_measure(&cfg, bs, &cold);
		drop = cold.drop_method;
		msg("%zu B: warm %.1f MiB/s, cold %.1f MiB/s", bs,
		    warm.mib_s[0], cold.mib_s[0]);
		report_num(r, (double)bs);
		report_num(r, (double)warm.bytes);
		for (i = 0; i < 3; i++)
			report_num(r, warm.mib_s[i]);
		for (i = 0; i < 3; i++)
			report_num(r, cold.mib_s[i]);
		report_num(r, warm.mib_s[0] / cold.mib_s[0]);
		if (p) {
			plot_point(p, 0, (double)bs, warm.mib_s[0]);
			plot_point(p, 1, (double)bs, cold.mib_s[0]);
		}
		if (bs > IO_MAX_BLOCK / 2)
			break;
	}
	close(cfg.fd);
	sweep_notes(r, &o);
	report_note(r, "cache drop", "before every cold run: %s",
		    drop < 0 ? "none" : dropcache_name(drop));
	if (report_end(r))
		die_errno("cannot write the report");
	if (p && plot_write(p, o.common.plot) < 0)
		return EXIT_FAIL;
	return EXIT_OK;
}
