// SPDX-License-Identifier: GPL-2.0
/*
 * Whether the micro-benchmarks of this program were compiled with
 * optimisation, as the compiler says it (__OPTIMIZE__) while it compiles
 * them: osbench builds them with CFLAGS, osbench-O0 with -O0 (Makefile),
 * and osbench micro-opt checks that each build is what it compares.
 */
#include "micro.h"

bool micro_optimised(void)
{
#ifdef __OPTIMIZE__
	return true;
#else
	return false;
#endif
}
