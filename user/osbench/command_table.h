/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The descriptors of the osbench commands, each defined in the file named
 * after it (experiment.h), and listed once in command_table.c.
 */
#ifndef OSBENCH_COMMAND_TABLE_H
#define OSBENCH_COMMAND_TABLE_H

#include "experiment.h"

/* I/O experiments (io/, docs/io.md) */
extern const struct command cmd_run, cmd_run2, cmd_fast, cmd_sweep,
	cmd_cache, cmd_syscall_rate, cmd_copy, cmd_feed, cmd_bench_io,
	cmd_dropcache;
/* master/slave against userspace TCP (io/transfer.c, docs/results.md) */
extern const struct command cmd_transfer;
/* OS micro-benchmarks (micro/, docs/microbench.md) */
extern const struct command cmd_machine, cmd_overhead, cmd_call,
	cmd_syscall, cmd_spawn, cmd_ctxsw, cmd_memlat, cmd_membw,
	cmd_pagefault, cmd_fileaccess, cmd_net;
/* The micro-benchmarks at -O2 and -O0 (microopt/micro_opt.c) */
extern const struct command cmd_micro_opt;
/* Runners of the CMD_ALL experiments */
extern const struct command cmd_all, cmd_report;

#endif
