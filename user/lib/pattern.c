// SPDX-License-Identifier: GPL-2.0
#include "pattern.h"

#include <string.h>

static inline uint32_t word_at(uint64_t i)
{
	return (uint32_t)i ^ PATTERN_KEY;
}

static inline unsigned char byte_at(uint64_t o)
{
	return (unsigned char)(word_at(o / 4) >> (8 * (o % 4)));
}

void pattern_fill(void *buf, size_t len, uint64_t offset)
{
	unsigned char *p = buf;
	size_t i = 0;

	/* Bytes up to the first word boundary, then whole words. */
	for (; i < len && (offset + i) % 4; i++)
		p[i] = byte_at(offset + i);
	for (; i + 4 <= len; i += 4) {
		uint32_t w = word_at((offset + i) / 4);
		unsigned char le[4] = {
			(unsigned char)w, (unsigned char)(w >> 8),
			(unsigned char)(w >> 16), (unsigned char)(w >> 24),
		};

		memcpy(p + i, le, 4);
	}
	for (; i < len; i++)
		p[i] = byte_at(offset + i);
}

/* 0 ^ 1 ^ ... ^ (n - 1) for 32-bit n: the sequence repeats every 4. */
static uint32_t xor_upto(uint32_t n)
{
	uint32_t last = n - 1;

	if (n == 0)
		return 0;
	switch (last % 4) {
	case 0:
		return last;
	case 1:
		return 1;
	case 2:
		return last + 1;
	default:
		return 0;
	}
}

uint32_t pattern_xor(uint64_t len)
{
	uint64_t words = len / 4;
	unsigned int rest = (unsigned int)(len % 4);
	/*
	 * A full cycle of 2^32 indices XORs to 0, so only words mod 2^32
	 * matters; the key survives an odd number of times.
	 */
	uint32_t x = xor_upto((uint32_t)words);

	if (words & 1)
		x ^= PATTERN_KEY;
	if (rest)
		x ^= word_at(words) & ((1u << (8 * rest)) - 1);
	return x;
}
