// SPDX-License-Identifier: GPL-2.0
/*
 * The comparing half of osbench micro-opt (micro_opt.h): per experiment,
 * this build's figures, then the -O0 build's, run as "osbench-O0
 * micro-opt --this-build --csv --experiments NAME" and read back from
 * its CSV; then one table with both.
 */
#include "csvin.h"
#include "micro_opt.h"
#include "sysinfo.h"
#include "util.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char *mo_beside_self(const char *file)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0) {
		msg_errno("cannot find this program (/proc/self/exe)");
		return NULL;
	}
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	return xasprintf("%s/%s", exe, file);
}

/* The -O0 build's command line for experiment name, with c's options. */
static void child_argv(const struct ctx *c, const char *o0, const char *name,
		       char **argv, char *reps, size_t reps_len)
{
	int n = 0;

	argv[n++] = (char *)o0;
	argv[n++] = "micro-opt";
	argv[n++] = "--this-build";
	argv[n++] = "--csv";
	argv[n++] = "--experiments";
	argv[n++] = (char *)name;
	argv[n++] = "--dir";
	argv[n++] = (char *)c->o.dir;
	if (c->o.mode != BENCH_FULL)
		argv[n++] = c->o.mode == BENCH_QUICK ? "--quick" : "--smoke";
	if (c->o.reps) {
		snprintf(reps, reps_len, "%llu", (unsigned long long)c->o.reps);
		argv[n++] = "--reps";
		argv[n++] = reps;
	}
	argv[n] = NULL;
}

/* Start argv: its stdout into *out (a pipe), its stderr into err. */
static pid_t spawn(char **argv, FILE **out, FILE *err)
{
	int fd[2];
	pid_t pid;

	if (pipe2(fd, O_CLOEXEC))
		return fail_errno("pipe");
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return fail_errno("fork");
	}
	if (pid == 0) {
		if (dup2(fd[1], STDOUT_FILENO) < 0 ||
		    dup2(fileno(err), STDERR_FILENO) < 0)
			_exit(EXIT_FAIL);
		execv(argv[0], argv);
		msg_errno("cannot run %s", argv[0]);
		_exit(EXIT_FAIL);
	}
	close(fd[1]);
	*out = fdopen(fd[0], "r");
	if (!*out)
		close(fd[0]);
	return pid;
}

/* The unit of a row as a string literal (figures.h keeps literals). */
static const char *unit_literal(const char *unit)
{
	static const char *const units[] = { "ns", "us", "ms", "MiB/s" };
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i]))
			return units[i];
	return NULL;
}

/* Row i of the -O0 build's table into s; -1 when it is not that build's. */
static int read_row(const struct table *t, size_t i, const char *o0,
		    struct summary *s)
{
	const struct rec r = { t, t->rows[i] };
	const char *build = rec_get_or(&r, "build", "");
	const char *name = rec_get_or(&r, "benchmark", "");
	const char *n = rec_get_or(&r, "n", "");
	int f;

	if (strcmp(build, "unoptimised"))
		return fail("%s: its micro-benchmarks were compiled with "
			    "optimisation (build '%s'): not an -O0 build", o0,
			    build);
	for (f = 0; f < FIG_COUNT && strcmp(rep_figure_name(f), name); f++)
		;
	if (f == FIG_COUNT)
		return 0;
	s->set[f] = true;
	s->unit[f] = unit_literal(rec_get_or(&r, "unit", ""));
	s->value[f] = strtod(rec_get_or(&r, "median", ""), NULL);
	if (*n) {
		s->has_st[f] = true;
		s->st[f].n = strtoul(n, NULL, 10);
		s->st[f].median = s->value[f];
		s->st[f].ci_lo = strtod(rec_get_or(&r, "median_lo", ""), NULL);
		s->st[f].ci_hi = strtod(rec_get_or(&r, "median_hi", ""), NULL);
	}
	return 0;
}

/* The -O0 build's messages on stderr, without its table's notes. */
static void pass_messages(FILE *err)
{
	char line[1024];

	rewind(err);
	while (fgets(line, sizeof(line), err))
		if (strncmp(line, "# ", 2))
			fprintf(stderr, "[-O0] %s", line);
	fclose(err);
}

/* Experiment name in the -O0 build o0, its figures into s; 0 or -1. */
static int measure_o0(const struct ctx *c, const char *o0, const char *name,
		      struct summary *s)
{
	char *argv[16], reps[24];
	FILE *out = NULL, *err = tmpfile();
	struct table t = { 0 };
	int status = 0, rc = 0, have = 0;
	size_t i;
	pid_t pid;

	if (!err)
		return fail_errno("create a temporary file");
	child_argv(c, o0, name, argv, reps, sizeof(reps));
	pid = spawn(argv, &out, err);
	if (pid < 0) {
		fclose(err);
		return -1;
	}
	if (out) {
		have = !csv_fread(out, &t, CSV_FIRST_TABLE | CSV_KEEP_QUOTE);
		fclose(out);
	}
	for (i = 0; i < t.nrows && rc == 0; i++)
		rc = read_row(&t, i, o0, s);
	csv_free(&t);
	if (waitpid(pid, &status, 0) < 0)
		rc = fail_errno("waitpid");
	pass_messages(err);
	if (rc == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) || !have))
		rc = fail("%s micro-opt --this-build --experiments %s failed "
			  "(status %#x)", o0, name, (unsigned int)status);
	return rc;
}

static void table_notes(struct report *r, const struct ctx *c,
			const char *o0_name)
{
	sysinfo_note(r);
	report_note(r, "mode", "%s", benchopt_mode_name(&c->o));
	report_note(r, "builds", "o2: this program, micro/ compiled with "
		    "CFLAGS (-O2 by default); o0: %s, micro/ compiled with "
		    "-O0; the timing library and the rest alike in both",
		    o0_name);
	report_note(r, "order", "each experiment in the -O2 build, then at "
		    "once in the -O0 build");
	report_note(r, "interval", "of each median, from order statistics; "
		    "'-' for a figure read off a curve (memlat's levels)");
	report_note(r, "ratio", "o0_over_o2: the -O0 median / the -O2 "
		    "median; above 1 a time grew, below 1 a rate (MiB/s) "
		    "fell");
}

static int print_table(const struct ctx *c, const char *o0_name,
		       const struct summary *a, const struct summary *b)
{
	static const char *const cols[] = {
		"benchmark", "unit", "o2_n", "o2_median", "o2_median_lo",
		"o2_median_hi", "o0_n", "o0_median", "o0_median_lo",
		"o0_median_hi", "o0_over_o2", NULL,
	};
	struct report *r = report_new("micro-opt", c->o.fmt, c->out);
	const char *const *col;
	int f;

	table_notes(r, c, o0_name);
	for (col = cols; *col; col++)
		report_column(r, *col, NULL);
	for (f = 0; f < FIG_COUNT; f++) {
		if (!mo_compared(a, f) && !mo_compared(b, f))
			continue;
		report_str(r, rep_figure_name(f));
		report_str(r, a->unit[f] ? a->unit[f] :
			   b->unit[f] ? b->unit[f] : "");
		mo_stat_cells(r, a, f);
		mo_stat_cells(r, b, f);
		if (a->set[f] && b->set[f] && a->value[f] > 0)
			report_num(r, b->value[f] / a->value[f]);
		else
			report_none(r);
	}
	return report_end(r) ? EXIT_FAIL : EXIT_OK;
}

int mo_compare(const struct ctx *c, const char *list, const char *o0,
	       const char *o0_name)
{
	struct summary a = { 0 }, b = { 0 };
	struct tally t = { 0 };
	char *names = xstrdup(list), *save = NULL, *name, what[64];
	int rc;

	for (name = strtok_r(names, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		mo_measure_here(c, name, &a, &t);
		msg_forget();
		rc = measure_o0(c, o0, name, &b);
		snprintf(what, sizeof(what), "%s at -O0", name);
		runner_count(&t, what, rc ? EXIT_FAIL : EXIT_OK,
			     msg_last(NULL));
	}
	free(names);
	rc = print_table(c, o0_name, &a, &b);
	return runner_done(&t) ? EXIT_FAIL : rc;
}
