/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcpcopy: the userspace baseline of "make bench-transfer".  One file over
 * one plain TCP connection with read()/write() and a large buffer, timed
 * like master and slave.  The two directions, one file each.
 */
#ifndef TCPCOPY_H
#define TCPCOPY_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#define TCPCOPY_DEFAULT_PORT	2326	/* next to syncdev's 2325 */

int tcpcopy_send(const char *path, uint16_t port, size_t bufsize);
int tcpcopy_recv(struct in_addr addr, uint16_t port, const char *path,
		 size_t bufsize, uint32_t wait_ms);

#endif
