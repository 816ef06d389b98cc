/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a sender and a receiver (master/slave or tcpcopy) from osbench
 * transfer: the programs next to osbench, started with their stdout into
 * a memfd, and the receiver's "Transmission time" line read back.
 */
#ifndef OSBENCH_XFERRUN_H
#define OSBENCH_XFERRUN_H

#include <limits.h>
#include <stdint.h>

/* This program's directory into bindir, and the module loaded: 0 or -1. */
int xferrun_find_programs(char bindir[PATH_MAX]);

/*
 * Run bindir/sargv[0] and bindir/rargv[0] (argv NULL-terminated) and wait
 * for both: the receiver's Transmission time in ms, or -1 after a message
 * naming what.
 */
double xferrun_pair(const char *bindir, char **sargv, char **rargv,
		    const char *what);

/* A module parameter of syncdev, or 0 when it cannot be read. */
unsigned long long xferrun_module_param(const char *name);

struct ctx;

/*
 * osbench transfer --files N (transfer_files.c): the same bytes as one
 * file and as n files (of size bytes, or with course the sizes of the
 * course's ten small files in turn); EXIT_* after its table.
 */
int transfer_files(const struct ctx *c, unsigned int n, uint64_t size,
		   int course);

#endif
