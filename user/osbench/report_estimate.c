// SPDX-License-Identifier: GPL-2.0
/*
 * The estimates of osbench report's summary table.  Each states its
 * basis, one of:
 *  - "cycle model": a cycle count (Intel's optimisation manual, Agner
 *    Fog's instruction tables) times this machine's TSC cycle time;
 *  - "builds on": figures this run measured (a TCP round trip to the
 *    peer from its ICMP echo, bandwidth from latency by Little's law);
 *  - "hardware": what the machine states (a rotational disk);
 *  - "typical": a textbook figure where the machine states nothing;
 *  - "no basis": nothing to build on, said as such.
 * An estimate that needs a figure the run did not measure says which.
 */
#include "report_parts.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int rep_have(const struct rep *r, enum figure f)
{
	return r->s.set[f] && r->s.value[f] > 0;
}

double rep_val(const struct rep *r, enum figure f)
{
	return r->s.value[f];
}

void rep_say(struct rep_est *e, double v, const char *fmt, ...)
{
	va_list ap;

	e->v = v;
	va_start(ap, fmt);
	vsnprintf(e->basis, sizeof(e->basis), fmt, ap);
	va_end(ap);
}

int rep_need(const struct rep *r, struct rep_est *e, enum figure f)
{
	if (rep_have(r, f))
		return 1;
	rep_say(e, NAN, "no basis: builds on %s, not measured",
		rep_figure_name(f));
	return 0;
}

/* "no basis" because figure f was not measured. */
static void needs(struct rep_est *e, enum figure f)
{
	rep_say(e, NAN, "no basis: builds on %s, not measured",
		rep_figure_name(f));
}

static void cycles(const struct rep *r, struct rep_est *e, double n,
		   const char *what)
{
	if (r->cycle_ns > 0)
		rep_say(e, n * r->cycle_ns, "cycle model: %g cycles (%s) x %.3g ns",
		    n, what, r->cycle_ns);
	else
		rep_say(e, NAN, "no basis: the cycle time is unknown");
}

static void est_clock(const struct rep *r, enum figure f, struct rep_est *e)
{
	if (f == FIG_LOOP)
		cycles(r, e, 1, "fused increment, compare and branch");
	else if (f != FIG_CLOCK_GETTIME)
		cycles(r, e, 25, "RDTSC latency");
	else if (!rep_have(r, FIG_RDTSC) || r->cycle_ns <= 0)
		needs(e, FIG_RDTSC);
	else
		rep_say(e, rep_val(r, FIG_RDTSC) + 20 * r->cycle_ns, "builds on rdtsc "
		    "(%.3g ns) + 20 cycles of vDSO scaling", rep_val(r, FIG_RDTSC));
}

static void est_calls(const struct rep *r, enum figure f, struct rep_est *e)
{
	if (f >= FIG_CALL0 && f <= FIG_CALL7)
		cycles(r, e, f == FIG_CALL7 ? 6 : 5, f == FIG_CALL7 ?
		       "call, ret and add; the 7th argument on the stack" :
		       "call, ret and add, arguments in registers");
	else
		cycles(r, e, 250, "SYSCALL/SYSRET 100 + entry and exit "
		       "with mitigations 150");
}

static void est_tasks(const struct rep *r, enum figure f, struct rep_est *e)
{
	double sys = rep_val(r, FIG_SYSCALL);

	if (!rep_have(r, FIG_SYSCALL))
		return needs(e, FIG_SYSCALL);
	if (f == FIG_FORK && rep_have(r, FIG_FAULT_MINOR) &&
	    rep_have(r, FIG_CTXSW_PROCESS))
		rep_say(e, 30 * rep_val(r, FIG_FAULT_MINOR) +
		    (2 * rep_val(r, FIG_CTXSW_PROCESS) + 4 * sys) / 1e3,
		    "builds on 30 minor faults (copy-on-write pages), 2 "
		    "process switches and 4 system calls");
	else if (f == FIG_THREAD && rep_have(r, FIG_CTXSW_THREAD))
		rep_say(e, (2 * rep_val(r, FIG_CTXSW_THREAD) + 6 * sys) / 1e3,
		    "builds on 2 thread switches and 6 system calls (clone, "
		    "futex, stack)");
	else if ((f == FIG_CTXSW_THREAD || f == FIG_CTXSW_PROCESS) &&
		 r->cycle_ns > 0)
		rep_say(e, 2 * sys + 400 * r->cycle_ns, "builds on 2 system calls "
		    "(%.3g ns) + 400 cycles of scheduler and switch", sys);
	else
		rep_say(e, NAN, "no basis: builds on figures not measured");
}

static void est_memory(const struct rep *r, enum figure f, struct rep_est *e)
{
	static const double lat[] = { 5, 14, 50 };

	if (f >= FIG_MEM_L1 && f < FIG_MEM_L1 + 3)
		cycles(r, e, lat[f - FIG_MEM_L1], "load-to-use latency of "
		       "the level on recent x86 cores");
	else if (f == FIG_MEM_MAIN)
		rep_say(e, 80, "typical: DDR4 load-to-use ~80 ns (the memory's "
		    "timings are not visible)");
	else
		rep_say(e, NAN, "no basis");
}

/* Little's law: 10 line fills of 64 B in flight per core. */
static void est_bandwidth(const struct rep *r, enum figure f,
			  struct rep_est *e)
{
	double one;

	if (!rep_have(r, FIG_MEM_MAIN))
		return needs(e, FIG_MEM_MAIN);
	one = 640 / rep_val(r, FIG_MEM_MAIN) * 1e9 / MIB;
	if (f == FIG_BW_READ_ALL && r->cpus > 0)
		rep_say(e, one * r->cpus, "builds on the 1-thread estimate x %d "
		    "CPUs (the bus's limit is not visible)", r->cpus);
	else
		rep_say(e, one, "builds on memory latency %.3g ns: 10 line fills "
		    "of 64 B in flight per core (Little's law)%s",
		    rep_val(r, FIG_MEM_MAIN), f == FIG_BW_COPY_1 ?
		    "; copy counts read + write" : "");
}

static void est_faults(const struct rep *r, enum figure f, struct rep_est *e)
{
	if (f == FIG_FAULT_MAJOR) {
		if (r->rotational == 1)
			rep_say(e, 12170, "hardware: a rotational disk: 8 ms seek "
			    "+ half a turn at 7200 rpm (rpm not visible)");
		else if (r->rotational == 0)
			rep_say(e, 100, "typical: a 4 KiB read from flash or a "
			    "virtual disk ~100 us");
		else
			rep_say(e, NAN, "no basis: no disk is described");
	} else if (!rep_have(r, FIG_BW_WRITE_1) || !rep_have(r, FIG_SYSCALL)) {
		needs(e, rep_have(r, FIG_SYSCALL) ? FIG_BW_WRITE_1 : FIG_SYSCALL);
	} else {
		rep_say(e, 4096 / (rep_val(r, FIG_BW_WRITE_1) * MIB) * 1e6 +
		    2 * rep_val(r, FIG_SYSCALL) / 1e3, "builds on zeroing 4 KiB "
		    "at the write bandwidth + a kernel entry and exit");
	}
}

void rep_estimate(const struct rep *r, enum figure f, struct rep_est *e)
{
	rep_say(e, NAN, "no basis");
	if (f <= FIG_CLOCK_GETTIME)
		est_clock(r, f, e);
	else if (f <= FIG_SYSCALL)
		est_calls(r, f, e);
	else if (f <= FIG_CTXSW_THREAD)
		est_tasks(r, f, e);
	else if (f <= FIG_MEM_MAIN)
		est_memory(r, f, e);
	else if (f <= FIG_BW_LAST)
		est_bandwidth(r, f, e);
	else if (f <= FIG_FAULT_MAJOR)
		est_faults(r, f, e);
	else if (f <= FIG_DEV_BW_PEER)
		rep_estimate_net(r, f, e);
	else
		rep_estimate_file(r, f, e);
}
