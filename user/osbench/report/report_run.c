// SPDX-License-Identifier: GPL-2.0
/*
 * The measuring half of osbench report: every experiment into the
 * folder, as NAME.csv (and NAME.svg for those that draw), with the
 * figures of the summary collected on the way.
 *
 *  - the CMD_ALL experiments with their defaults (fileaccess with
 *    --remote DIR when given; net over loopback, and to --peer);
 *  - micro-opt: the micro-benchmarks at -O2 and -O0 side by side;
 *  - the course's I/O programs (run, run2, fast as text, sweep and cache
 *    as tables) on a scratch file that run -w writes in --dir;
 *  - osbench transfer when the syncdev module is loaded, else a
 *    sentence (transfer.skipped) that says why it is missing.
 */
#include "command_table.h"
#include "device.h"
#include "report_parts.h"
#include "runner.h"
#include "sysinfo.h"
#include "timing.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* DIR/file for writing, or NULL after a message. */
static FILE *create(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		msg_errno("create %s", path);
	return f;
}

/* DIR/NAME.meta.json for DIR/NAME.csv, or NULL after a message. */
static FILE *meta_for(const struct rep *r, const char *csv)
{
	char *name = xasprintf("%.*s", (int)strcspn(csv, "."), csv);
	FILE *f = rep_meta_open(r->dir, name);

	free(name);
	return f;
}

/* DIR/STEM.KIND, which an earlier run may have left, removed. */
static void forget(const struct rep *r, int stem_len, const char *stem,
		   const char *kind)
{
	char *path = xasprintf("%s/%.*s.%s", r->dir, stem_len, stem, kind);

	if (unlink(path) && errno != ENOENT)
		msg_errno("remove %s", path);
	free(path);
}

/*
 * Run argv (argv[0] a command, NULL-ended) with base's mode, reps and
 * scratch dir; its output to DIR/file (CSV, or text when text), its plot
 * to DIR/plot when the command draws and plot is not NULL.  A failure is
 * counted and said in the file in place of a table (runner.h).
 */
static int run_into(struct rep *r, const struct ctx *base, struct tally *t,
		    const char *file, int text, const char *plot, char **argv)
{
	const struct command *cmd = command_find(base->commands, argv[0]);
	char *path = xasprintf("%s/%s", r->dir, file), *plotpath = NULL;
	void *opts = xcalloc(1, cmd->opts_size ? cmd->opts_size : 1);
	struct ctx c;
	FILE *meta;
	int argc = 0, rc;

	while (argv[argc])
		argc++;
	/* Its NAME.skipped, for file NAME.csv or NAME.txt. */
	forget(r, (int)strcspn(file, "."), file, "skipped");
	rc = command_parse(cmd, argc, argv, opts, &c);
	if (plot && (cmd->flags & CMD_PLOT))
		plotpath = xasprintf("%s/%s", r->dir, plot);
	c.o = base->o;
	c.commands = base->commands;
	c.o.fmt = text ? REPORT_TEXT : REPORT_CSV;
	c.o.plot = plotpath;
	c.summary = &r->s;
	c.out = create(path);
	if (rc >= 0 || !c.out) {
		rc = EXIT_FAIL;
		runner_count(t, argv[0], rc, c.out ? "bad arguments (a bug "
			     "of report)" : msg_last(NULL));
	} else {
		msg("running %s", argv[0]);
		meta = text ? NULL : meta_for(r, file);
		rc = runner_with(cmd, &c, opts, t);
		if (meta)
			rep_meta_close(meta);
	}
	if (c.out && fclose(c.out))
		msg_errno("write %s", path);
	free(opts);
	free(plotpath);
	free(path);
	return rc;
}

static void facts(struct rep *r, const struct ctx *base)
{
	struct disk_info d;
	int i;

	r->cycle_ns = 1 / tsc_ghz();
	r->cpus = sysinfo_cpus();
	r->rotational = -1;
	for (i = 0; sysinfo_disk(i, &d) == 0; i++)
		if (r->rotational != 1 && d.rotational >= 0)
			r->rotational = d.rotational;
	snprintf(r->mode, sizeof(r->mode), "%s", benchopt_mode_name(&base->o));
	sysinfo_fstype(base->o.dir, r->local_fs, sizeof(r->local_fs));
	if (r->remote[0])
		sysinfo_fstype(r->remote, r->remote_fs, sizeof(r->remote_fs));
}

/* A sentence in NAME.skipped: why an experiment is not in the report. */
static void skipped(const struct rep *r, const char *name, const char *why)
{
	char *path = xasprintf("%s/%s.skipped", r->dir, name);
	FILE *f = fopen(path, "w");

	if (f) {
		fprintf(f, "%s\n", why);
		fclose(f);
	}
	free(path);
}

/*
 * name not in --only LIST: the sentence that says so in NAME.skipped, in
 * place of what an earlier run into the folder left under the name.
 */
static bool unselected(const struct rep *r, const char *name)
{
	static const char *const kinds[] = { "csv", "meta.json", "svg",
					     "svg.dat", "svg.gp", "txt" };
	char *why;
	size_t i;

	if (rep_selected(r, name))
		return false;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		forget(r, (int)strlen(name), name, kinds[i]);
	why = xasprintf("Not selected: osbench report --only %s.", r->only);
	skipped(r, name, why);
	free(why);
	return true;
}

static void experiments(struct rep *r, const struct ctx *base,
			struct tally *t)
{
	const struct command *const *cmd;
	char file[64], plot[64];

	for (cmd = base->commands; *cmd; cmd++) {
		char *argv[] = { (char *)(*cmd)->name, "--remote", r->remote,
				 NULL };

		if (!((*cmd)->flags & CMD_ALL) || unselected(r, (*cmd)->name))
			continue;
		if (*cmd != &cmd_fileaccess || !r->remote[0])
			argv[1] = NULL;
		snprintf(file, sizeof(file), "%s.csv", (*cmd)->name);
		snprintf(plot, sizeof(plot), "%s.svg", (*cmd)->name);
		run_into(r, base, t, file, 0, plot, argv);
	}
	if (r->peer[0] && !unselected(r, "net-peer")) {
		char *argv[] = { "net", "--peer", r->peer, NULL };

		run_into(r, base, t, "net-peer.csv", 0, NULL, argv);
	}
}

/* run -w, then run -r with its time; both outputs in run.txt. */
static void course_run(struct rep *r, const struct ctx *base,
		       struct tally *t, char *file, char *count)
{
	char *w[] = { "run", file, "-w", "4096", count, NULL };
	char *rd[] = { "run", file, "-r", "4096", count, NULL };
	char *path = xasprintf("%s/run.txt", r->dir);
	uint64_t t0;
	double s;
	FILE *f;

	if (run_into(r, base, t, "run-w.txt", 1, NULL, w))
		goto out;
	t0 = now_ns();
	run_into(r, base, t, "run.txt", 1, NULL, rd);
	s = (double)(now_ns() - t0) / 1e9;
	f = fopen(path, "a");
	if (f) {
		fprintf(f, "(run %s -r 4096 %s: %.3f s, %.4g MiB/s, timed by "
			"the report; the file was written by run -w just "
			"before, so it is in the page cache)\n", file, count,
			s, strtod(count, NULL) * 4096 / (1 << 20) / s);
		fclose(f);
	}
out:
	free(path);
}

static void io_experiments(struct rep *r, const struct ctx *base,
			   struct tally *t)
{
	unsigned long long size = benchopt_pick(&base->o, 64 << 20, 16 << 20,
						1 << 20);
	char *file = xasprintf("%s/osbench-report-io.%d", base->o.dir,
			       (int)getpid());
	char count[32], max[32];
	/* run2's window: the course's 5..15 s, a tenth, a hundredth. */
	int m = (int)benchopt_pick(&base->o, 0, 1, 2);
	char *lo[] = { "5", "0.5", "0.05" }, *hi[] = { "15", "1.5", "0.15" };
	char *run2[] = { "run2", "--wrap", "--min", lo[m], "--max", hi[m],
			 file, "4096", NULL };
	char *rate[] = { "syscall-rate", NULL };
	char *copy[] = { "copy", "--sizes", "80,1M", NULL };
	char *fast[] = { "fast", file, NULL };
	char *sweep[] = { "sweep", "--max", max, file, NULL };
	char *cache[] = { "cache", "--fadvise", "--max", max, file, NULL };

	snprintf(count, sizeof(count), "%llu", size / 4096);
	snprintf(max, sizeof(max), "%llu", size);
	course_run(r, base, t, file, count);
	if (access(file, R_OK) == 0) {
		run_into(r, base, t, "run2.txt", 1, NULL, run2);
		run_into(r, base, t, "fast.txt", 1, NULL, fast);
		run_into(r, base, t, "sweep.csv", 0, "sweep.svg", sweep);
		run_into(r, base, t, "cache.csv", 0, "cache.svg", cache);
		run_into(r, base, t, "syscall-rate.csv", 0, NULL, rate);
		run_into(r, base, t, "copy.csv", 0, NULL, copy);
		unlink(file);
	} else {
		skipped(r, "sweep", "run -w could not write the scratch file");
	}
	free(file);
}

static void transfers(struct rep *r, const struct ctx *base,
		      struct tally *t)
{
	unsigned long long port;
	char *argv[] = { "transfer", "--size",
			 (char *)(base->o.mode == BENCH_FULL ? "64M" :
				  base->o.mode == BENCH_QUICK ? "8M" : "1M"),
			 NULL };

	if (dev_module_param("port", &port)) {
		skipped(r, "transfer", "The syncdev module is not loaded on "
			"this machine: the device transfers (osbench transfer) "
			"need it; make bench-transfer runs them in the VM.");
		return;
	}
	run_into(r, base, t, "transfer.csv", 0, NULL, argv);
}

int rep_measure(struct rep *r, const struct ctx *base)
{
	static const char *const io[] = { "run-w", "run", "run2", "fast",
					  "sweep", "cache", "syscall-rate",
					  "copy" };
	struct tally t = { 0 };
	size_t i;

	if (mkdir(r->dir, 0755) && errno != EEXIST) {
		msg_errno("mkdir %s", r->dir);
		return EXIT_FAIL;
	}
	facts(r, base);
	experiments(r, base, &t);
	if (!unselected(r, "micro-opt"))
		run_into(r, base, &t, "micro-opt.csv", 0, NULL,
			 (char *[]){ "micro-opt", NULL });
	if (rep_selected(r, "io"))
		io_experiments(r, base, &t);
	else
		for (i = 0; i < sizeof(io) / sizeof(io[0]); i++)
			unselected(r, io[i]);
	if (!unselected(r, "transfer"))
		transfers(r, base, &t);
	return runner_done(&t);
}
