/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osbench bench-io: the tools it races against fast (bench_tools.c) and
 * the run of all of them (bench_io.c).
 */
#ifndef OSBENCH_BENCH_IO_H
#define OSBENCH_BENCH_IO_H

#include "benchopt.h"

#include <stdbool.h>
#include <stdint.h>

struct bench {
	const char *file;
	char self[4096];	/* this binary, run as fast and membw */
	unsigned int reps;
	bool global_drop;
	int drop_method;
	uint64_t size;
	unsigned int cpus;
	char expect[64];	/* fast's stdout, from an untimed run */
	bool is_pattern;	/* expect is the pattern's XOR of size bytes */
};

enum tool_kind {
	TOOL_TIMED,	/* a child process timed from fork to exit */
	TOOL_FIO,	/* fio: the bandwidth it reports for its I/O */
};

/* One tool under test and the MiB/s of its runs. */
struct tool {
	const char *name;	/* in the table */
	const char *path;
	char **argv;
	enum tool_kind kind;
	bool is_fast;		/* stdout checked, method kept */
	bool missing;		/* not installed: no rows measured */
	double *rate;
	double out[3];		/* median, min, max; 0 when not measured */
	char how[384];		/* fast: the method it reported */
};

/*
 * Run path with argv, stdout into out_fd and stderr into err_fd (-1:
 * /dev/null).  Returns the exit status, -1 when it did not exit, 127
 * when it could not be started.
 */
int bench_spawn(const char *path, char *const argv[], int out_fd,
		int err_fd);
/*
 * Run and return its stdout (NUL-terminated, cut to len - 1); the exit
 * status as bench_spawn's, or -1 after a message.
 */
int bench_capture(const char *path, char *const argv[], char *buf,
		  size_t len);
/*
 * One run of t on b->file: its MiB/s into *rate; EXIT_OK, EXIT_FAIL when
 * the tool failed, EXIT_CORRUPT when fast printed another XOR value (each
 * after a message).
 */
int bench_run_tool(struct bench *b, struct tool *t, double *rate);
/*
 * The fio command line (at most BENCH_FIO_ARGS entries with the NULL):
 * bs 1 MiB, one job per CPU on disjoint ranges, psync, or libaio with
 * O_DIRECT and 16 requests in flight.  The argv
 * strings live in buf.  False when the file is too small for fio.
 */
#define BENCH_FIO_ARGS 20
bool bench_fio_argv(const struct bench *b, bool direct, char **argv,
		    size_t n, char *buf, size_t len);
/* osbench membw --op read --threads all: MiB/s, or -1. */
double bench_membw(struct bench *b, const struct benchopt *o);
/* Fork to exit of "fast --help", the median of n runs in ns; 0: failed. */
double bench_startup_ns(struct bench *b, unsigned int n);
/* The 1-minute load average, or -1. */
double bench_loadavg(void);

#endif
