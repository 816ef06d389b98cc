/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Curves drawn by gnuplot, when it is installed.  The output format
 * follows the file name: .svg or .png.
 *
 *	struct plot *p = plot_new("sweep", "block size (bytes)", "MiB/s", 1);
 *	size_t warm = plot_series(p, "warm");
 *	plot_point(p, warm, 4096, 812.5); ...
 *	plot_write(p, "sweep.svg");	   (draws, frees)
 */
#ifndef SYNCDEV_PLOT_H
#define SYNCDEV_PLOT_H

#include <stddef.h>

struct plot;

/* logx: logarithmic (base 2) x axis. */
struct plot *plot_new(const char *title, const char *xlabel,
		      const char *ylabel, int logx);
/* Add a curve; returns its number for plot_point. */
size_t plot_series(struct plot *p, const char *name);
void plot_point(struct plot *p, size_t series, double x, double y);
/*
 * Run gnuplot to draw every series into path and free the plot.  Returns
 * 0; -1 after saying why (no gnuplot, unknown extension, gnuplot failed).
 */
int plot_write(struct plot *p, const char *path);

/* 0 when path names a format plot_write can draw, else -1 (and says so). */
int plot_check_path(const char *path);

#endif
