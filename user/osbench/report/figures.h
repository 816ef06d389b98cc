/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The headline figures "osbench report" puts in its summary table.  An
 * experiment records one with ctx_figure(c, FIG_..., value, unit) while
 * report runs it; report_summary.c gives each its label and its
 * estimate, figures.c its name.  What the rest of osbench sees of the
 * report is this header.
 */
#ifndef OSBENCH_REPORT_FIGURES_H
#define OSBENCH_REPORT_FIGURES_H

#include "stats.h"

#include <stdbool.h>

enum figure {
	FIG_LOOP,		/* overhead: one empty loop iteration */
	FIG_RDTSC,
	FIG_RDTSC_FENCED,
	FIG_RDTSCP,
	FIG_CLOCK_GETTIME,
	FIG_CALL0,		/* call: FIG_CALL0 + number of arguments */
	FIG_CALL7 = FIG_CALL0 + 7,
	FIG_SYSCALL,		/* syscall: getpid */
	FIG_OPEN_CLOSE,
	FIG_FOPEN_FCLOSE,
	FIG_CREATE_DELETE,
	FIG_MALLOC_FREE,
	FIG_FORK,		/* spawn */
	FIG_SPAWN,
	FIG_THREAD,
	FIG_CTXSW_PROCESS,	/* ctxsw, one CPU */
	FIG_CTXSW_THREAD,
	FIG_MEM_L1,		/* memlat: FIG_MEM_L1 + level - 1 */
	FIG_MEM_L4 = FIG_MEM_L1 + 3,
	FIG_MEM_MAIN,
	FIG_BW,			/* membw: FIG_BW + 2 * op + (all CPUs) */
	FIG_BW_LAST = FIG_BW + 5,
	FIG_FAULT_MINOR,	/* pagefault */
	FIG_FAULT_MAJOR,
	/* net: loopback, then the peer (FIG_x + 1) */
	FIG_TCP_RTT,
	FIG_TCP_RTT_PEER,
	FIG_TCP_CONNECT,
	FIG_TCP_CONNECT_PEER,
	FIG_TCP_BW,
	FIG_TCP_BW_PEER,
	FIG_ICMP_RTT,
	FIG_ICMP_RTT_PEER,
	FIG_DEV_RTT,		/* round trip, or TCP request + device reply */
	FIG_DEV_RTT_PEER,
	FIG_DEV_BW,
	FIG_DEV_BW_PEER,
	/* fileaccess: the first local directory, then the remote one */
	FIG_FA_SYNC_4K,		/* O_SYNC writes of 4 KiB */
	FIG_FA_SYNC_4K_REMOTE,
	FIG_FA_SEQ_64K,		/* sequential reads of 64 KiB */
	FIG_FA_SEQ_64K_REMOTE,
	FIG_FA_RAND_4K,		/* random reads of 4 KiB */
	FIG_FA_RAND_4K_REMOTE,
	FIG_COUNT
};

/* The figures of the report's summary that have no name of their own. */
#define FIG_CALL3 (FIG_CALL0 + 3)
#define FIG_MEM_L2 (FIG_MEM_L1 + 1)
#define FIG_MEM_L3 (FIG_MEM_L1 + 2)
/* The membw figures, named. */
#define FIG_BW_READ_1 (FIG_BW + 0)
#define FIG_BW_READ_ALL (FIG_BW + 1)
#define FIG_BW_WRITE_1 (FIG_BW + 2)
#define FIG_BW_COPY_1 (FIG_BW + 4)

struct summary {
	bool set[FIG_COUNT];
	double value[FIG_COUNT];
	const char *unit[FIG_COUNT];	/* a string literal */
	/* The samples' spread, where the figure is a median of samples. */
	bool has_st[FIG_COUNT];
	struct stats st[FIG_COUNT];
};

/* The name of a figure in summary.csv ("call3", "tcp_rtt_peer"). */
const char *rep_figure_name(enum figure f);

#endif
