/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Curves drawn by gnuplot.  The data and the script are written next to
 * the picture (OUT.dat, OUT.gp) so a reader can redraw or restyle it, then
 * gnuplot runs the script when it is installed.  The terminal follows the
 * extension: .svg, .png, else a text plot.
 */
#ifndef SYNCDEV_XYPLOT_H
#define SYNCDEV_XYPLOT_H

#include <stddef.h>

struct xy_series {
	const char *name;
	const double *x, *y;
	size_t n;
};

struct xy_mark {
	double x;		/* a vertical line at x, labelled */
	const char *label;
};

struct xy_plot {
	const char *title;
	const char *xlabel, *ylabel;
	int logx, logy;
	const struct xy_series *series;
	size_t nseries;
	const struct xy_mark *marks;
	size_t nmarks;
};

/*
 * Write OUT.dat and OUT.gp and run gnuplot to draw OUT.  Returns 0, 1 when
 * gnuplot is not installed (the script is still there, a message says so),
 * or -1 after a message when a file could not be written or gnuplot failed.
 */
int xyplot(const char *out, const struct xy_plot *p);

#endif
