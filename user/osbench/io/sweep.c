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

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define SWEEP_DEFAULT_BYTES (256ull << 20)

static void usage(FILE *f)
{
	fprintf(f,
		"usage: osbench sweep [options] <file>\n"
		"       osbench sweep [options] --device [--master IP[:PORT]]\n\n"
		"For each block size from --min to --max (powers of two), read the\n"
		"file from the start with read(); size the run so that it takes\n"
		"--time (doubling the block count, which also warms up), then time\n"
		"--reps runs.  Prints the median MiB/s with min and max, read()\n"
		"calls per second and the time of one run; a line per point goes\n"
		"to stderr.  --device reads /dev/slave_device fed by \"osbench feed\"\n"
		"and checks the XOR of everything read against the pattern.\n\n"
		"  --min SIZE     smallest block (default 1)\n"
		"  --max SIZE     largest block (default 128M)\n"
		"  --time S       time of one run (default 0.1)\n"
		"  --reps N       timed runs per point (default 5)\n"
		"  --bytes SIZE   most bytes per run (default 256M)\n"
		"  --cold         drop the page cache before every run\n"
		"  --fadvise      drop only this file's pages (posix_fadvise), even\n"
		"                 as root: spares other processes' caches\n");
	io_common_usage(f, IO_OPT_PLOT);
}

void sweep_parse(int argc, char **argv, struct sweep_opts *o,
		 void (*usage_fn)(FILE *f), bool allow_device)
{
	static const struct option opts[] = {
		{ "min", required_argument, NULL, 'm' },
		{ "max", required_argument, NULL, 'x' },
		{ "time", required_argument, NULL, 't' },
		{ "bytes", required_argument, NULL, 'b' },
		{ "cold", no_argument, NULL, 'c' },
		{ "fadvise", no_argument, NULL, 'f' },
		IO_SOURCE_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	*o = (struct sweep_opts){ .min_block = 1, .max_block = 128u << 20,
				  .max_bytes = SWEEP_DEFAULT_BYTES };
	io_common_parse(&o->common, &argc, argv, usage_fn, IO_OPT_PLOT, 1000);
	o->target_ns = io_pick_time(&o->common, 100000000);
	o->reps = io_pick_reps(&o->common, 5);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (allow_device && io_source_opt(&o->src, c, optarg))
			continue;
		switch (c) {
		case 'm':
			o->min_block = io_parse_block("--min", optarg);
			break;
		case 'x':
			o->max_block = io_parse_block("--max", optarg);
			break;
		case 't':
			o->target_ns = io_parse_seconds("--time", optarg);
			break;
		case 'b':
			if (parse_size(optarg, &v) || v == 0)
				die(EXIT_USAGE, "bad --bytes '%s'", optarg);
			o->max_bytes = v;
			break;
		case 'c':
			o->cold = true;
			break;
		case 'f':
			o->fadvise_only = true;
			break;
		default:
			io_usage_exit(usage_fn, c);
		}
	}
	if (o->min_block > o->max_block)
		die(EXIT_USAGE, "--min is larger than --max");
	io_source_operand(&o->src, argc - optind, argv + optind);
	if (o->cold && !o->src.path)
		die(EXIT_USAGE, "--cold needs a file: the device has no page cache");
}

void sweep_open(const struct sweep_opts *o, struct point_cfg *cfg)
{
	int fd = io_source_open(&o->src);
	struct stat st;

	/* An empty file gives a table of zeros: say so instead. */
	if (o->src.path && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size == 0)
		die(EXIT_FAIL, "'%s' is empty: there is nothing to read",
		    o->src.path);
	*cfg = (struct point_cfg){ .fd = fd,
				   .stream = !o->src.path, .cold = o->cold,
				   .global_drop = !o->fadvise_only,
				   .target_ns = o->target_ns, .reps = o->reps,
				   .max_bytes = o->max_bytes };
}

void sweep_notes(struct report *r, const struct sweep_opts *o)
{
	report_note(r, "input", "%s", io_source_name(&o->src));
	report_note(r, "method",
		    "read() blocks into a page-aligned buffer; run size found by doubling to %.3g s (the warm-up); median of %u runs; clock overhead subtracted",
		    (double)o->target_ns / 1e9, o->reps);
	report_note(r, "limit", "at most %llu bytes per run",
		    (unsigned long long)o->max_bytes);
}

static const char *drop_note(int method)
{
	return method < 0 ? "none (warm page cache)" : dropcache_name(method);
}

int io_sweep_main(int argc, char **argv)
{
	struct sweep_opts o;
	struct point_cfg cfg;
	struct point pt;
	struct report *r;
	struct plot *p = NULL;
	int drop = -1;
	size_t bs;

	sweep_parse(argc, argv, &o, usage, true);
	sweep_open(&o, &cfg);
	r = report_new("sweep", o.common.fmt, stdout);
	report_column(r, "block", "bytes");
	report_column(r, "run", "bytes");
	report_column(r, "rate", "MiB/s");
	report_column(r, "rate_min", "MiB/s");
	report_column(r, "rate_max", "MiB/s");
	report_column(r, "syscalls", "1/s");
	report_column(r, "time", "s");
	if (o.common.plot) {
		p = plot_new(o.cold ? "read() rate by block size, cold cache" :
				      "read() rate by block size",
			     "block size", "MiB/s", PLOT_LOGX);
		plot_series(p, o.cold ? "cold" : "warm");
	}
	for (bs = o.min_block; bs <= o.max_block; bs *= 2) {
		point_measure(&cfg, bs, &pt);
		drop = pt.drop_method;
		msg("%zu B: %.1f MiB/s, %.0f calls/s (%llu bytes x %u)", bs,
		    pt.mib_s[0], pt.calls_s, (unsigned long long)pt.bytes,
		    pt.reps);
		report_num(r, (double)bs);
		report_num(r, (double)pt.bytes);
		report_num(r, pt.mib_s[0]);
		report_num(r, pt.mib_s[1]);
		report_num(r, pt.mib_s[2]);
		report_num(r, pt.calls_s);
		report_num(r, pt.seconds);
		if (p)
			plot_point(p, 0, (double)bs, pt.mib_s[0]);
		if (bs > IO_MAX_BLOCK / 2)
			break;
	}
	close(cfg.fd);
	sweep_notes(r, &o);
	report_note(r, "cache drop", "%s", drop_note(drop));
	if (cfg.stream) {
		uint32_t want = pattern_xor(cfg.stream_offset);

		report_note(r, "stream check",
			    "XOR value %08x of %llu bytes, pattern %08x: %s",
			    cfg.stream_xor,
			    (unsigned long long)cfg.stream_offset, want,
			    cfg.stream_xor == want ? "ok" : "MISMATCH");
		if (cfg.stream_xor != want) {
			report_end(r);
			die(EXIT_CORRUPT, "the device delivered wrong data");
		}
	}
	if (report_end(r))
		die_errno("cannot write the report");
	if (p && plot_write(p, o.common.plot) < 0)
		return EXIT_FAIL;
	return EXIT_OK;
}
