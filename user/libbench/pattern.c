// SPDX-License-Identifier: GPL-2.0
#include "pattern.h"

#include <string.h>

uint32_t pattern_keyed_word(uint32_t i, uint32_t key)
{
	uint32_t h = i ^ key;

	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

uint32_t pattern_word(uint64_t i)
{
	return pattern_keyed_word((uint32_t)i, PATTERN_KEY);
}

static inline unsigned char byte_at(uint64_t o)
{
	return (unsigned char)(pattern_word(o / 4) >> (8 * (o % 4)));
}

void pattern_fill(void *buf, size_t len, uint64_t offset)
{
	unsigned char *p = buf;
	size_t i = 0;

	/* Bytes up to the first word boundary, then whole words. */
	for (; i < len && (offset + i) % 4; i++)
		p[i] = byte_at(offset + i);
	for (; i + 4 <= len; i += 4) {
		uint32_t w = pattern_word((offset + i) / 4);
		unsigned char le[4] = {
			(unsigned char)w, (unsigned char)(w >> 8),
			(unsigned char)(w >> 16), (unsigned char)(w >> 24),
		};

		memcpy(p + i, le, 4);
	}
	for (; i < len; i++)
		p[i] = byte_at(offset + i);
}

uint32_t pattern_xor(uint64_t len)
{
	uint64_t words = (len / 4) % (1ull << 32), i;
	unsigned int rest = (unsigned int)(len % 4);
	uint32_t x = 0;

	for (i = 0; i < words; i++)
		x ^= pattern_word(i);
	if (rest)
		x ^= pattern_word(words) & ((1u << (8 * rest)) - 1);
	return x;
}
