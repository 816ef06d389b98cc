// SPDX-License-Identifier: GPL-2.0
/*
 * osbench report: run every micro-benchmark and write a Markdown report
 * in the shape of a course report: the machine description, a summary
 * table of estimated against actual figures, the plots, and every
 * experiment's full table as CSV beside it.
 *
 * "Estimated" is a model from this machine's own cycle time and the
 * latencies Intel and AMD publish for current x86 cores (see
 * docs/microbench.md); where no such model exists the cell is "-".
 */
#include "micro/micro.h"
#include "timing.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

struct line {
	const char *label;
	const char *key;	/* mb_summary key */
	double est_cycles;	/* 0: no model */
};

static const struct line lines[] = {
	{ "Loop overhead (one iteration)", "loop", 1 },
	{ "Reading the clock: rdtsc", "rdtsc", 25 },
	{ "Reading the clock: clock_gettime", "clock_gettime", 0 },
	{ "Procedure call, 3 arguments", "call3", 5 },
	{ "System call (getpid)", "syscall", 0 },
	{ "Process creation (fork+exit+wait)", "fork", 0 },
	{ "Thread creation (create+join)", "thread", 0 },
	{ "Context switch, threads (1 CPU)", "ctxsw_thread", 0 },
	{ "Context switch, processes (1 CPU)", "ctxsw_process", 0 },
	{ "Memory latency, level 1", "mem_L1", 5 },
	{ "Memory latency, level 2", "mem_L2", 14 },
	{ "Memory latency, level 3", "mem_L3", 0 },
	{ "Memory latency, beyond the caches", "mem_main", 0 },
	{ "Memory read bandwidth, 1 thread", "bw_read_1", 0 },
	{ "Memory read bandwidth, all CPUs", "bw_read_all", 0 },
	{ "Memory write bandwidth, 1 thread", "bw_write_1", 0 },
	{ "Memory copy bandwidth, 1 thread", "bw_copy_1", 0 },
	{ "Page fault, minor", "fault_minor", 0 },
	{ "Page fault, major", "fault_major", 0 },
};

static const char usage[] =
	"usage: osbench report [--out DIR] [options]\n\n"
	"Run every micro-benchmark and write DIR/report.md (default DIR:\n"
	"osbench-report): machine description, estimated vs actual summary,\n"
	"plots (memlat.svg, fileaccess.svg when gnuplot is installed) and\n"
	"each experiment's table as DIR/NAME.csv.\n\n";

/*
 * Run one experiment with its table going to DIR/NAME.csv (the machine
 * description to DIR/machine.txt, which the report quotes).
 */
static int run_to_file(const struct mb_experiment *e,
		       const struct benchopt *o, const char *dir)
{
	struct benchopt co = *o;
	char path[4096], plot[4096];
	const char *extra[3] = { NULL, NULL, NULL };
	int text = e->run == mb_machine;
	FILE *f;
	int rc, bad;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, e->name,
		 text ? "txt" : "csv");
	f = fopen(path, "w");
	if (!f) {
		msg_errno("create %s", path);
		return EXIT_FAIL;
	}
	if (!strcmp(e->name, "memlat") || !strcmp(e->name, "fileaccess")) {
		snprintf(plot, sizeof(plot), "%s/%s.svg", dir, e->name);
		extra[0] = "--plot";
		extra[1] = plot;
	}
	co.fmt = text ? REPORT_TEXT : REPORT_CSV;
	mb_set_out(f);
	msg("running %s", e->name);
	rc = mb_run_experiment(e, &co, extra);
	mb_set_out(NULL);
	/* fclose reports a failed flush only, not an earlier failed write. */
	bad = ferror(f);
	if ((fclose(f) || bad) && !rc) {
		msg_errno("write %s", path);
		rc = EXIT_FAIL;
	}
	return rc;
}

static void copy_file(FILE *out, const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f) {
		msg_errno("cannot read %s", path);
		fprintf(out, "(%s could not be read)\n", path);
		return;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)))
		fwrite(buf, 1, n, out);
	if (ferror(f))
		msg_errno("cannot read %s", path);
	fclose(f);
}

static void summary(FILE *out)
{
	double cycle = 1 / tsc_ghz();
	size_t i;

	fputs("| Parameter | Estimated | Actual | Unit |\n"
	      "|---|---:|---:|---|\n", out);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		const struct mb_figure *f = mb_summary_get(lines[i].key);

		fprintf(out, "| %s | ", lines[i].label);
		if (lines[i].est_cycles > 0 && f && !strcmp(f->unit, "ns"))
			fprintf(out, "%.3g (%g cycles)", lines[i].est_cycles *
				cycle, lines[i].est_cycles);
		else
			fputs("-", out);
		if (f)
			fprintf(out, " | %.4g | %s |\n", f->value, f->unit);
		else
			fputs(" | not measured | |\n", out);
	}
}

int mb_report(int argc, char **argv)
{
	const struct mb_experiment *e;
	struct benchopt o;
	const char *dir = "osbench-report";
	char path[4096];
	FILE *md;
	int i, bad, failed = 0, rc = mb_begin(&o, &argc, argv, usage);

	if (rc != MB_GO)
		return rc;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--out") && i + 1 < argc)
			dir = argv[++i];
		else
			return mb_bad_arg(argv[i]);
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		die_errno("mkdir %s", dir);
	mb_summary_enable();
	for (e = mb_experiments; e->name; e++)
		if (run_to_file(e, &o, dir))
			failed = EXIT_FAIL;

	snprintf(path, sizeof(path), "%s/report.md", dir);
	md = fopen(path, "w");
	if (!md)
		die_errno("create %s", path);
	fprintf(md, "# Operating-system micro-benchmarks\n\n"
		"Produced by `osbench report` (%s mode); method and "
		"caveats: docs/microbench.md.\n\n## Machine\n\n```\n",
		benchopt_mode_name(&o));
	snprintf(path, sizeof(path), "%s/machine.txt", dir);
	copy_file(md, path);
	fputs("```\n\n## Summary\n\nTimes in the unit given; estimated = "
	      "cycles of the model x this machine's cycle time.\n\n", md);
	summary(md);
	fputs("\n## Plots\n\n![Memory latency](memlat.svg)\n\n"
	      "![File access](fileaccess.svg)\n\n## Full tables\n\n", md);
	for (e = mb_experiments; e->name; e++)
		if (e->run != mb_machine)
			fprintf(md, "- [%s](%s.csv)\n", e->name, e->name);
	bad = ferror(md);
	if (fclose(md) || bad)
		die_errno("write %s/report.md", dir);
	msg("wrote %s/report.md", dir);
	return failed;
}
