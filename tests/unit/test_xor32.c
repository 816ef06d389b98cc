// SPDX-License-Identifier: GPL-2.0
/* xor32() against an independent byte-at-a-time computation. */
#include "check.h"
#include "xor32.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The contract read literally: byte at offset o goes to lane o % 4. */
static uint32_t xor_bytewise(const unsigned char *p, size_t len,
			     uint64_t offset)
{
	uint32_t x = 0;
	size_t i;

	for (i = 0; i < len; i++)
		x ^= (uint32_t)p[i] << (8 * ((offset + i) % 4));
	return x;
}

static void fill_random(unsigned char *p, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (unsigned char)(seed >> 16);
	}
}

static void test_known_values(void)
{
	const unsigned char b[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07 };

	CHECK(xor32(b, 0, 0) == 0, "xor32 empty is 0");
	CHECK(xor32(b, 1, 0) == 0x00000001, "xor32 1 byte");
	CHECK(xor32(b, 3, 0) == 0x00030201, "xor32 3 bytes zero-padded");
	CHECK(xor32(b, 4, 0) == 0x04030201, "xor32 one little-endian word");
	CHECK(xor32(b, 7, 0) == (0x04030201 ^ 0x00070605),
	      "xor32 7 bytes: word ^ padded tail");
	CHECK(xor32(b, 1, 3) == 0x01000000, "xor32 byte at offset 3 is lane 3");
	CHECK(xor32(b, 2, 3) == 0x01000002, "xor32 piece wraps into lane 0");
}

static void test_lengths_and_offsets(void)
{
	static unsigned char buf[4096 + 8];
	size_t len;
	uint64_t off;
	int bad = 0;

	fill_random(buf, sizeof(buf), 7);
	/* Every tail length, every lane, and every pointer misalignment. */
	for (len = 0; len <= 4096; len += len < 300 ? 1 : 61)
		for (off = 0; off < 8; off++)
			if (xor32(buf + off, len, off) !=
			    xor_bytewise(buf + off, len, off))
				bad++;
	CHECK(bad == 0, "xor32 %s == bytewise for lengths 0..4096, "
	      "offsets 0..7 (%d mismatches)", xor32_loop(), bad);
}

static void test_pieces_combine(void)
{
	size_t len = (1 << 20) + 13, cut, i;
	unsigned char *buf = malloc(len);
	uint32_t whole, x;
	int bad = 0;

	fill_random(buf, len, 42);
	whole = xor_bytewise(buf, len, 0);
	CHECK(xor32(buf, len, 0) == whole, "xor32 %s 1 MiB + 13 random bytes",
	      xor32_loop());
	for (cut = 1; cut < 200; cut += 3) {
		x = 0;
		for (i = 0; i < len; i += cut)
			x ^= xor32(buf + i, i + cut <= len ? cut : len - i, i);
		bad += x != whole;
	}
	CHECK(bad == 0, "xor32 %s pieces of any size combine to the whole",
	      xor32_loop());
	free(buf);
}

int main(void)
{
	test_known_values();
	test_lengths_and_offsets();
	test_pieces_combine();
	/* Again with the portable loop, which the CPU's choice hid. */
	if (strcmp(xor32_loop(), "sse2")) {
		xor32_portable();
		CHECK(!strcmp(xor32_loop(), "sse2"), "xor32_portable selects sse2");
		test_lengths_and_offsets();
		test_pieces_combine();
	}
	return check_done();
}
