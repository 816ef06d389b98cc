// SPDX-License-Identifier: GPL-2.0
/* The order of a benchmark's rows in each round (runorder.h). */
#include "check.h"
#include "runorder.h"

#include <string.h>

#define MAXN 16

static int is_permutation(const unsigned int *o, unsigned int n)
{
	unsigned char seen[MAXN] = { 0 };
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (o[i] >= n || seen[o[i]])
			return 0;
		seen[o[i]] = 1;
	}
	return 1;
}

static void test_permutations(void)
{
	unsigned int o[MAXN], again[MAXN], n, round, i;
	int bad = 0, moved = 0, unstable = 0;

	for (n = 1; n <= MAXN; n++) {
		run_order(o, n, 0);
		for (i = 0; i < n; i++)
			bad += o[i] != i;
		for (round = 1; round <= 50; round++) {
			run_order(o, n, round);
			bad += !is_permutation(o, n);
			run_order(again, n, round);
			unstable += memcmp(o, again, n * sizeof(*o)) != 0;
			for (i = 0; i < n; i++)
				moved += o[i] != i;
		}
	}
	CHECK(bad == 0, "run_order: round 0 in order, every round a permutation");
	CHECK(unstable == 0, "run_order: a round's order is the same in every run");
	CHECK(moved > 0, "run_order: the measured rounds are shuffled");
}

/*
 * What the order is for: over the 7 measured rounds of osbench transfer
 * --files (8 rows), no row always comes after the same one, and no row is
 * always first.
 */
static void test_predecessors(void)
{
	unsigned int o[8], round, k, r;
	unsigned int prev[8][9] = { { 0 } }, kinds, fixed = 0, first[8] = { 0 };

	for (round = 1; round <= 7; round++) {
		run_order(o, 8, round);
		first[o[0]]++;
		for (k = 0; k < 8; k++)
			prev[o[k]][k ? o[k - 1] : 8]++;
	}
	for (r = 0; r < 8; r++) {
		kinds = 0;
		for (k = 0; k < 9; k++)
			kinds += prev[r][k] != 0;
		fixed += kinds < 2;
	}
	CHECK(fixed == 0, "run_order: every row follows at least two others over 7 rounds");
	for (r = 0; r < 8; r++)
		fixed += first[r] == 7;
	CHECK(fixed == 0, "run_order: no row is first in every round");
}

int main(void)
{
	test_permutations();
	test_predecessors();
	return check_done();
}
