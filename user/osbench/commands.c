// SPDX-License-Identifier: GPL-2.0
#include "commands.h"
#include "io/io.h"
#include "micro/micro.h"
#include "transfer.h"

#include <stddef.h>

const struct command osbench_commands[] = {
	/* I/O experiments (docs/io.md) */
	{ "run", io_run_main, "read/write N blocks, print the XOR (course step 1)" },
	{ "run2", io_run2_main, "block count that reads in 5-15 s (course step 2)" },
	{ "fast", io_fast_main, "read a whole file as fast as possible, print the XOR" },
	{ "sweep", io_sweep_main, "read rate and syscalls/s for 1 B .. 128 MiB blocks" },
	{ "cache", io_cache_main, "the sweep from a warm and a dropped page cache" },
	{ "syscalls", io_syscalls_main, "calls/s of 1-byte read/write, lseek, open, getpid (cf. syscall)" },
	{ "feed", io_feed_main, "master side of sweep --device: stream the pattern" },
	{ "bench-io", io_bench_main, "fast vs dd, cat and memory bandwidth (make bench-io)" },
	{ "dropcache", io_dropcache_main, "drop files from the page cache" },
	/* master/slave against userspace TCP (docs/usage.md) */
	{ "transfer", transfer_main, "MB/s of master/slave vs tcpcopy (make bench-transfer)" },
	/* OS micro-benchmarks (docs/microbench.md) */
	{ "overhead", mb_overhead, "cost of a loop iteration and of reading the clock" },
	{ "call", mb_call, "procedure call overhead, 0-7 arguments" },
	{ "syscall", mb_syscall, "ns per getpid, open, fopen, create, malloc, fork (cf. syscalls)" },
	{ "spawn", mb_spawn, "process and thread creation" },
	{ "ctxsw", mb_ctxsw, "process and thread context switch" },
	{ "memlat", mb_memlat, "memory latency by working-set size, cache levels" },
	{ "membw", mb_membw, "memory bandwidth: read, write, copy" },
	{ "pagefault", mb_pagefault, "minor and major page fault service time" },
	{ "fileaccess", mb_fileaccess, "O_SYNC writes, sequential and random reads per directory" },
	{ "machine", mb_machine, "describe this machine (CPU, caches, RAM, disks, OS)" },
	{ "all", mb_all, "every micro-benchmark in one run" },
	{ "report", mb_report, "run everything, write a Markdown report" },
	{ NULL, NULL, NULL },
};
