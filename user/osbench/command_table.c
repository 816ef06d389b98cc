// SPDX-License-Identifier: GPL-2.0
/*
 * The one table of osbench commands: "osbench --help" lists them in this
 * order, and "all" and "report" run the ones flagged CMD_ALL in it.
 */
#include "command_table.h"

#include <stddef.h>

const struct command *const osbench_commands[] = {
	&cmd_run,
	&cmd_run2,
	&cmd_fast,
	&cmd_sweep,
	&cmd_cache,
	&cmd_syscall_rate,
	&cmd_copy,
	&cmd_feed,
	&cmd_bench_io,
	&cmd_dropcache,
	&cmd_transfer,
	&cmd_machine,
	&cmd_overhead,
	&cmd_call,
	&cmd_syscall,
	&cmd_spawn,
	&cmd_ctxsw,
	&cmd_memlat,
	&cmd_membw,
	&cmd_pagefault,
	&cmd_fileaccess,
	&cmd_net,
	&cmd_micro_opt,
	&cmd_all,
	&cmd_report,
	NULL,
};
