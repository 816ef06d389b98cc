/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Curves drawn by gnuplot, when it is installed.  The output format
 * follows the file name: .svg or .png.
 *
 *	struct plot *p = plot_new("sweep", "block size (bytes)", "MiB/s", 1);
 *	plot_series(p, "cached");
 *	plot_point(p, 4096, 812.5); ...
 *	plot_write(p, "sweep.svg");	   (draws, frees)
 */
#ifndef SYNCDEV_PLOT_H
#define SYNCDEV_PLOT_H

struct plot;

/* logx: logarithmic (base 2) x axis. */
struct plot *plot_new(const char *title, const char *xlabel,
		      const char *ylabel, int logx);
/* Start a new curve; the points that follow belong to it. */
void plot_series(struct plot *p, const char *name);
void plot_point(struct plot *p, double x, double y);
/*
 * Run gnuplot to draw every series into path and free the plot.  Returns
 * 0; -1 after saying why (no gnuplot, unknown extension, gnuplot failed).
 */
int plot_write(struct plot *p, const char *path);

/* 0 when path names a format plot_write can draw, else -1 (and says so). */
int plot_check_path(const char *path);

#endif
