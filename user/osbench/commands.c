// SPDX-License-Identifier: GPL-2.0
#include "commands.h"
#include "io.h"

#include <stddef.h>

const struct command osbench_commands[] = {
	{ "run", io_run_main, "read/write N blocks, print the XOR (course step 1)" },
	{ "run2", io_run2_main, "block count that reads in 5-15 s (course step 2)" },
	{ "fast", io_fast_main, "read a whole file as fast as possible, print the XOR" },
	{ "sweep", io_sweep_main, "read rate and syscalls/s for 1 B .. 128 MiB blocks" },
	{ "cache", io_cache_main, "the sweep from a warm and a dropped page cache" },
	{ "syscalls", io_syscalls_main, "read/write/lseek/open/getpid calls per second" },
	{ "feed", io_feed_main, "master side of sweep --device: stream the pattern" },
	{ "bench-io", io_bench_main, "fast vs dd, cat and memory bandwidth (make bench-io)" },
	{ "dropcache", io_dropcache_main, "drop files from the page cache" },
	{ NULL, NULL, NULL },
};
