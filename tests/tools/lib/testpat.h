/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test tools' one data pattern: byte pos of stream seed, computed
 * from pos alone, so that any part of a stream can be made or checked
 * without the bytes before it (a sender at one offset, a receiver at
 * another, two guests apart).  Word i (bytes 4i..4i+3, little-endian) is
 * fmix32 (MurmurHash3's finaliser) of i mixed with the seed: it looks
 * random, so zeros, a repeated block or data shifted by any number of
 * bytes do not pass for it.  libc only (fuzz32 is built from it too).
 */
#ifndef TESTPAT_H
#define TESTPAT_H

#include <stddef.h>
#include <stdint.h>

/* Byte pos of stream seed. */
unsigned char testpat_byte(uint64_t pos, uint64_t seed);

/* buf[0..len) = bytes pos..pos+len-1 of stream seed. */
void testpat_fill(void *buf, size_t len, uint64_t pos, uint64_t seed);

/* The index of the first byte of buf that is not the stream's, or len. */
size_t testpat_first_bad(const void *buf, size_t len, uint64_t pos,
			 uint64_t seed);

#endif
