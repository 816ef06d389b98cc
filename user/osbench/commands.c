// SPDX-License-Identifier: GPL-2.0
#include "commands.h"
#include "micro.h"

#include <stddef.h>

const struct command osbench_commands[] = {
	{ "overhead", mb_overhead, "cost of a loop iteration and of reading the clock" },
	{ "call", mb_call, "procedure call overhead, 0-7 arguments" },
	{ "syscall", mb_syscall, "system call cost and call rates (getpid, open, fork, ...)" },
	{ "spawn", mb_spawn, "process and thread creation" },
	{ NULL, NULL, NULL },
};
