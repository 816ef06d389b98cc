/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU placement for benchmarks.  A pinned benchmark does not migrate in the
 * middle of a sample (cold caches, a different core's frequency), and a
 * two-party benchmark can choose whether its parties share a CPU.  Pinning
 * can fail (a cpuset, a container, a single CPU); callers then go on
 * unpinned and put the reason in their report notes.
 */
#ifndef SYNCDEV_CPU_H
#define SYNCDEV_CPU_H

#include <stddef.h>

/* CPUs this process may run on (its affinity mask), at least 1. */
int cpu_count(void);

/* The n-th CPU (0-based) of the affinity mask, or -1 if there is none. */
int cpu_nth(int n);

/*
 * Pin the calling thread to CPU number cpu.  Returns 0, or -1 with errno
 * and a one-line reason in why (if why is not NULL).
 */
int cpu_pin(int cpu, char *why, size_t len);

/* Undo cpu_pin: allow every CPU of the mask saved at the first call. */
void cpu_unpin(void);

#endif
