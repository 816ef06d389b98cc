/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CRC32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of
 * iSCSI, ext4 and btrfs, with the same conventions as zlib's crc32():
 * start with 0, feed the previous result back in to continue.
 *
 *	crc = crc32c(0, "1234", 4);
 *	crc = crc32c(crc, "56789", 5);		crc == 0xE3069283
 *
 * crc32c() uses the SSE4.2 crc32 instruction when the CPU has it and the
 * slice-by-8 tables otherwise; both give the same results.
 */
#ifndef SYNCDEV_CRC32C_H
#define SYNCDEV_CRC32C_H

#include <stddef.h>
#include <stdint.h>

uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

/*
 * memcpy(dst, src, len) and the CRC32C of the bytes in one pass: every
 * word is loaded once, folded into the CRC and stored (the buffers must
 * not overlap).  Returns the updated crc.
 */
uint32_t crc32c_copy(uint32_t crc, void *dst, const void *src, size_t len);

/* The two implementations, for tests and benchmarks. */
uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len);
uint32_t crc32c_copy_sw(uint32_t crc, void *dst, const void *src, size_t len);
/* Only valid when crc32c_hw_available() returns 1. */
uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len);
int crc32c_hw_available(void);

#endif
