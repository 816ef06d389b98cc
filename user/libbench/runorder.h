/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The order of a benchmark's variants in each round.  A run can leave the
 * machine in a state that the next one pays for or profits from (caches,
 * the page cache, an emulator's translated code; docs/results.md measures
 * one under TCG, "Many files").  Run in the same order every round, a row
 * would always follow the same one and keep that bias in its median.  In
 * a new order each round, every row follows others in turn, and the bias
 * spreads over all of them as noise.
 */
#ifndef SYNCDEV_RUNORDER_H
#define SYNCDEV_RUNORDER_H

/*
 * order[0..n-1]: a permutation of 0..n-1 for round.  Round 0 (the warm-up,
 * untimed) runs them in order; every later round in a shuffle fixed by
 * the round's number, so two runs of a benchmark use the same orders.
 */
void run_order(unsigned int *order, unsigned int n, unsigned int round);

#endif
