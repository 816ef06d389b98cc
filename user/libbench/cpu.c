// SPDX-License-Identifier: GPL-2.0
#include "cpu.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

/* The mask the process started with, before any pinning narrowed it. */
static cpu_set_t *initial_mask(void)
{
	static cpu_set_t mask;
	static int have;

	if (!have) {
		if (sched_getaffinity(0, sizeof(mask), &mask)) {
			CPU_ZERO(&mask);
			CPU_SET(0, &mask);
		}
		have = 1;
	}
	return &mask;
}

int cpu_count(void)
{
	int n = CPU_COUNT(initial_mask());

	return n > 0 ? n : 1;
}

int cpu_nth(int n)
{
	cpu_set_t *mask = initial_mask();
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, mask) && n-- == 0)
			return cpu;
	return -1;
}

int cpu_pin(int cpu, char *why, size_t len)
{
	cpu_set_t set;

	initial_mask();
	if (cpu < 0 || cpu >= CPU_SETSIZE) {
		errno = EINVAL;
		if (why)
			snprintf(why, len, "no CPU %d to pin to", cpu);
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		if (why)
			snprintf(why, len, "sched_setaffinity(CPU %d): %s",
				 cpu, strerror(errno));
		return -1;
	}
	return 0;
}

void cpu_unpin(void)
{
	sched_setaffinity(0, sizeof(cpu_set_t), initial_mask());
}
