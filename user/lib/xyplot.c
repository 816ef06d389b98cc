// SPDX-License-Identifier: GPL-2.0
#include "xyplot.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int write_data(const char *path, const struct xy_plot *p)
{
	FILE *f = fopen(path, "w");
	size_t s, i;

	if (!f) {
		msg_errno("plot data %s", path);
		return -1;
	}
	/* One gnuplot data block per series, separated by two blank lines. */
	for (s = 0; s < p->nseries; s++) {
		fprintf(f, "# %s\n", p->series[s].name);
		for (i = 0; i < p->series[s].n; i++)
			fprintf(f, "%.9g %.9g\n", p->series[s].x[i],
				p->series[s].y[i]);
		fputs("\n\n", f);
	}
	if (fclose(f)) {
		msg_errno("plot data %s", path);
		return -1;
	}
	return 0;
}

static const char *terminal(const char *out)
{
	const char *dot = strrchr(out, '.');

	if (dot && !strcmp(dot, ".svg"))
		return "svg size 900,540 dynamic";
	if (dot && !strcmp(dot, ".png"))
		return "pngcairo size 900,540";
	return "dumb size 100,30";
}

static int write_script(const char *path, const char *dat, const char *out,
			const struct xy_plot *p)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f) {
		msg_errno("plot script %s", path);
		return -1;
	}
	fprintf(f, "set terminal %s\nset output '%s'\n", terminal(out), out);
	fprintf(f, "set title '%s'\nset xlabel '%s'\nset ylabel '%s'\n",
		p->title, p->xlabel, p->ylabel);
	fputs("set grid\nset key top left\n", f);
	if (p->logx)
		fputs("set logscale x 2\nset format x '%.0b%BB'\n", f);
	if (p->logy)
		fputs("set logscale y\n", f);
	for (i = 0; i < p->nmarks; i++)
		fprintf(f, "set arrow from %.9g, graph 0 to %.9g, graph 1 "
			"nohead dashtype 2\nset label '%s' at %.9g, graph 0.95 "
			"rotate by 90 right offset -1,0\n", p->marks[i].x,
			p->marks[i].x, p->marks[i].label, p->marks[i].x);
	fputs("plot ", f);
	for (i = 0; i < p->nseries; i++)
		fprintf(f, "%s'%s' index %zu with linespoints title '%s'",
			i ? ", " : "", dat, i, p->series[i].name);
	fputc('\n', f);
	if (fclose(f)) {
		msg_errno("plot script %s", path);
		return -1;
	}
	return 0;
}

int xyplot(const char *out, const struct xy_plot *p)
{
	char *dat, *gp, *cmd;
	int ret = -1, status;

	/* The name goes into a gnuplot script and a shell command quoted. */
	if (strchr(out, '\'')) {
		msg("plot file name must not contain a quote: %s", out);
		return -1;
	}
	if (asprintf(&dat, "%s.dat", out) < 0 ||
	    asprintf(&gp, "%s.gp", out) < 0 ||
	    asprintf(&cmd, "gnuplot '%s' 2>&1", gp) < 0)
		die(EXIT_FAIL, "out of memory");
	if (write_data(dat, p) || write_script(gp, dat, out, p))
		goto out;
	if (system("command -v gnuplot >/dev/null 2>&1")) {
		msg("gnuplot is not installed: %s not drawn (run gnuplot %s "
		    "later)", out, gp);
		ret = 1;
		goto out;
	}
	status = system(cmd);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		msg("gnuplot %s failed", gp);
		goto out;
	}
	ret = 0;
out:
	free(dat);
	free(gp);
	free(cmd);
	return ret;
}
