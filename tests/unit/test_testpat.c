// SPDX-License-Identifier: GPL-2.0
/*
 * The test tools' one pattern (tests/tools/lib/testpat.h): any part of a
 * stream made on its own equals the same part of the whole, and nothing
 * else (another seed, a shift, one bad byte) passes for it.
 */
#include "check.h"
#include "testpat.h"

#include <string.h>

#define LEN 4096

static void test_parts(void)
{
	static unsigned char whole[LEN], part[LEN];
	size_t off, len, bad = 0;

	testpat_fill(whole, LEN, 0, 9);
	for (off = 0; off < 16; off++)
		for (len = 0; len < 64; len += 7) {
			testpat_fill(part, len, off + 100, 9);
			if (memcmp(part, whole + off + 100, len) ||
			    testpat_byte(off + 100, 9) != whole[off + 100])
				bad++;
		}
	CHECK(bad == 0, "testpat: a part made at any offset and length is the whole's");
	CHECK(testpat_first_bad(whole + 3, LEN - 3, 3, 9) == LEN - 3,
	      "testpat: the whole checks from an odd offset");
}

static void test_impostors(void)
{
	static unsigned char a[LEN], b[LEN];
	unsigned int zero = 0;
	size_t i;

	testpat_fill(a, LEN, 0, 1);
	testpat_fill(b, LEN, 0, 2);
	CHECK(testpat_first_bad(b, LEN, 0, 1) < 8, "testpat: another seed fails at once");
	CHECK(testpat_first_bad(a + 1, LEN - 1, 0, 1) < 8,
	      "testpat: the stream shifted by one byte fails at once");
	CHECK(testpat_first_bad(a, LEN, 4, 1) < 8,
	      "testpat: the stream at another word fails at once");
	a[2049] ^= 0x10;
	CHECK(testpat_first_bad(a, LEN, 0, 1) == 2049, "testpat: one flipped bit found where it is");
	for (i = 0; i < LEN; i++)
		zero += !b[i];
	CHECK(zero < LEN / 64, "testpat: not zeros (%u zero bytes in %d)", zero, LEN);
	testpat_fill(a, LEN, (1ull << 34) - 8, 1);
	testpat_fill(b, LEN, 0, 1);
	CHECK(memcmp(a + 8, b, 64) != 0, "testpat: no repeat after 2^32 words");
}

int main(void)
{
	test_parts();
	test_impostors();
	return check_done();
}
