/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slave --help.  Its defaults are printed from the constants the code
 * uses; tests/host/manclaims.sh holds the prose, the durability order
 * above all, to docs/man/slave.1 and to outset.c.
 */
#ifndef SYNCDEV_SLAVE_HELP_H
#define SYNCDEV_SLAVE_HELP_H

#include <stdio.h>

void slave_usage(FILE *f);

#endif
