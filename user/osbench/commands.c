// SPDX-License-Identifier: GPL-2.0
#include "commands.h"
#include "io.h"

#include <stddef.h>

const struct command osbench_commands[] = {
	{ "run", io_run_main, "read/write N blocks, print the XOR (course step 1)" },
	{ "run2", io_run2_main, "block count that reads in 5-15 s (course step 2)" },
	{ "fast", io_fast_main, "read a whole file as fast as possible, print the XOR" },
	{ NULL, NULL, NULL },
};
