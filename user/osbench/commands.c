// SPDX-License-Identifier: GPL-2.0
#include "commands.h"
#include "micro.h"

#include <stddef.h>

const struct command osbench_commands[] = {
	{ "overhead", mb_overhead, "cost of a loop iteration and of reading the clock" },
	{ "call", mb_call, "procedure call overhead, 0-7 arguments" },
	{ "syscall", mb_syscall, "system call cost and call rates (getpid, open, fork, ...)" },
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
