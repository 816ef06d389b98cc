// SPDX-License-Identifier: GPL-2.0
/*
 * osbench sweep: read rate and system calls per second for block sizes
 * from 1 byte to 128 MiB in powers of two, warm or --cold.
 */
#include "dropcache.h"
#include "io.h"
#include "pattern.h"
#include "plot.h"
#include "util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Check the options and open the input: cfg for point_measure.  EXIT_OK,
 * or EXIT_USAGE or EXIT_FAIL after a message.
 */
static int sweep_open(const struct ctx *c, const struct sweep_opts *o,
		      struct io_source *src, struct point_cfg *cfg)
{
	struct stat st;

	*src = o->src;
	if (o->min_block > o->max_block) {
		msg("--min is larger than --max");
		return EXIT_USAGE;
	}
	if (io_source_operand(src, c->nargs, c->args))
		return EXIT_USAGE;
	if (o->cold && !src->path) {
		msg("--cold needs a file: the device has no page cache");
		return EXIT_USAGE;
	}
	*cfg = (struct point_cfg){
		.stream = !src->path, .cold = o->cold,
		.global_drop = !o->fadvise_only,
		.target_ns = o->target_ns ? o->target_ns :
			     io_pick_time(&c->o, 100000000),
		.reps = c->o.reps, .max_bytes = o->max_bytes };
	cfg->fd = io_source_open(src);
	if (cfg->fd < 0)
		return EXIT_FAIL;
	if (src->path && fstat(cfg->fd, &st) == 0 && S_ISREG(st.st_mode))
		cfg->file_bytes = (uint64_t)st.st_size;
	/* An empty file gives a table of zeros: say so instead. */
	if (src->path && fstat(cfg->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size == 0) {
		msg("'%s' is empty: there is nothing to read", src->path);
		close(cfg->fd);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* Notes common to sweep and cache reports. */
static void sweep_notes(struct report *r, const struct io_source *src,
			const struct point_cfg *cfg)
{
	report_note(r, "input", "%s", io_source_name(src));
	report_note(r, "method",
		    "read() blocks into a page-aligned buffer; run size found by doubling to %.3g s (the warm-up); median of %u runs; clock overhead subtracted",
		    (double)cfg->target_ns / 1e9, cfg->reps);
	report_note(r, "limit", "at most %llu bytes per run",
		    (unsigned long long)cfg->max_bytes);
}

static const char *drop_note(int method)
{
	return method < 0 ? "none (warm page cache)" : dropcache_name(method);
}

static struct report *sweep_table(const struct ctx *c)
{
	struct report *r = report_new("sweep", c->o.fmt, c->out);

	report_column(r, "block", "bytes");
	report_column(r, "run", "bytes");
	report_column_range(r, "rate", "MiB/s");
	report_column(r, "syscalls", "1/s");
	report_column(r, "time", "s");
	report_column(r, "flag", NULL);
	return r;
}

/* One row per block size, *drop the last drop method (-1: warm); 0 or -1. */
static int sweep_points(const struct sweep_opts *o, struct point_cfg *cfg,
			struct report *r, struct plot *p, int *drop)
{
	struct point pt;
	uint64_t bs;

	for (bs = o->min_block; bs <= o->max_block; bs *= 2) {
		if (point_measure(cfg, bs, &pt))
			return -1;
		*drop = pt.drop_method;
		msg("%llu B: %.1f MiB/s, %.0f calls/s (%llu bytes x %u)",
		    (unsigned long long)bs, pt.mib_s[0], pt.calls_s,
		    (unsigned long long)pt.bytes, pt.reps);
		report_num(r, (double)bs);
		report_num(r, (double)pt.bytes);
		report_num(r, pt.mib_s[0]);
		report_num(r, pt.mib_s[1]);
		report_num(r, pt.mib_s[2]);
		report_num(r, pt.calls_s);
		report_num(r, pt.seconds);
		report_str(r, point_flag(cfg, &pt));
		if (p)
			plot_point_err(p, 0, (double)bs, pt.mib_s[0],
				       pt.mib_s[1], pt.mib_s[2]);
		if (bs > IO_MAX_BLOCK / 2 || point_last(cfg, bs))
			break;
	}
	return 0;
}

/* The device's bytes against the pattern: EXIT_OK or EXIT_CORRUPT. */
static int stream_check(struct report *r, const struct point_cfg *cfg)
{
	uint32_t want = pattern_xor(cfg->stream_offset);

	report_note(r, "stream check",
		    "XOR value %08x of %llu bytes, pattern %08x: %s",
		    cfg->stream_xor, (unsigned long long)cfg->stream_offset,
		    want, cfg->stream_xor == want ? "ok" : "MISMATCH");
	if (cfg->stream_xor == want)
		return EXIT_OK;
	msg("the device delivered wrong data");
	return EXIT_CORRUPT;
}

static const char usage[] =
	"usage: osbench sweep [options] <file>\n"
	"       osbench sweep [options] --device [--master IP[:PORT]]\n\n"
	"For each block size from --min to --max (powers of two), read the\n"
	"file from the start with read(); size the run so that it takes\n"
	"--time (doubling the block count, which also warms up), then time\n"
	"--reps runs.  Prints the median MiB/s with min and max, read()\n"
	"calls per second and the time of one run; a line per point goes\n"
	"to stderr.  --device reads /dev/slave_device fed by \"osbench feed\"\n"
	"and checks the XOR of everything read against the pattern.\n";

/* The table and then the plot, unless rc says the run failed. */
static int sweep_finish(const struct ctx *c, struct report *r,
			struct plot *p, int rc)
{
	if (report_end(r) && rc == EXIT_OK) {
		msg_errno("cannot write the report");
		rc = EXIT_FAIL;
	}
	if (p && rc == EXIT_OK)
		return plot_write(p, c->o.plot) < 0 ? EXIT_FAIL : EXIT_OK;
	plot_free(p);
	return rc;
}

int sweep_drive(const struct ctx *c, const struct sweep_opts *o,
		const struct sweep_kind *k)
{
	struct io_source src;
	struct point_cfg cfg;
	struct report *r;
	struct plot *p;
	int drop = -1, rc = sweep_open(c, o, &src, &cfg);

	if (rc != EXIT_OK)
		return rc;
	r = k->table(c);
	p = c->o.plot ? k->plot(o) : NULL;
	rc = k->points(o, &cfg, r, p, &drop);
	close(cfg.fd);
	if (rc) {
		report_free(r);
		plot_free(p);
		return EXIT_FAIL;
	}
	sweep_notes(r, &src, &cfg);
	point_flag_note(r, &cfg);
	return sweep_finish(c, r, p, k->notes(r, &cfg, drop));
}

static struct plot *sweep_plot(const struct sweep_opts *o)
{
	struct plot *p = plot_new(o->cold ?
				  "read() rate by block size, cold cache" :
				  "read() rate by block size",
				  "block size", "MiB/s", PLOT_LOGX);

	plot_series(p, o->cold ? "cold" : "warm");
	return p;
}

/* The drop method and, from the device, the check of the stream. */
static int sweep_end_notes(struct report *r, const struct point_cfg *cfg,
			   int drop)
{
	report_note(r, "cache drop", "%s", drop_note(drop));
	return cfg->stream ? stream_check(r, cfg) : EXIT_OK;
}

static const struct sweep_kind sweep_kind = {
	sweep_table, sweep_plot, sweep_points, sweep_end_notes,
};

static int sweep_run(const struct ctx *c, const void *opts)
{
	return sweep_drive(c, opts, &sweep_kind);
}

static const struct opt sweep_options[] = {
	SWEEP_OPTIONS,
	{ .name = "cold", .kind = OPT_FLAG,
	  .off = offsetof(struct sweep_opts, cold),
	  .help = "drop the page cache before every run" },
	IO_SOURCE_OPTIONS(struct sweep_opts, src),
	{ 0 },
};

OSBENCH_COMMAND(sweep, "sweep", CMD_TABLE | CMD_PLOT,
		"read rate and syscalls/s for 1 B .. 128 MiB blocks",
		COMMAND_OPTIONS(sweep_options, struct sweep_opts),
		.max_args = 1, .max_reps = 1000, .reps = { 5, 3, 3 });
