// SPDX-License-Identifier: GPL-2.0
/* The write pattern: its bytes, and that pattern_xor() predicts them. */
#include "check.h"
#include "pattern.h"
#include "xor32.h"

#include <stdlib.h>
#include <string.h>

static void test_bytes(void)
{
	unsigned char b[12], piece[12];
	/* Words 0, 1, 2 are 0 ^ KEY, 1 ^ KEY, 2 ^ KEY, little-endian. */
	const unsigned char want[12] = {
		0x43, 0x4e, 0x59, 0x53, 0x42, 0x4e, 0x59, 0x53,
		0x41, 0x4e, 0x59, 0x53,
	};
	size_t off;
	int bad = 0;

	pattern_fill(b, sizeof(b), 0);
	CHECK(!memcmp(b, want, sizeof(b)), "pattern first three words");
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
	CHECK(pattern_xor(4) == PATTERN_KEY, "pattern_xor one word");
	CHECK(pattern_xor(5) == (PATTERN_KEY ^ 0x42),
	      "pattern_xor one word and a byte");
	free(b);
}

static void test_wraparound(void)
{
	/* 2^32 words XOR to 0; 4 more bytes are word 0 again. */
	CHECK(pattern_xor(16ull << 30) == 0, "pattern_xor 16 GiB is 0");
	CHECK(pattern_xor((16ull << 30) + 4) == PATTERN_KEY,
	      "pattern_xor word index wraps at 2^32");
}

int main(void)
{
	test_bytes();
	test_xor();
	test_wraparound();
	return check_done();
}
