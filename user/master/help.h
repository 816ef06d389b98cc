/* SPDX-License-Identifier: GPL-2.0 */
/*
 * master --help.  Its defaults are printed from the constants the code
 * uses; tests/host/manclaims.sh holds the prose to docs/man/master.1.
 */
#ifndef SYNCDEV_MASTER_HELP_H
#define SYNCDEV_MASTER_HELP_H

#include <stdio.h>

void master_usage(FILE *f);

#endif
