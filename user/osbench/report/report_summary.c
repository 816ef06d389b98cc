// SPDX-License-Identifier: GPL-2.0
/*
 * The summary table of osbench report, as a course report has it: per
 * parameter an estimate and what it rests on (report_estimate.c), the
 * measured median with its spread, and measured / estimate.
 */
#include "csvtab.h"
#include "report_parts.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct line {
	const char *label;
	enum figure fig;
};

static const struct line lines[] = {
	{ "Loop overhead (one iteration)", FIG_LOOP },
	{ "Reading the clock: rdtsc", FIG_RDTSC },
	{ "Reading the clock: clock_gettime", FIG_CLOCK_GETTIME },
	{ "Procedure call, 0 arguments", FIG_CALL0 },
	{ "Procedure call, 3 arguments", FIG_CALL0 + 3 },
	{ "Procedure call, 7 arguments", FIG_CALL7 },
	{ "System call (getpid)", FIG_SYSCALL },
	{ "Process creation (fork+exit+wait)", FIG_FORK },
	{ "Thread creation (create+join)", FIG_THREAD },
	{ "Context switch, threads (1 CPU)", FIG_CTXSW_THREAD },
	{ "Context switch, processes (1 CPU)", FIG_CTXSW_PROCESS },
	{ "Memory latency, level 1", FIG_MEM_L1 },
	{ "Memory latency, level 2", FIG_MEM_L1 + 1 },
	{ "Memory latency, level 3", FIG_MEM_L1 + 2 },
	{ "Memory latency, beyond the caches", FIG_MEM_MAIN },
	{ "Memory read bandwidth, 1 thread", FIG_BW_READ_1 },
	{ "Memory read bandwidth, all CPUs", FIG_BW_READ_ALL },
	{ "Memory write bandwidth, 1 thread", FIG_BW_WRITE_1 },
	{ "Memory copy bandwidth, 1 thread", FIG_BW_COPY_1 },
	{ "Page fault, minor", FIG_FAULT_MINOR },
	{ "Page fault, major", FIG_FAULT_MAJOR },
	{ "TCP round trip, loopback", FIG_TCP_RTT },
	{ "TCP round trip, to the peer", FIG_TCP_RTT_PEER },
	{ "TCP connect, loopback", FIG_TCP_CONNECT },
	{ "TCP connect, to the peer", FIG_TCP_CONNECT_PEER },
	{ "TCP bandwidth, loopback", FIG_TCP_BW },
	{ "TCP bandwidth, to the peer", FIG_TCP_BW_PEER },
	{ "ICMP echo (ping), loopback", FIG_ICMP_RTT },
	{ "ICMP echo (ping), to the peer", FIG_ICMP_RTT_PEER },
	{ "Device round trip, loopback", FIG_DEV_RTT },
	{ "Device round trip, to the peer", FIG_DEV_RTT_PEER },
	{ "Device bandwidth, loopback", FIG_DEV_BW },
	{ "Device bandwidth, to the peer", FIG_DEV_BW_PEER },
	{ "O_SYNC write 4 KiB, local", FIG_FA_SYNC_4K },
	{ "O_SYNC write 4 KiB, remote", FIG_FA_SYNC_4K_REMOTE },
	{ "Sequential read 64 KiB, local", FIG_FA_SEQ_64K },
	{ "Sequential read 64 KiB, remote", FIG_FA_SEQ_64K_REMOTE },
	{ "Random read 4 KiB, local", FIG_FA_RAND_4K },
	{ "Random read 4 KiB, remote", FIG_FA_RAND_4K_REMOTE },
};

#define NLINES (sizeof(lines) / sizeof(lines[0]))

static void num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e4 && fabs(v) < 1e12)
		snprintf(buf, len, "%.0f", v);	/* no exponent */
	else
		snprintf(buf, len, "%.4g", v);
}

#define NCELLS 10

/* The spread cells of a measured figure: its minimum, its interval. */
static void spread_cells(const struct stats *st, char buf[][220])
{
	char lo[32], hi[32];

	num(buf[5], 220, st->min);
	num(lo, sizeof(lo), st->ci_lo);
	num(hi, sizeof(hi), st->ci_hi);
	if (st->n < 2)
		snprintf(buf[6], 220, "one sample");
	else
		snprintf(buf[6], 220, "%s..%s (n %zu, %.3g%%)", lo, hi, st->n,
			 100 * st->ci_level);
}

/* One row's cells (NCELLS); buf holds their text. */
static void row_cells(const struct rep *r, const struct line *l,
		      char buf[][220], const char **cells)
{
	struct rep_est e;
	int got = r->s.set[l->fig], i;
	double v = r->s.value[l->fig];

	rep_estimate(r, l->fig, &e);
	snprintf(buf[0], 220, "%s", l->label);
	num(buf[1], 220, e.hw);
	num(buf[2], 220, e.sw);
	num(buf[3], 220, e.v);
	if (got)
		num(buf[4], 220, v);
	else
		snprintf(buf[4], 220, "not measured");
	if (got && r->s.has_st[l->fig]) {
		spread_cells(&r->s.st[l->fig], buf);
	} else {
		snprintf(buf[5], 220, "-");
		snprintf(buf[6], 220, got ? "one figure, no samples" : "-");
	}
	num(buf[7], 220, got && e.v > 0 ? v / e.v : NAN);
	snprintf(buf[8], 220, "%s", got && r->s.unit[l->fig] ?
		 r->s.unit[l->fig] : "");
	snprintf(buf[9], 220, "%s", e.basis);
	for (i = 0; i < NCELLS; i++)
		cells[i] = buf[i];
}

void rep_summary(struct doc *d, const struct rep *r)
{
	static const char *const head[NCELLS] = {
		"Parameter", "Base hardware", "Software overhead",
		"Estimate", "Actual (median)", "Min",
		"Interval of the median (n, confidence)", "Actual / estimate",
		"Unit", "Basis of the estimate",
	};
	char buf[NCELLS][220];
	const char *cells[NCELLS];
	size_t i;

	doc_table(d, NCELLS, head, "lrrrrrlrll");
	for (i = 0; i < NLINES; i++) {
		row_cells(r, &lines[i], buf, cells);
		doc_row(d, cells);
	}
	doc_table_end(d);
}
