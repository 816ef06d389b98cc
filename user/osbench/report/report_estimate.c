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

/* "no basis" because figure f was not measured. */
static void needs(struct rep_est *e, enum figure f)
{
	rep_say(e, NAN, "no basis: builds on %s, not measured",
		rep_figure_name(f));
}

/* hw cycles of hardware and sw of software (NAN: none) at the TSC's. */
static void cycles(const struct rep *r, struct rep_est *e, double hw,
		   double sw, const char *what)
{
	double c = r->cycle_ns;

	if (c > 0)
		rep_split(e, hw * c, sw * c, "cycle model: %g cycles (%s) x "
			  "%.3g ns", (isnan(hw) ? 0 : hw) + (isnan(sw) ? 0 : sw),
			  what, c);
	else
		rep_say(e, NAN, "no basis: the cycle time is unknown");
}

static void est_clock(const struct rep *r, enum figure f, struct rep_est *e)
{
	if (f == FIG_LOOP)
		cycles(r, e, 1, 0, "fused increment, compare and branch");
	else if (f != FIG_CLOCK_GETTIME)
		cycles(r, e, 25, 0, "RDTSC latency");
	else if (!rep_have(r, FIG_RDTSC) || r->cycle_ns <= 0)
		needs(e, FIG_RDTSC);
	else
		rep_split(e, rep_val(r, FIG_RDTSC), 20 * r->cycle_ns, "builds on rdtsc "
		    "(%.3g ns) + 20 cycles of vDSO scaling", rep_val(r, FIG_RDTSC));
}

static void est_calls(const struct rep *r, enum figure f, struct rep_est *e)
{
	if (f >= FIG_CALL0 && f <= FIG_CALL7)
		cycles(r, e, NAN, f == FIG_CALL7 ? 6 : 5, f == FIG_CALL7 ?
		       "call, ret and add; the 7th argument on the stack" :
		       "call, ret and add, arguments in registers");
	else
		cycles(r, e, 100, 150, "SYSCALL/SYSRET 100 + entry and exit "
		       "with mitigations 150");
}

static void est_tasks(const struct rep *r, enum figure f, struct rep_est *e)
{
	double sys = rep_val(r, FIG_SYSCALL);

	if (!rep_have(r, FIG_SYSCALL))
		return needs(e, FIG_SYSCALL);
	if (f == FIG_FORK && rep_have(r, FIG_FAULT_MINOR) &&
	    rep_have(r, FIG_CTXSW_PROCESS))
		rep_split(e, NAN, 30 * rep_val(r, FIG_FAULT_MINOR) +
		    (2 * rep_val(r, FIG_CTXSW_PROCESS) + 4 * sys) / 1e3,
		    "builds on 30 minor faults (copy-on-write pages), 2 "
		    "process switches and 4 system calls");
	else if (f == FIG_THREAD && rep_have(r, FIG_CTXSW_THREAD))
		rep_split(e, NAN, (2 * rep_val(r, FIG_CTXSW_THREAD) + 6 * sys) / 1e3,
		    "builds on 2 thread switches and 6 system calls (clone, "
		    "futex, stack)");
	else if ((f == FIG_CTXSW_THREAD || f == FIG_CTXSW_PROCESS) &&
		 r->cycle_ns > 0)
		rep_split(e, NAN, 2 * sys + 400 * r->cycle_ns, "builds on 2 system calls "
		    "(%.3g ns) + 400 cycles of scheduler and switch", sys);
	else
		rep_say(e, NAN, "no basis: builds on figures not measured");
}

static void est_memory(const struct rep *r, enum figure f, struct rep_est *e)
{
	static const double lat[] = { 5, 14, 50 };

	if (f >= FIG_MEM_L1 && f < FIG_MEM_L1 + 3)
		cycles(r, e, lat[f - FIG_MEM_L1], 0, "load-to-use latency of "
		       "the level on recent x86 cores");
	else if (f == FIG_MEM_MAIN)
		rep_split(e, 80, 0, "typical: DDR4 load-to-use ~80 ns (the memory's "
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
		rep_split(e, one * r->cpus, 0, "builds on the 1-thread estimate x %d "
		    "CPUs (the bus's limit is not visible)", r->cpus);
	else
		rep_split(e, one, 0, "builds on memory latency %.3g ns: 10 line fills "
		    "of 64 B in flight per core (Little's law)%s",
		    rep_val(r, FIG_MEM_MAIN), f == FIG_BW_COPY_1 ?
		    "; copy counts read + write" : "");
}

/*
 * A major fault: reading the page from the disk (a cold 4 KiB random read
 * of fileaccess, measured on this disk; else a rotational disk's seek)
 * + the kernel's work of a minor fault.
 */
static void est_major(const struct rep *r, struct rep_est *e)
{
	double sw = rep_have(r, FIG_FAULT_MINOR) ?
		    rep_val(r, FIG_FAULT_MINOR) : NAN;

	if (rep_have(r, FIG_FA_RAND_4K) && strcmp(r->local_fs, "tmpfs"))
		rep_split(e, 4096 / (rep_val(r, FIG_FA_RAND_4K) * MIB) * 1e6,
			  sw, "builds on a cold random 4 KiB read measured on "
			  "%s (fileaccess) + a minor fault's kernel work",
			  r->local_fs[0] ? r->local_fs : "the disk");
	else if (r->rotational == 1)
		rep_split(e, 12170, sw, "hardware: a rotational disk: 8 ms "
			  "seek + half a turn at 7200 rpm (rpm not visible) + "
			  "a minor fault's kernel work");
	else if (r->rotational == 0)
		rep_split(e, 100, sw, "typical: a 4 KiB read from flash "
			  "~100 us + a minor fault's kernel work");
	else
		rep_say(e, NAN, "no basis: the disk's kind is unknown (a "
			"virtual disk's rotational flag is a default) and no "
			"cold read of it was measured");
}

static void est_faults(const struct rep *r, enum figure f, struct rep_est *e)
{
	if (f == FIG_FAULT_MAJOR)
		est_major(r, e);
	else if (!rep_have(r, FIG_BW_WRITE_1) || !rep_have(r, FIG_SYSCALL))
		needs(e, rep_have(r, FIG_SYSCALL) ? FIG_BW_WRITE_1 : FIG_SYSCALL);
	else
		rep_split(e, 4096 / (rep_val(r, FIG_BW_WRITE_1) * MIB) * 1e6,
			  2 * rep_val(r, FIG_SYSCALL) / 1e3, "builds on zeroing "
			  "4 KiB at the write bandwidth + a kernel entry and "
			  "exit");
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
