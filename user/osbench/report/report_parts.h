/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osbench report, in parts:
 *
 *   report.c          the command: measure into a folder, then render
 *   report_run.c      running every experiment into DIR/NAME.csv (and
 *                     plots), the I/O experiments on a scratch file, the
 *                     device transfers when the module is loaded, and
 *                     the two-guest parts with --peer and --remote
 *   report_only.c     which experiments run (--only)
 *   report_summary.c  the summary table: per figure the estimate with its
 *                     basis, the measured median with its spread, the
 *                     ratio
 *   report_estimate.c the estimates and their bases, with
 *                     report_estimate_io.c for the network and the files
 *   report_basis.c    what every estimate is made of
 *   figures.c         the figures' names (figures.h)
 *   report_save.c     DIR/summary.csv, written and read back; the
 *                     NAME.meta.json beside every NAME.csv
 *   report_flags.c    anomalies a reader must not take at face value
 *   report_flag_est.c estimates more than 10x off what was measured
 *   report_doc.c      report.md and report.html from the folder, with
 *                     report_tables.c for the tables of the folder
 *   report_method.c   DIR/methodology.md
 *
 * Rendering reads only the folder, so "osbench report --render DIR"
 * turns saved (or synthetic) results into the same documents.
 */
#ifndef OSBENCH_REPORT_PARTS_H
#define OSBENCH_REPORT_PARTS_H

#include "docout.h"
#include "experiment.h"
#include "figures.h"

#include <stdbool.h>
#include <stdio.h>

/* What a rendering works from: the folder and the figures in it. */
struct rep {
	const char *dir;
	struct summary s;
	/* Facts the estimates use, saved with the figures (summary.csv). */
	double cycle_ns;	/* TSC cycle time; 0: unknown */
	int rotational;		/* 1: a spinning disk, 0: none, -1: unknown */
	int cpus;		/* online CPUs */
	char local_fs[32];	/* fileaccess's first directory's file system */
	char remote_fs[32];	/* and the --remote one's, or "" */
	char mode[16];		/* full, quick, smoke */
	char peer[64];		/* the --peer address, or "" */
	char remote[256];	/* the --remote directory, or "" */
	const char *only;	/* --only's experiments, or NULL: all */
};

/*
 * --only's parser (optable.h OPT_CALL): v, a comma-separated list of the
 * report's experiments, stored at dst; -1 after a message naming them.
 */
int rep_only_parse(const char *what, const char *v, void *dst);
/*
 * Does the report run experiment name ("net", "io", "transfer")?  machine
 * always; net-peer with net.
 */
bool rep_selected(const struct rep *r, const char *name);

/* Measure everything into rep->dir; the exit code (failures counted). */
int rep_measure(struct rep *rep, const struct ctx *base);

/*
 * DIR/NAME.meta.json opened for the metadata of the CSV tables printed
 * until rep_meta_close (report.h), or NULL after a message; closing
 * returns 0, or -1 after a message (NULL: -1, silently).
 */
FILE *rep_meta_open(const char *dir, const char *name);
int rep_meta_close(FILE *meta);

/*
 * DIR/summary.csv from rep, and back.  0, or -1 after a message; reading
 * back refuses a folder with a NAME.meta.json of another format_version.
 */
int rep_save(const struct rep *rep);
int rep_load(struct rep *rep);

/*
 * An estimate, as the course's tables give it: base hardware + software
 * overhead = estimate (v; NAN: none), and the sentence that says why.
 * hw or sw is NAN where the estimate is not split that way.
 */
struct rep_est {
	double hw;
	double sw;
	double v;
	char basis[200];
};

/*
 * The estimate of figure f from the facts and the other figures of r
 * (report_estimate.c); always with a basis, "no basis: ..." included.
 */
void rep_estimate(const struct rep *r, enum figure f, struct rep_est *e);
/* Its parts for the network and file-access rows (report_estimate_io.c). */
void rep_estimate_net(const struct rep *r, enum figure f, struct rep_est *e);
void rep_estimate_file(const struct rep *r, enum figure f,
		       struct rep_est *e);
/*
 * What the estimates are made of (report_basis.c): figure f measured (and
 * > 0), and its value.
 */
int rep_have(const struct rep *r, enum figure f);
double rep_val(const struct rep *r, enum figure f);
/* Set e to v with the basis; rep_need: rep_have, else "no basis". */
void rep_say(struct rep_est *e, double v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Set e to hw + sw (a NAN part counts 0) with the basis. */
void rep_split(struct rep_est *e, double hw, double sw, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int rep_need(const struct rep *r, struct rep_est *e, enum figure f);

/* The summary table onto d. */
void rep_summary(struct doc *d, const struct rep *rep);

/*
 * Append the anomalies found in the figures and the folder's tables to
 * d as a list; returns how many.
 */
int rep_flags(struct doc *d, const struct rep *rep);
/* The estimates more than 10x off their figure, onto d; how many. */
int rep_flag_estimates(struct doc *d, const struct rep *rep);

/* report.md and report.html in rep->dir.  0, or -1 after a message. */
int rep_render(const struct rep *rep);

/*
 * DIR/methodology.md, and copies of docs/microbench.md and docs/io.md
 * when they are found beside the program (../docs).  Returns a line for
 * the report that says which.
 */
const char *rep_methodology(const char *dir);

/*
 * A table of DIR/file (a CSV table) onto d, its notes as a list before
 * it; cols: the columns to show (NULL-ended), NULL: all.  0, or -1 when
 * the file is missing.
 */
int rep_csv_table(struct doc *d, const char *dir, const char *file,
		  const char *const *cols);

/* fileaccess.csv side by side: medians per directory, local / remote. */
int rep_fa_side(struct doc *d, const struct rep *r);

#endif
