/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test tools' one seccomp filter: some system calls fail with an
 * errno, every other one runs.  For the tests of the programs' fallbacks
 * (refuse, nosplice).  libc and the uapi headers only (fuzz32 is built
 * from this folder too).
 */
#ifndef DENYCALLS_H
#define DENYCALLS_H

#include <stddef.h>

/* How many calls one filter refuses at the most. */
#define DENYCALLS_MAX 16

/*
 * From now on, in this process and every program it executes, each of
 * the n system calls numbered nrs[] fails with err (1 to 4095) and every
 * other call of this architecture runs; a call of another ABI (i386 or
 * x32 on x86_64), whose numbers mean other calls, kills the process.
 * Sets no_new_privs, as an unprivileged filter must.  0, or -1 with
 * errno (EINVAL: n or err out of range).
 */
int deny_calls(const unsigned int *nrs, size_t n, int err);

#endif
