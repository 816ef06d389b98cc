// SPDX-License-Identifier: GPL-2.0
#include "crc32c.h"

#include <pthread.h>
#include <string.h>

#define CRC32C_POLY	0x82F63B78u	/* reflected 0x1EDC6F41 */

/*
 * Slice-by-8: table[k][b] is the CRC of byte b followed by k zero bytes,
 * so eight input bytes fold into the CRC with eight independent lookups
 * instead of a chain of eight dependent ones.
 */
static uint32_t table[8][256];
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int have_hw;

static void crc32c_init(void)
{
	uint32_t c;
	int b, k;

	for (b = 0; b < 256; b++) {
		c = (uint32_t)b;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (CRC32C_POLY & (0u - (c & 1)));
		table[0][b] = c;
	}
	for (b = 0; b < 256; b++)
		for (k = 1; k < 8; k++)
			table[k][b] = (table[k - 1][b] >> 8) ^
				      table[0][table[k - 1][b] & 0xff];
#if defined(__x86_64__)
	__builtin_cpu_init();
	have_hw = !!__builtin_cpu_supports("sse4.2");
#endif
}

static uint64_t load_le64(const unsigned char *p)
{
	uint64_t v;

	/* One unaligned load; the tables assume little-endian byte order. */
	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* Fold 8 bytes (v, little-endian) into the inverted crc. */
static inline uint32_t step8(uint32_t crc, uint64_t v)
{
	v ^= crc;
	return table[7][v & 0xff] ^ table[6][(v >> 8) & 0xff] ^
	       table[5][(v >> 16) & 0xff] ^ table[4][(v >> 24) & 0xff] ^
	       table[3][(v >> 32) & 0xff] ^ table[2][(v >> 40) & 0xff] ^
	       table[1][(v >> 48) & 0xff] ^ table[0][v >> 56];
}

uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	pthread_once(&init_once, crc32c_init);
	crc = ~crc;
	for (; len >= 8; len -= 8, p += 8)
		crc = step8(crc, load_le64(p));
	while (len--)
		crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

/* crc32c_sw() that also stores every word it loads at dst. */
uint32_t crc32c_copy_sw(uint32_t crc, void *dst, const void *src, size_t len)
{
	const unsigned char *p = src;
	unsigned char *d = dst;
	uint64_t v;

	pthread_once(&init_once, crc32c_init);
	crc = ~crc;
	for (; len >= 8; len -= 8, p += 8, d += 8) {
		memcpy(&v, p, sizeof(v));
		memcpy(d, &v, sizeof(v));
		crc = step8(crc, load_le64((const unsigned char *)&v));
	}
	for (; len--; d++) {
		*d = *p;
		crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
	}
	return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const unsigned char *p,
			     size_t len)
{
	uint64_t c = ~crc, v;

	for (; len >= 8; len -= 8, p += 8) {
		/* memcpy: an unaligned load without undefined behaviour. */
		memcpy(&v, p, sizeof(v));
		c = __builtin_ia32_crc32di(c, v);
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return ~(uint32_t)c;
}

/* The same loop, storing every word it loads at d. */
__attribute__((target("sse4.2")))
static uint32_t crc32c_copy_sse42(uint32_t crc, unsigned char *d,
				  const unsigned char *p, size_t len)
{
	uint64_t c = ~crc, v;

	for (; len >= 8; len -= 8, p += 8, d += 8) {
		memcpy(&v, p, sizeof(v));
		memcpy(d, &v, sizeof(v));
		c = __builtin_ia32_crc32di(c, v);
	}
	for (; len--; d++) {
		*d = *p;
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	}
	return ~(uint32_t)c;
}
#endif

int crc32c_hw_available(void)
{
	pthread_once(&init_once, crc32c_init);
	return have_hw;
}

uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
#if defined(__x86_64__)
	return crc32c_sse42(crc, buf, len);
#else
	return crc32c_sw(crc, buf, len);
#endif
}

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
	if (crc32c_hw_available())
		return crc32c_hw(crc, buf, len);
	return crc32c_sw(crc, buf, len);
}

/*
 * One pass: each word is loaded once, folded into the CRC and stored,
 * where memcpy and then crc32c() would load it twice.  The CRC's chain of
 * dependent steps is the bound either way; the store rides along.
 */
uint32_t crc32c_copy(uint32_t crc, void *dst, const void *src, size_t len)
{
#if defined(__x86_64__)
	if (crc32c_hw_available())
		return crc32c_copy_sse42(crc, dst, src, len);
#endif
	return crc32c_copy_sw(crc, dst, src, len);
}
