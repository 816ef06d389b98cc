/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copies from and to file mappings that survive SIGBUS.  Touching a page
 * of a mapping beyond the end of its file (the file shrank while mapped)
 * or whose storage failed raises SIGBUS; around these copies it becomes
 * an error return, so that the program can say which file and exit
 * cleanly instead of dying with no message.
 */
#ifndef SYNCDEV_MAPGUARD_H
#define SYNCDEV_MAPGUARD_H

#include <stddef.h>
#include <stdint.h>

/*
 * Copy n bytes from src to dst, folding them into *crc unless crc is NULL
 * (crc32c_copy).  Returns 0, or -1 when a SIGBUS stopped the copy (part of
 * dst may have been written).  Installs a SIGBUS handler on first use;
 * a SIGBUS anywhere else still kills the program as before.
 */
int map_copy(void *dst, const void *src, size_t n, uint32_t *crc);

/*
 * Hand the n bytes at src to fn(ctx, src, n), reading them where they
 * are (no copy).  Returns 0, or -1 when a SIGBUS stopped fn.
 */
int map_read(const void *src, size_t n,
	     void (*fn)(void *ctx, const void *p, size_t n), void *ctx);

#endif
