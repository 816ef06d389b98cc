// SPDX-License-Identifier: GPL-2.0
#include "testpat.h"
#include "pattern.h"

/*
 * Word i of stream seed: libbench's pattern under a key made from the seed
 * (a different stream for each seed and each 2^32 words).
 */
static uint32_t word(uint64_t i, uint64_t seed)
{
	uint64_t s = (seed + (i >> 32)) * 0x9E3779B97F4A7C15ull;
	uint32_t key = pattern_keyed_word((uint32_t)s ^ (uint32_t)(s >> 32), 0);

	return pattern_keyed_word((uint32_t)i, key);
}

unsigned char testpat_byte(uint64_t pos, uint64_t seed)
{
	return (unsigned char)(word(pos >> 2, seed) >> (8 * (pos & 3)));
}

void testpat_fill(void *buf, size_t len, uint64_t pos, uint64_t seed)
{
	unsigned char *p = buf;
	size_t i = 0;
	uint32_t w;

	for (; i < len && ((pos + i) & 3); i++)
		p[i] = testpat_byte(pos + i, seed);
	for (; i + 4 <= len; i += 4) {
		w = word((pos + i) >> 2, seed);
		p[i] = (unsigned char)w;
		p[i + 1] = (unsigned char)(w >> 8);
		p[i + 2] = (unsigned char)(w >> 16);
		p[i + 3] = (unsigned char)(w >> 24);
	}
	for (; i < len; i++)
		p[i] = testpat_byte(pos + i, seed);
}

size_t testpat_first_bad(const void *buf, size_t len, uint64_t pos,
			 uint64_t seed)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != testpat_byte(pos + i, seed))
			break;
	return i;
}
