// SPDX-License-Identifier: GPL-2.0
/* CRC32C: known vectors, incremental use, and both implementations agree. */
#include "check.h"
#include "crc32c.h"

#include <stdint.h>
#include <string.h>

/* Known answers: the classic check value and RFC 3720 (iSCSI) B.4. */
static void test_vectors(void)
{
	unsigned char b[32];
	int i;

	CHECK(crc32c(0, "123456789", 9) == 0xE3069283u, "crc32c 123456789");
	CHECK(crc32c(0, "", 0) == 0, "crc32c empty");
	CHECK(crc32c(0x12345678u, "x", 0) == 0x12345678u,
	      "crc32c of nothing keeps the crc");
	memset(b, 0, sizeof(b));
	CHECK(crc32c(0, b, 32) == 0x8A9136AAu, "crc32c 32 zero bytes");
	memset(b, 0xff, sizeof(b));
	CHECK(crc32c(0, b, 32) == 0x62A8AB43u, "crc32c 32 0xff bytes");
	for (i = 0; i < 32; i++)
		b[i] = (unsigned char)i;
	CHECK(crc32c(0, b, 32) == 0x46DD794Eu, "crc32c 0..31");
	for (i = 0; i < 32; i++)
		b[i] = (unsigned char)(31 - i);
	CHECK(crc32c(0, b, 32) == 0x113FDB5Cu, "crc32c 31..0");
	CHECK(crc32c_sw(0, "123456789", 9) == 0xE3069283u,
	      "crc32c_sw 123456789");
	if (crc32c_hw_available())
		CHECK(crc32c_hw(0, "123456789", 9) == 0xE3069283u,
		      "crc32c_hw 123456789");
}

static uint64_t rng = 88172645463325252ull;

static unsigned char rand_byte(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned char)(rng >> 24);
}

static void test_incremental(void)
{
	static unsigned char data[4096];
	uint32_t whole, parts;
	size_t i, cut, bad = 0;

	for (i = 0; i < sizeof(data); i++)
		data[i] = rand_byte();
	whole = crc32c(0, data, sizeof(data));
	for (cut = 0; cut <= sizeof(data); cut += 7) {
		parts = crc32c(0, data, cut);
		parts = crc32c(parts, data + cut, sizeof(data) - cut);
		bad += parts != whole;
	}
	CHECK(bad == 0, "crc32c split anywhere == one shot");
	parts = 0;
	for (i = 0; i < sizeof(data); i++)
		parts = crc32c(parts, data + i, 1);
	CHECK(parts == whole, "crc32c byte by byte == one shot");
	parts = crc32c_sw(crc32c_sw(0, data, 1001), data + 1001,
			  sizeof(data) - 1001);
	CHECK(parts == whole, "crc32c_sw split == dispatching one shot");
}

/* Reference: one bit at a time, straight from the definition. */
static uint32_t crc32c_bitwise(const unsigned char *p, size_t len)
{
	uint32_t c = 0xffffffffu;
	int k;

	while (len--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
	}
	return ~c;
}

static void test_agree(void)
{
	static unsigned char buf[1000 + 16];
	size_t len, off, bad_sw = 0, bad_hw = 0;
	uint32_t ref;

	for (len = 0; len < sizeof(buf); len++)
		buf[len] = rand_byte();
	for (len = 0; len <= 1000; len++) {
		for (off = 0; off < 8; off++) {
			ref = crc32c_bitwise(buf + off, len);
			bad_sw += crc32c_sw(0, buf + off, len) != ref;
			if (crc32c_hw_available())
				bad_hw += crc32c_hw(0, buf + off, len) != ref;
		}
	}
	CHECK(bad_sw == 0,
	      "crc32c_sw == bitwise for lengths 0..1000 at offsets 0..7");
	if (crc32c_hw_available())
		CHECK(bad_hw == 0,
		      "crc32c_hw == bitwise for lengths 0..1000 at offsets 0..7");
	else
		printf("# no SSE4.2: hardware crc32c not tested\n");
}

/* Copy + CRC in one pass: the same bytes and the same CRC as apart. */
static void test_copy(void)
{
	static const size_t lens[] = { 0, 1, 7, 65535, 65536, 65537, 200003 };
	static unsigned char src[200003 + 8], dst[200003 + 8];
	size_t i, k, bad_bytes = 0, bad_crc = 0, bad_sw = 0;

	for (i = 0; i < sizeof(src); i++)
		src[i] = rand_byte();
	for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		size_t off = k % 8, len = lens[k];
		uint32_t crc;

		memset(dst, 0, sizeof(dst));
		crc = crc32c_copy(0x1234, dst + off, src + off, len);
		bad_bytes += memcmp(dst + off, src + off, len) != 0 ||
			     dst[off + len] != 0;
		bad_crc += crc != crc32c(0x1234, src + off, len);
		/* The table loop too, which hosts with SSE4.2 never pick. */
		memset(dst, 0, sizeof(dst));
		crc = crc32c_copy_sw(0x1234, dst + off, src + off, len);
		bad_sw += memcmp(dst + off, src + off, len) != 0 ||
			  dst[off + len] != 0 ||
			  crc != crc32c_sw(0x1234, src + off, len);
	}
	CHECK(bad_bytes == 0, "crc32c_copy copies exactly len bytes");
	CHECK(bad_crc == 0,
	      "crc32c_copy == crc32c across 64 KiB block boundaries");
	CHECK(bad_sw == 0,
	      "crc32c_copy_sw copies exactly len bytes, CRC == crc32c_sw");
}

int main(void)
{
	test_vectors();
	test_incremental();
	test_agree();
	test_copy();
	return check_done();
}
