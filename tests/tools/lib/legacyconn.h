/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The course's connect, as its programs made it: the master ACCEPTs with
 * the legacy number once; the slave CONNECTs and, refused while the
 * master is between two files, tries again every 50 ms for 20 s.  libc
 * only (fuzz32 is built from this folder too).
 */
#ifndef LEGACYCONN_H
#define LEGACYCONN_H

/* 0, or -1 with errno set by the last ioctl. */
int legacy_connect(int dev, int master, const char *addr);

#endif
