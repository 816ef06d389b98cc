/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call loops that "osbench syscall" (the micro-benchmark, ns per
 * call) and "osbench syscall-rate" (the I/O experiment, calls per second at
 * one byte) both time, so that the calls they have in common are the same
 * code.  Each is a measure_fn (measure.h): it makes n calls and returns 0,
 * or -1 after a message when one fails.
 */
#ifndef OSBENCH_CALLS_H
#define OSBENCH_CALLS_H

#include <stdint.h>

/*
 * syscall(SYS_getpid), never getpid(): no C library can answer from a
 * cache, so this is the cheapest real entry into the kernel and back.
 * arg is unused.
 */
int call_getpid(void *arg, uint64_t n);

/* open(path, O_RDONLY) and close; arg is the path of an existing file. */
int call_open_close(void *arg, uint64_t n);

/* fork, _exit(0) in the child, waitpid in the parent; arg is unused. */
int call_fork(void *arg, uint64_t n);

#endif
