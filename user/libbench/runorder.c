// SPDX-License-Identifier: GPL-2.0
#include "runorder.h"

#include <stdint.h>

/* splitmix64: a well-mixed sequence from any seed, small seeds included. */
static uint64_t next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void run_order(unsigned int *order, unsigned int n, unsigned int round)
{
	uint64_t state = round;
	unsigned int i, j, t;

	for (i = 0; i < n; i++)
		order[i] = i;
	if (!round)
		return;
	/* Fisher-Yates; the modulo's bias is nothing at these sizes. */
	for (i = n; i > 1; i--) {
		j = (unsigned int)(next(&state) % i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
}
