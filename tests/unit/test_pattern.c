// SPDX-License-Identifier: GPL-2.0
/* The write pattern: its bytes, and that pattern_xor() predicts them. */
#include "check.h"
#include "pattern.h"
#include "xor32.h"

#include <stdlib.h>
#include <string.h>

/* The contract of pattern.h, written out independently. */
static uint32_t fmix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static void test_bytes(void)
{
	unsigned char b[12], piece[12], want[12];
	size_t off, i;
	int bad = 0;

	for (i = 0; i < 12; i++)
		want[i] = (unsigned char)(fmix32((uint32_t)(i / 4) ^ 0x53594e43u)
					  >> (8 * (i % 4)));
	pattern_fill(b, sizeof(b), 0);
	CHECK(!memcmp(b, want, sizeof(b)),
	      "pattern first three words are fmix32(i ^ KEY), little-endian");
	CHECK(b[0] == 0x12 && b[1] == 0x1f && b[2] == 0xcd && b[3] == 0x77,
	      "pattern word 0 is 77cd1f12 (computed independently)");
	for (off = 0; off < 12; off++) {
		pattern_fill(piece, sizeof(b) - off, off);
		bad += memcmp(piece, want + off, sizeof(b) - off) != 0;
	}
	CHECK(bad == 0, "pattern_fill at any offset continues the stream");
}

static void test_xor(void)
{
	size_t max = 70000, len;
	unsigned char *b = malloc(max);
	int bad = 0;

	pattern_fill(b, max, 0);
	for (len = 0; len <= max; len += len < 64 ? 1 : 997)
		bad += pattern_xor(len) != xor32(b, len, 0);
	CHECK(bad == 0, "pattern_xor(len) == xor32 of the filled bytes");
	CHECK(pattern_xor(0) == 0, "pattern_xor empty");
	CHECK(pattern_xor(4) == pattern_word(0), "pattern_xor one word");
	CHECK(pattern_xor(5) == (pattern_word(0) ^ (pattern_word(1) & 0xff)),
	      "pattern_xor one word and a byte");
	CHECK(pattern_xor(1 << 20) != 0 && pattern_xor(64) != 0,
	      "pattern_xor of power-of-two sizes is not trivially 0");
	free(b);
}

static void test_wraparound(void)
{
	/* Word 2^32 is word 0 again; the whole period is not iterated. */
	CHECK(pattern_word(1ull << 32) == pattern_word(0),
	      "pattern word index wraps at 2^32");
	CHECK(pattern_xor((16ull << 30) + 8) == pattern_xor(8),
	      "pattern_xor of a 16 GiB period is 0");
}

int main(void)
{
	test_bytes();
	test_xor();
	test_wraparound();
	return check_done();
}
