// SPDX-License-Identifier: GPL-2.0
/*
 * osbench syscall-rate: how many read, write, lseek,
 * open+close and getpid calls this machine makes per second, one byte at
 * a time (course step 5).
 * getpid and open+close are the loops of callloops.h, shared with the
 * micro-benchmark "osbench syscall"; the method (doubling to --time, then
 * --reps runs) is the I/O experiments' own.
 */
#include "calibrate.h"
#include "callloops.h"
#include "io.h"
#include "measure.h"
#include "pattern.h"
#include "stats.h"
#include "util.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The scratch file: small enough to stay cached, big enough to stream. */
#define SC_FILE_BYTES (1u << 20)

struct sc {
	int fd;
	char path[4096];
	uint64_t pos;		/* bytes since the last rewind */
};

/* read/write: one byte per call; back to 0 at the end of the file. */
static int sc_rw(struct sc *s, uint64_t count, bool wr)
{
	char b = 'x';
	uint64_t i;

	for (i = 0; i < count; i++) {
		ssize_t n = wr ? write(s->fd, &b, 1) : read(s->fd, &b, 1);

		if (n < 0)
			return fail_errno("%s 1 byte of '%s'",
					  wr ? "write" : "read", s->path);
		if (n == 0 || ++s->pos == SC_FILE_BYTES) {
			if (lseek(s->fd, 0, SEEK_SET) < 0)
				return fail_errno("lseek '%s'", s->path);
			s->pos = 0;
		}
	}
	return 0;
}

static int sc_read(void *s, uint64_t count)
{
	return sc_rw(s, count, false);
}

static int sc_write(void *s, uint64_t count)
{
	return sc_rw(s, count, true);
}

static int sc_lseek(void *arg, uint64_t count)
{
	struct sc *s = arg;
	uint64_t i;

	for (i = 0; i < count; i++)
		if (lseek(s->fd, (off_t)(i & 1023), SEEK_SET) < 0)
			return fail_errno("lseek '%s'", s->path);
	return 0;
}

/* getpid and open+close are the loops "osbench syscall" times too. */
static const struct sc_call {
	const char *name;
	measure_fn fn;
	bool on_path;		/* fn takes the path, not struct sc */
	bool bytes;		/* moves one byte per call */
} calls[] = {
	{ "read", sc_read, false, true },
	{ "write", sc_write, false, true },
	{ "lseek", sc_lseek, false, false },
	{ "open+close", call_open_close, true, false },
	{ "getpid", call_getpid, false, false },
};

struct sc_work {
	measure_fn fn;
	void *arg;
};

/* The calls never stop short; a failed one has said why. */
static int sc_calibrate_work(void *ctx, uint64_t count, uint64_t *done)
{
	struct sc_work *w = ctx;

	*done = count;
	return w->fn(w->arg, count);
}

/* Median ns per call of fn over reps runs sized to target_ns; 0 or -1. */
static int sc_measure(measure_fn fn, void *arg, uint64_t target_ns,
		      unsigned int reps, double loop_ns, struct stats *st)
{
	struct sc_work w = { fn, arg };
	struct calibrate cal = { .work = sc_calibrate_work, .ctx = &w,
				 .lo_ns = target_ns, .hi_ns = UINT64_MAX };
	struct calibrate_result res;
	double *ns = xcalloc(reps, sizeof(double));
	unsigned int i;
	int rc = calibrate(&cal, &res);

	for (i = 0; i < reps && !rc; i++) {
		rc = measure_once(fn, arg, res.count, &ns[i]);
		ns[i] = ns[i] / (double)res.count - loop_ns;
		if (ns[i] <= 0)
			ns[i] = 1e-3;
	}
	if (!rc)
		stats_compute(ns, reps, st);
	free(ns);
	return rc;
}

/* The scratch file, filled: 0, or -1 after a message (and removed). */
static int sc_setup(struct sc *s, const char *dir)
{
	unsigned char *buf;

	snprintf(s->path, sizeof(s->path), "%s/osbench-syscall-rate.XXXXXX",
		 dir);
	s->fd = mkstemp(s->path);
	if (s->fd < 0)
		return fail_errno("cannot create a scratch file in '%s'", dir);
	buf = xmalloc(SC_FILE_BYTES);
	pattern_fill(buf, SC_FILE_BYTES, 0);
	if (write_full(s->fd, buf, SC_FILE_BYTES) < 0 ||
	    lseek(s->fd, 0, SEEK_SET) < 0) {
		msg_errno("cannot fill '%s'", s->path);
		close(s->fd);
		unlink(s->path);
		free(buf);
		return -1;
	}
	free(buf);
	return 0;
}

struct sc_opts {
	uint64_t target_ns;	/* 0: the mode's */
};

static const struct opt sc_options[] = {
	{ .name = "time", .kind = OPT_SECONDS, .arg = "S",
	  .off = offsetof(struct sc_opts, target_ns),
	  .help = "time of each call's runs (default 0.2, --quick 0.04,\n"
		  "--smoke 0.004)" },
	{ 0 },
};

static struct report *sc_table(const struct ctx *c)
{
	struct report *r = report_new("syscall-rate", c->o.fmt, c->out);

	report_column(r, "call", NULL);
	report_column_range(r, "rate", "calls/s");
	report_column(r, "cost", "ns");
	report_column(r, "bytes", "MiB/s");
	return r;
}

/* One row per call of calls[]; 0, or -1 when one failed. */
static int sc_rows(struct report *r, struct sc *s, uint64_t target,
		   unsigned int reps, double loop_ns)
{
	struct stats st;
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		if (sc_measure(calls[i].fn, calls[i].on_path ?
			       (void *)s->path : (void *)s, target, reps,
			       loop_ns, &st))
			return -1;
		msg("%s: %.0f calls/s", calls[i].name, 1e9 / st.median);
		report_str(r, calls[i].name);
		report_num(r, 1e9 / st.median);
		report_num(r, 1e9 / st.max);
		report_num(r, 1e9 / st.min);
		report_num(r, st.median);
		if (calls[i].bytes)
			report_num(r, 1e9 / st.median / MIB);
		else
			report_none(r);
	}
	return 0;
}

static const char usage[] =
	"usage: osbench syscall-rate [--time S] [--reps N] [--dir DIR] [options]\n\n"
	"Calls per second of read and write (1 byte, on a 1024 KiB file in\n"
	"--dir), lseek, open+close of that file and\n"
	"the raw getpid system call.  Each is sized to --time seconds\n"
	"by doubling, then timed --reps times; the empty loop's cost is\n"
	"subtracted.\n\n"
	"See also osbench syscall: the micro-benchmark of ns per call for\n"
	"getpid, open+close, fopen+fclose, create+delete, malloc+free and\n"
	"fork, with the same getpid and open+close loops.\n";

static int syscall_rate_run(const struct ctx *c, const void *opts)
{
	const struct sc_opts *o = opts;
	const char *dir = c->o.dir;
	uint64_t target = o->target_ns ? o->target_ns :
			  io_pick_time(&c->o, 200000000);
	unsigned int reps = c->o.reps;
	struct sc s = { 0 };
	struct stats loop;
	struct report *r;
	int rc;

	if (sc_setup(&s, dir))
		return EXIT_FAIL;
	r = sc_table(c);
	rc = sc_measure(measure_empty_loop, NULL, target, reps, 0, &loop);
	if (!rc)
		rc = sc_rows(r, &s, target, reps, loop.median);
	if (close(s.fd) || unlink(s.path))
		msg_errno("cannot remove the scratch file '%s'", s.path);
	if (rc) {
		report_free(r);
		return EXIT_FAIL;
	}
	report_note(r, "method",
		    "each call sized to %.3g s by doubling (the warm-up), median of %u runs; empty loop (%.2f ns/iteration) subtracted",
		    (double)target / 1e9, reps, loop.median);
	report_note(r, "file", "read/write 1 byte per call on a %u KiB scratch file in %s (page cache, no fsync)",
		    SC_FILE_BYTES >> 10, dir);
	if (report_end(r)) {
		msg_errno("cannot write the report");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

OSBENCH_COMMAND(syscall_rate, "syscall-rate", CMD_TABLE | CMD_SCRATCH,
		"calls/s of 1-byte read/write, lseek, open, getpid (cf. syscall)",
		COMMAND_OPTIONS(sc_options, struct sc_opts),
		.max_reps = 1000, .reps = { 5, 3, 3 });
