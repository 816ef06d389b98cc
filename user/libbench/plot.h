/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Curves drawn by gnuplot, the one plotting module of every experiment.
 * The data and the script are written next to the picture (OUT.dat,
 * OUT.gp) so that a reader can redraw or restyle it; then gnuplot runs the
 * script when it is installed, and when it is not a message says so and
 * names the script to run later.  The terminal follows the extension of
 * OUT: .svg, .png, or .txt for a text plot.
 *
 *	struct plot *p = plot_new("sweep", "block size (bytes)", "MiB/s",
 *				  PLOT_LOGX);
 *	size_t warm = plot_series(p, "warm");
 *	plot_point(p, warm, 4096, 812.5); ...
 *	plot_mark(p, 32768, "L1");	   (a labelled vertical line)
 *	plot_write(p, "sweep.svg");	   (writes, draws, frees)
 */
#ifndef SYNCDEV_PLOT_H
#define SYNCDEV_PLOT_H

#include <stddef.h>
#include <stdio.h>

enum plot_flags {
	PLOT_LOGX = 1,		/* base-2 x axis, ticks 1B, 4kiB, ... */
	PLOT_LOGY = 2,		/* base-10 y axis */
};

struct plot;

struct plot *plot_new(const char *title, const char *xlabel,
		      const char *ylabel, unsigned int flags);
/* Add a curve; returns its number for plot_point. */
size_t plot_series(struct plot *p, const char *name);
void plot_point(struct plot *p, size_t series, double x, double y);
/*
 * A point with an error bar from lo to hi (the spread of its samples:
 * min and max, or a confidence interval); a series with one is drawn
 * with yerrorlines, its data file lines "x y lo hi".
 */
void plot_point_err(struct plot *p, size_t series, double x, double y,
		    double lo, double hi);
/* A dashed vertical line at x with a label (a cache size, say). */
void plot_mark(struct plot *p, double x, const char *label);

/*
 * The gnuplot script that draws into out from the data file dat (as
 * plot_write writes it), and the data: one block per non-empty series,
 * blocks separated by two blank lines.  0, or -1 on a write error.
 */
int plot_write_script(const struct plot *p, FILE *f, const char *out,
		      const char *dat);
int plot_write_data(const struct plot *p, FILE *f);

/*
 * Write OUT.dat and OUT.gp, run gnuplot to draw OUT and free the plot.
 * Returns 0; 1 when gnuplot is not installed (the files are there and a
 * message says so); -1 after a message when a file could not be written,
 * there is nothing to draw or gnuplot failed.
 */
int plot_write(struct plot *p, const char *out);
/* Free a plot without drawing it. */
void plot_free(struct plot *p);	/* NULL is a no-op, as for free() */

/*
 * Check an output name before a long experiment: -1 after a message when
 * its extension is not one plot_write can draw; 0 otherwise, with a
 * warning now when gnuplot is not installed.
 */
int plot_check_path(const char *path);

#endif
