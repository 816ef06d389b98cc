/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The XOR check value of the course's I/O programs (run, fast, sweep).
 *
 * Contract: the byte stream is cut into 32-bit little-endian words
 * starting at stream offset 0; a final partial word is padded with zero
 * bytes; the value is the XOR of all the words (0 for an empty stream).
 * Equivalently, byte b at stream offset o contributes b << (8 * (o % 4)).
 *
 * Because XOR is associative and a byte's place in its word depends only
 * on o % 4, any piece of the stream can be XORed on its own and the
 * pieces combined with ^, in any order: the pieces of fast's threads.
 *
 *	uint32_t x = 0;
 *	x ^= xor32(buf1, len1, 0);		   (bytes 0 .. len1-1)
 *	x ^= xor32(buf2, len2, len1);		   (the next len2 bytes)
 *	printf("XOR value: %08x\n", x);
 */
#ifndef SYNCDEV_XOR32_H
#define SYNCDEV_XOR32_H

#include <stddef.h>
#include <stdint.h>

/* The contribution of len bytes found at stream offset offset. */
uint32_t xor32(const void *buf, size_t len, uint64_t offset);

/* The loop in use: "avx2" where the CPU has it, else "sse2". */
const char *xor32_loop(void);

/*
 * Use the portable loop from now on, even where a faster one exists, so
 * that tests and A/B measurements reach it.  Call it before any other
 * thread uses xor32().
 */
void xor32_portable(void);

#endif
