/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reproducible data that "run -w" writes and "osbench feed" streams,
 * so that the XOR check value (xor32.h) of what is read back is known
 * without a reference file.
 *
 * Contract: the stream is a sequence of 32-bit little-endian words; word
 * i (at byte offset 4 * i) is fmix32((i mod 2^32) ^ PATTERN_KEY), where
 * fmix32 is MurmurHash3's finaliser:
 *
 *	h ^= h >> 16; h *= 0x85ebca6b; h ^= h >> 13; h *= 0xc2b2ae35;
 *	h ^= h >> 16;
 *
 * A stream of len bytes is the first len bytes of that sequence.  The
 * words look random, so zeros, repeated blocks or shifted data do not
 * pass for it (a counter's XOR is 0 for every multiple of 16 bytes).
 */
#ifndef SYNCDEV_PATTERN_H
#define SYNCDEV_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* "SYNC" read as a big-endian word. */
#define PATTERN_KEY 0x53594e43u

/*
 * Word i of the stream keyed by key: fmix32(i ^ key).  pattern_word(i) is
 * pattern_keyed_word(i, PATTERN_KEY); the test tools' streams
 * (tests/tools/lib/testpat.h) take other keys.
 */
uint32_t pattern_keyed_word(uint32_t i, uint32_t key);

/* Word i of the pattern. */
uint32_t pattern_word(uint64_t i);

/* Fill buf with the len pattern bytes starting at stream offset offset. */
void pattern_fill(void *buf, size_t len, uint64_t offset);

/*
 * The xor32() value of the first len bytes of the pattern.  It costs
 * about a nanosecond per word of len mod 16 GiB: fmix32 is a bijection,
 * so every whole period of 2^32 words XORs to 0.
 */
uint32_t pattern_xor(uint64_t len);

#endif
