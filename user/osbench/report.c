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
#include "commands.h"
#include "runner.h"
#include "timing.h"
#include "util.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

struct line {
	const char *label;
	enum figure fig;
	double est_cycles;	/* 0: no model */
};

static const struct line lines[] = {
	{ "Loop overhead (one iteration)", FIG_LOOP, 1 },
	{ "Reading the clock: rdtsc", FIG_RDTSC, 25 },
	{ "Reading the clock: clock_gettime", FIG_CLOCK_GETTIME, 0 },
	{ "Procedure call, 3 arguments", FIG_CALL0 + 3, 5 },
	{ "System call (getpid)", FIG_SYSCALL, 0 },
	{ "Process creation (fork+exit+wait)", FIG_FORK, 0 },
	{ "Thread creation (create+join)", FIG_THREAD, 0 },
	{ "Context switch, threads (1 CPU)", FIG_CTXSW_THREAD, 0 },
	{ "Context switch, processes (1 CPU)", FIG_CTXSW_PROCESS, 0 },
	{ "Memory latency, level 1", FIG_MEM_L1, 5 },
	{ "Memory latency, level 2", FIG_MEM_L1 + 1, 14 },
	{ "Memory latency, level 3", FIG_MEM_L1 + 2, 0 },
	{ "Memory latency, beyond the caches", FIG_MEM_MAIN, 0 },
	{ "Memory read bandwidth, 1 thread", FIG_BW_READ_1, 0 },
	{ "Memory read bandwidth, all CPUs", FIG_BW_READ_ALL, 0 },
	{ "Memory write bandwidth, 1 thread", FIG_BW_WRITE_1, 0 },
	{ "Memory copy bandwidth, 1 thread", FIG_BW_COPY_1, 0 },
	{ "Page fault, minor", FIG_FAULT_MINOR, 0 },
	{ "Page fault, major", FIG_FAULT_MAJOR, 0 },
};

/*
 * Run one experiment with its table going to DIR/NAME.csv (the machine
 * description to DIR/machine.txt, which the report quotes).
 */
static int run_to_file(const struct command *cmd, const struct ctx *base,
		       const char *dir, struct tally *t)
{
	struct ctx c = *base;
	char path[4096], plot[4096];
	int text = cmd == &cmd_machine;
	int rc, bad;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, cmd->name,
		 text ? "txt" : "csv");
	c.out = fopen(path, "w");
	if (!c.out) {
		msg_errno("create %s", path);
		return EXIT_FAIL;
	}
	c.o.plot = NULL;
	if (cmd->flags & CMD_PLOT) {
		snprintf(plot, sizeof(plot), "%s/%s.svg", dir, cmd->name);
		c.o.plot = plot;
	}
	c.o.fmt = text ? REPORT_TEXT : REPORT_CSV;
	msg("running %s", cmd->name);
	rc = runner_one(cmd, &c, t);
	/* fclose reports a failed flush only, not an earlier failed write. */
	bad = ferror(c.out);
	if ((fclose(c.out) || bad) && !rc) {
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

static void summary(FILE *out, const struct summary *s)
{
	double cycle = 1 / tsc_ghz();
	size_t i;

	fputs("| Parameter | Estimated | Actual | Unit |\n"
	      "|---|---:|---:|---|\n", out);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		enum figure f = lines[i].fig;

		fprintf(out, "| %s | ", lines[i].label);
		if (lines[i].est_cycles > 0 && s->set[f] &&
		    !strcmp(s->unit[f], "ns"))
			fprintf(out, "%.3g (%g cycles)", lines[i].est_cycles *
				cycle, lines[i].est_cycles);
		else
			fputs("-", out);
		if (s->set[f])
			fprintf(out, " | %.4g | %s |\n", s->value[f], s->unit[f]);
		else
			fputs(" | not measured | |\n", out);
	}
}

/* DIR/report.md from the files and figures of the run. */
static int write_markdown(const char *dir, const struct ctx *c,
			  const struct summary *s)
{
	const struct command *const *cmd;
	char path[4096];
	FILE *md;
	int bad;

	snprintf(path, sizeof(path), "%s/report.md", dir);
	md = fopen(path, "w");
	if (!md) {
		msg_errno("create %s", path);
		return EXIT_FAIL;
	}
	fprintf(md, "# Operating-system micro-benchmarks\n\n"
		"Produced by `osbench report` (%s mode); method and "
		"caveats: docs/microbench.md.\n\n## Machine\n\n```\n",
		benchopt_mode_name(&c->o));
	snprintf(path, sizeof(path), "%s/machine.txt", dir);
	copy_file(md, path);
	fputs("```\n\n## Summary\n\nTimes in the unit given; estimated = "
	      "cycles of the model x this machine's cycle time.\n\n", md);
	summary(md, s);
	fputs("\n## Plots\n\n![Memory latency](memlat.svg)\n\n"
	      "![File access](fileaccess.svg)\n\n## Full tables\n\n", md);
	for (cmd = osbench_commands; *cmd; cmd++)
		if (((*cmd)->flags & CMD_ALL) && *cmd != &cmd_machine)
			fprintf(md, "- [%s](%s.csv)\n", (*cmd)->name,
				(*cmd)->name);
	bad = ferror(md);
	if (fclose(md) || bad) {
		msg_errno("write %s/report.md", dir);
		return EXIT_FAIL;
	}
	msg("wrote %s/report.md", dir);
	return EXIT_OK;
}

struct report_opts {
	const char *out;
};

static const struct opt report_options[] = {
	{ .name = "out", .kind = OPT_STR, .arg = "DIR",
	  .def = "osbench-report", .off = offsetof(struct report_opts, out),
	  .help = "where report.md, the tables and plots go" },
	{ 0 },
};

static int report_run(const struct ctx *c, const void *opts)
{
	const char *dir = ((const struct report_opts *)opts)->out;
	const struct command *const *cmd;
	struct summary s = { 0 };
	struct ctx rc_ctx = *c;
	struct tally t = { 0 };
	int rc;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		msg_errno("mkdir %s", dir);
		return EXIT_FAIL;
	}
	rc_ctx.summary = &s;
	for (cmd = osbench_commands; *cmd; cmd++)
		if ((*cmd)->flags & CMD_ALL)
			run_to_file(*cmd, &rc_ctx, dir, &t);
	rc = write_markdown(dir, c, &s);
	return runner_done(&t) != EXIT_OK ? EXIT_FAIL : rc;
}

const struct command cmd_report = {
	.name = "report",
	.summary = "run everything, write a Markdown report",
	.usage =
	"usage: osbench report [--out DIR] [options]\n\n"
	"Run every micro-benchmark and write DIR/report.md: machine\n"
	"description, estimated vs actual summary, plots (memlat.svg,\n"
	"fileaccess.svg when gnuplot is installed) and each experiment's\n"
	"table as DIR/NAME.csv.  An experiment that fails is reported and\n"
	"the others still run; the exit status is then 1.\n",
	.options = report_options,
	.opts_size = sizeof(struct report_opts),
	.flags = CMD_TABLE | CMD_SCRATCH,
	.reps_default = "each experiment's",
	.run = report_run,
};
