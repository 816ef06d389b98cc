/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading ping's output: the round-trip time of each reply line, as both
 * busybox ("64 bytes from 10.0.0.1: seq=0 ttl=64 time=0.076 ms") and
 * iputils ("... icmp_seq=1 ttl=64 time=0.045 ms") print it.
 */
#ifndef SYNCDEV_PINGPARSE_H
#define SYNCDEV_PINGPARSE_H

/*
 * The time of a reply line in ms: 0 and *ms set, or -1 for any other
 * line (the header, the statistics, an error).
 */
int ping_reply_ms(const char *line, double *ms);

#endif
