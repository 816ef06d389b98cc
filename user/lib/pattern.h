/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reproducible data that "run -w" writes and "osbench feed" streams,
 * chosen so that the XOR check value (xor32.h) of any prefix is known
 * without reading it back.
 *
 * Contract: the stream is a sequence of 32-bit little-endian words; word
 * i (at byte offset 4 * i) is (i mod 2^32) ^ PATTERN_KEY.  A stream of
 * len bytes is the first len bytes of that sequence.
 */
#ifndef SYNCDEV_PATTERN_H
#define SYNCDEV_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* "SYNC" read as a big-endian word: shows up in a hex dump as CNYS. */
#define PATTERN_KEY 0x53594e43u

/* Fill buf with the len pattern bytes starting at stream offset offset. */
void pattern_fill(void *buf, size_t len, uint64_t offset);

/* The xor32() value of the first len bytes of the pattern. */
uint32_t pattern_xor(uint64_t len);

#endif
