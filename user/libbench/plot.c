// SPDX-License-Identifier: GPL-2.0
#include "plot.h"
#include "util.h"

#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct point {
	double x, y;
	double lo, hi;		/* the error bar; both y without one */
	size_t series;
};

struct mark {
	double x;
	char *label;
};

struct plot {
	char *title, *xlabel, *ylabel;
	unsigned int flags;
	char **names;
	size_t nseries;
	struct point *pts;
	size_t npts, cap;
	struct mark *marks;
	size_t nmarks;
};

struct plot *plot_new(const char *title, const char *xlabel,
		      const char *ylabel, unsigned int flags)
{
	struct plot *p = xcalloc(1, sizeof(*p));

	p->title = xstrdup(title);
	p->xlabel = xstrdup(xlabel);
	p->ylabel = xstrdup(ylabel);
	p->flags = flags;
	return p;
}

size_t plot_series(struct plot *p, const char *name)
{
	p->names = xreallocarray(p->names, p->nseries + 1, sizeof(char *));
	p->names[p->nseries] = xstrdup(name);
	return p->nseries++;
}

void plot_point_err(struct plot *p, size_t series, double x, double y,
		    double lo, double hi)
{
	if (series >= p->nseries)
		die(EXIT_FAIL, "plot: no series %zu", series);
	if (p->npts == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->pts = xreallocarray(p->pts, p->cap, sizeof(*p->pts));
	}
	p->pts[p->npts++] = (struct point){ x, y, lo, hi, series };
}

void plot_point(struct plot *p, size_t series, double x, double y)
{
	plot_point_err(p, series, x, y, y, y);
}

/* Whether a point of series s has an error bar: it is drawn with them. */
static int series_has_err(const struct plot *p, size_t s)
{
	size_t i;

	for (i = 0; i < p->npts; i++)
		if (p->pts[i].series == s &&
		    (p->pts[i].lo != p->pts[i].y || p->pts[i].hi != p->pts[i].y))
			return 1;
	return 0;
}

void plot_mark(struct plot *p, double x, const char *label)
{
	p->marks = xreallocarray(p->marks, p->nmarks + 1, sizeof(*p->marks));
	p->marks[p->nmarks++] = (struct mark){ x, xstrdup(label) };
}

static const char *terminal(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (!dot)
		return NULL;
	if (!strcmp(dot, ".svg"))
		return "svg size 900,540 dynamic font 'sans,11'";
	if (!strcmp(dot, ".png"))
		return "pngcairo size 900,540";
	if (!strcmp(dot, ".txt"))
		return "dumb size 100,30";
	return NULL;
}

static int have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save, *full;
	int found = 0;

	copy = xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		full = xasprintf("%s/gnuplot", dir);
		found = access(full, X_OK) == 0;
		free(full);
	}
	free(copy);
	return found;
}

int plot_check_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int bad;

	if (!terminal(path)) {
		msg("plot: '%s' must end in .svg, .png or .txt", path);
		return -1;
	}
	/* Its directory must take new files, before minutes of measuring. */
	dir = slash ? xasprintf("%.*s", slash == path ? 1 : (int)(slash - path),
				path) : xstrdup(".");
	bad = access(dir, W_OK | X_OK);
	if (bad)
		msg_errno("plot: cannot write %s into directory %s", path, dir);
	free(dir);
	if (bad)
		return -1;
	if (!have_gnuplot())
		msg("plot: gnuplot is not installed (apt-get install "
		    "gnuplot-nox): only %s.dat and %s.gp will be written",
		    path, path);
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

static size_t series_points(const struct plot *p, size_t s)
{
	size_t i, n = 0;

	for (i = 0; i < p->npts; i++)
		n += p->pts[i].series == s;
	return n;
}

int plot_write_data(const struct plot *p, FILE *f)
{
	size_t s, i;
	int err;

	for (s = 0; s < p->nseries; s++) {
		/* gnuplot's "index" counts blocks; an empty one is skipped. */
		if (!series_points(p, s))
			continue;
		err = series_has_err(p, s);
		fprintf(f, "# %s%s\n", p->names[s], err ? " (x y low high)" : "");
		for (i = 0; i < p->npts; i++) {
			if (p->pts[i].series != s)
				continue;
			fprintf(f, "%.9g %.9g", p->pts[i].x, p->pts[i].y);
			if (err)
				fprintf(f, " %.9g %.9g", p->pts[i].lo,
					p->pts[i].hi);
			fputc('\n', f);
		}
		fputs("\n\n", f);
	}
	return ferror(f) ? -1 : 0;
}

static void set_string(FILE *f, const char *what, const char *s)
{
	fprintf(f, "set %s ", what);
	quoted(f, s);
	fputc('\n', f);
}

int plot_write_script(const struct plot *p, FILE *f, const char *out,
		      const char *dat)
{
	size_t s, i, block = 0;

	fprintf(f, "set terminal %s\n", terminal(out));
	set_string(f, "output", out);
	set_string(f, "title", p->title);
	set_string(f, "xlabel", p->xlabel);
	set_string(f, "ylabel", p->ylabel);
	fputs("set grid\nset key top left\n", f);
	if (p->flags & PLOT_LOGX)
		fputs("set logscale x 2\nset format x '%.0b%BB'\n", f);
	if (p->flags & PLOT_LOGY)
		fputs("set logscale y\n", f);
	for (i = 0; i < p->nmarks; i++) {
		fprintf(f, "set arrow from %.9g, graph 0 to %.9g, graph 1 "
			"nohead dashtype 2\nset label ", p->marks[i].x,
			p->marks[i].x);
		quoted(f, p->marks[i].label);
		fprintf(f, " at %.9g, graph 0.95 rotate by 90 right "
			"offset -1,0\n", p->marks[i].x);
	}
	fputs("plot ", f);
	for (s = 0; s < p->nseries; s++) {
		if (!series_points(p, s))
			continue;
		if (block)
			fputs(", ", f);
		quoted(f, dat);
		fprintf(f, " index %zu %s title ", block++,
			series_has_err(p, s) ?
			"using 1:2:3:4 with yerrorlines" : "with linespoints");
		quoted(f, p->names[s]);
	}
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}

/* Write the script to path when dat is given, else the data; 0 or -1. */
static int write_file(const char *path, const struct plot *p,
		      const char *out, const char *dat)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f) {
		msg_errno("plot: cannot create %s", path);
		return -1;
	}
	err = dat ? plot_write_script(p, f, out, dat) : plot_write_data(p, f);
	if (fclose(f) || err) {
		msg_errno("plot: cannot write %s", path);
		return -1;
	}
	return 0;
}

/*
 * gnuplot with the script as its argument: no shell, so no quoting of the
 * name; its stdout goes to stderr, away from the tables on stdout.
 */
static int run_gnuplot(const char *gp)
{
	char *argv[] = { "gnuplot", (char *)gp, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int err, status;

	if (posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO,
					     STDOUT_FILENO))
		die(EXIT_FAIL, "plot: out of memory");
	err = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		errno = err;
		msg_errno("plot: cannot run gnuplot %s", gp);
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			msg_errno("plot: waiting for gnuplot");
			return -1;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		msg("plot: gnuplot %s failed", gp);
		return -1;
	}
	return 0;
}

void plot_free(struct plot *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nseries; i++)
		free(p->names[i]);
	for (i = 0; i < p->nmarks; i++)
		free(p->marks[i].label);
	free(p->names);
	free(p->marks);
	free(p->pts);
	free(p->title);
	free(p->xlabel);
	free(p->ylabel);
	free(p);
}

int plot_write(struct plot *p, const char *out)
{
	char *dat = xasprintf("%s.dat", out), *gp = xasprintf("%s.gp", out);
	int ret = -1;

	if (!terminal(out)) {
		msg("plot: '%s' must end in .svg, .png or .txt", out);
	} else if (!p->npts) {
		msg("plot: no points to draw in %s", out);
	} else if (!write_file(dat, p, out, NULL) &&
		   !write_file(gp, p, out, dat)) {
		if (!have_gnuplot()) {
			msg("plot: gnuplot is not installed: %s not drawn "
			    "(run gnuplot %s later)", out, gp);
			ret = 1;
		} else {
			ret = run_gnuplot(gp);
		}
	}
	plot_free(p);
	free(dat);
	free(gp);
	return ret;
}
