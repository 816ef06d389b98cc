/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcpcopy: the userspace baseline of "make bench-transfer".  One file over
 * one plain TCP connection with read()/write() and a large buffer, timed
 * like master and slave.  The two directions, one file each.
 *
 * With crc set, the stream carries the same integrity check as master and
 * slave, so that the cost of the check can be told apart from the cost of
 * the device: an 8-byte little-endian size, the data, and the CRC32C of
 * the data (4 bytes, little-endian), which recv verifies.
 */
#ifndef TCPCOPY_H
#define TCPCOPY_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#define TCPCOPY_DEFAULT_PORT	2326	/* next to syncdev's 2325 */

/* device: over syncdev's devices instead of a socket (--device). */
int tcpcopy_send(const char *path, uint16_t port, size_t bufsize, int crc,
		 int device);
int tcpcopy_recv(struct in_addr addr, uint16_t port, const char *path,
		 size_t bufsize, uint32_t wait_ms, int crc, int device);

/* --device: a connected descriptor, or -1 after a message. */
int tcpcopy_device_accept(void);
int tcpcopy_device_connect(struct in_addr addr, uint16_t port,
			   uint32_t wait_ms);

#endif
