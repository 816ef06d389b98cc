/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clock readers for micro-benchmarks and the cost of using them.
 *
 * The time-stamp counter is the cheapest clock on x86, but three ways of
 * reading it differ in what they order: plain RDTSC may execute before
 * earlier instructions retire, "LFENCE; RDTSC" waits for them, RDTSCP waits
 * for earlier loads and also returns the CPU number.  Benchmarks time whole
 * samples with CLOCK_MONOTONIC (now_ns) and use the TSC only to convert
 * nanoseconds into cycles and to measure the readers themselves.
 * On other architectures the TSC readers fall back to CLOCK_MONOTONIC.
 */
#ifndef SYNCDEV_TIMING_H
#define SYNCDEV_TIMING_H

#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define TIMING_HAVE_TSC 1

static inline uint64_t tsc_read(void)
{
	return __rdtsc();
}

static inline uint64_t tsc_read_fenced(void)
{
	_mm_lfence();
	return __rdtsc();
}

static inline uint64_t tsc_read_p(void)
{
	unsigned int aux;

	return __rdtscp(&aux);
}
#else
#include "util.h"
#define TIMING_HAVE_TSC 0
static inline uint64_t tsc_read(void) { return now_ns(); }
static inline uint64_t tsc_read_fenced(void) { return now_ns(); }
static inline uint64_t tsc_read_p(void) { return now_ns(); }
#endif

/*
 * TSC ticks per nanosecond, calibrated once against CLOCK_MONOTONIC over
 * about 20 ms (1.0 without a TSC).  With an invariant TSC this is the
 * nominal frequency in GHz; the core may run faster (turbo) or slower.
 */
double tsc_ghz(void);

/*
 * Whether this CPU runs RDTSCP: QEMU's default TCG CPU does not, and
 * executing it there is SIGILL.  Tried once in a child process, because
 * cpuid does not tell (a hypervisor may clear the bit and still run the
 * instruction).  Always 1 without a TSC (the fallback reads the clock).
 */
int tsc_have_rdtscp(void);

/* Resolution of CLOCK_MONOTONIC as the kernel reports it, in ns. */
double clock_resolution_ns(void);

/* Keep the compiler from dropping a value it thinks nobody uses. */
static inline void keep(const void *p)
{
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

#endif
