// SPDX-License-Identifier: GPL-2.0
#include "plot.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct point {
	double x, y;
	size_t series;
};

struct plot {
	char *title, *xlabel, *ylabel;
	int logx;
	char **names;
	size_t nseries;
	struct point *pts;
	size_t npts, cap;
};

static void *xalloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die(EXIT_FAIL, "out of memory");
	return p;
}

static char *xdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die(EXIT_FAIL, "out of memory");
	return d;
}

struct plot *plot_new(const char *title, const char *xlabel,
		      const char *ylabel, int logx)
{
	struct plot *p = xalloc(NULL, sizeof(*p));

	memset(p, 0, sizeof(*p));
	p->title = xdup(title);
	p->xlabel = xdup(xlabel);
	p->ylabel = xdup(ylabel);
	p->logx = logx;
	return p;
}

size_t plot_series(struct plot *p, const char *name)
{
	p->names = xalloc(p->names, (p->nseries + 1) * sizeof(char *));
	p->names[p->nseries] = xdup(name);
	return p->nseries++;
}

void plot_point(struct plot *p, size_t series, double x, double y)
{
	if (series >= p->nseries)
		die(EXIT_FAIL, "plot: no series %zu", series);
	if (p->npts == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->pts = xalloc(p->pts, p->cap * sizeof(*p->pts));
	}
	p->pts[p->npts++] = (struct point){ x, y, series };
}

static const char *terminal(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && !strcmp(dot, ".svg"))
		return "svg size 800,500 dynamic font 'sans,11'";
	if (dot && !strcmp(dot, ".png"))
		return "pngcairo size 800,500";
	return NULL;
}

static int have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save, full[4096];
	int found = 0;

	copy = xdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(full, sizeof(full), "%s/gnuplot", dir);
		found = access(full, X_OK) == 0;
	}
	free(copy);
	return found;
}

int plot_check_path(const char *path)
{
	if (!terminal(path)) {
		msg("plot: '%s' must end in .svg or .png", path);
		return -1;
	}
	if (!have_gnuplot()) {
		msg("plot: gnuplot is not installed (apt-get install gnuplot-nox); no plot drawn");
		return -1;
	}
	return 0;
}

/* A gnuplot single-quoted string: '' stands for one quote. */
static void quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static void script(const struct plot *p, FILE *f, const char *path)
{
	size_t s, i;

	fprintf(f, "set terminal %s\nset output ", terminal(path));
	quoted(f, path);
	fputs("\nset title ", f);
	quoted(f, p->title);
	fputs("\nset xlabel ", f);
	quoted(f, p->xlabel);
	fputs("\nset ylabel ", f);
	quoted(f, p->ylabel);
	fputs("\nset grid\nset key top left\n", f);
	if (p->logx)
		fputs("set logscale x 2\nset format x '2^{%L}'\n", f);
	fputs("plot ", f);
	for (s = 0; s < p->nseries; s++) {
		fputs(s ? ", '-' title " : "'-' title ", f);
		quoted(f, p->names[s]);
		fputs(" with linespoints", f);
	}
	fputc('\n', f);
	for (s = 0; s < p->nseries; s++) {
		for (i = 0; i < p->npts; i++)
			if (p->pts[i].series == s)
				fprintf(f, "%.9g %.9g\n", p->pts[i].x,
					p->pts[i].y);
		fputs("e\n", f);
	}
}

static void plot_free(struct plot *p)
{
	size_t s;

	for (s = 0; s < p->nseries; s++)
		free(p->names[s]);
	free(p->names);
	free(p->pts);
	free(p->title);
	free(p->xlabel);
	free(p->ylabel);
	free(p);
}

int plot_write(struct plot *p, const char *path)
{
	FILE *f;
	int status;

	if (plot_check_path(path)) {
		plot_free(p);
		return -1;
	}
	f = popen("gnuplot", "w");
	if (!f) {
		msg_errno("plot: cannot run gnuplot");
		plot_free(p);
		return -1;
	}
	script(p, f, path);
	plot_free(p);
	status = pclose(f);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		msg("plot: gnuplot failed to draw %s", path);
		return -1;
	}
	return 0;
}
