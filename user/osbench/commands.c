// SPDX-License-Identifier: GPL-2.0
#include "commands.h"

#include <stddef.h>

const struct command osbench_commands[] = {
	{ NULL, NULL, NULL },
};
