/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory's speed, which only the firmware's tables (SMBIOS type 17,
 * read by dmidecode as root) state.  What is written is always true:
 * the speed, or why it is not known on this machine (dmidecode is not
 * installed, we are not root, or the tables state none, as a virtual
 * machine's firmware often does).
 */
#ifndef SYNCDEV_MEMSPEED_H
#define SYNCDEV_MEMSPEED_H

#include <stddef.h>

/* The sentence into buf; returns the speed in MT/s, or 0 when unknown. */
unsigned memspeed_describe(char *buf, size_t len);

/* The speed in MT/s of one line of "dmidecode -t 17", or 0. */
unsigned memspeed_parse_line(const char *line);

#endif
