// SPDX-License-Identifier: GPL-2.0
#include "xor32.h"

#include <string.h>

/* The word loads below read memory in host order, which is the contract's
 * order only on little-endian machines (every target of this project).
 */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "xor32.c assumes a little-endian host"
#endif

/*
 * XOR of 32-bit words is also the fold of the XOR of 64-bit words, and a
 * 64-bit XOR over vectors lets the compiler use the widest registers it
 * has: a plain 32-bit loop is CPU-bound well below what memory delivers.  GCC's vector extension keeps the code portable; one
 * copy of the loop per target, picked at run time.  Each copy uses the
 * register width of its target and no wider: a vector with no register
 * of its size (64 bytes under AVX2, 32 under SSE2) is kept on the stack
 * and reloaded on every iteration, which halved the speed of fast.
 */
typedef uint64_t vec16 __attribute__((vector_size(16)));
typedef uint64_t vec32 __attribute__((vector_size(32)));

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * name(p, n): the XOR of the 64-bit little-endian words of n * 64 bytes
 * at p, with vectors of type vec.  Four accumulators keep four loads in
 * flight; a 64-byte block is 64 / sizeof(vec) loads, so the loop takes
 * as many blocks per iteration as four vectors hold.
 */
#define DEFINE_XOR_BLOCKS(name, vec, attr)				\
attr static uint64_t name(const unsigned char *p, size_t n)		\
{									\
	const size_t w = sizeof(vec);					\
	const unsigned char *end = p + n * 64;				\
	vec a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 }, t;		\
	uint64_t r = 0;							\
	size_t k;							\
									\
	for (; (size_t)(end - p) >= 4 * w; p += 4 * w) {		\
		memcpy(&t, p, w);					\
		a ^= t;							\
		memcpy(&t, p + w, w);					\
		b ^= t;							\
		memcpy(&t, p + 2 * w, w);				\
		c ^= t;							\
		memcpy(&t, p + 3 * w, w);				\
		d ^= t;							\
	}								\
	for (; p < end; p += w) {					\
		memcpy(&t, p, w);					\
		a ^= t;							\
	}								\
	a ^= b ^ c ^ d;							\
	for (k = 0; k < w / 8; k++)					\
		r ^= a[k];						\
	return r;							\
}

DEFINE_XOR_BLOCKS(xor_blocks_avx2, vec32, __attribute__((target("avx2"))))
DEFINE_XOR_BLOCKS(xor_blocks_generic, vec16, )

/*
 * The implementation for this CPU, chosen once before main() and so
 * before fast starts its threads: afterwards it is only read, never
 * written, and needs no lock.  Until then the generic one is correct.
 */
static uint64_t (*xor_blocks)(const unsigned char *p, size_t n) =
	xor_blocks_generic;

__attribute__((constructor))
static void xor_blocks_select(void)
{
	/* Constructors may run before libgcc's own CPU probe. */
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2"))
		xor_blocks = xor_blocks_avx2;
}

const char *xor32_loop(void)
{
	return xor_blocks == xor_blocks_avx2 ? "avx2" : "sse2";
}

void xor32_portable(void)
{
	xor_blocks = xor_blocks_generic;
}

static inline uint32_t rotl32(uint32_t x, unsigned int n)
{
	n &= 31;
	return n ? (x << n) | (x >> (32 - n)) : x;
}

uint32_t xor32(const void *buf, size_t len, uint64_t offset)
{
	const unsigned char *p = buf;
	uint64_t acc;
	uint32_t tail = 0;
	size_t i, nblk = len / 64;

	/*
	 * Work as if the piece started on a word boundary; byte i then
	 * lands in byte lane i % 4.  Its real lane is (i + offset) % 4, a
	 * rotation of the whole result by 8 * (offset % 4) bits.
	 */
	acc = nblk ? xor_blocks(p, nblk) : 0;
	for (i = nblk * 64; i + 8 <= len; i += 8)
		acc ^= load64(p + i);
	for (; i < len; i++)
		tail ^= (uint32_t)p[i] << (8 * (i % 4));
	acc ^= acc >> 32;
	return rotl32((uint32_t)acc ^ tail, 8 * (unsigned int)(offset % 4));
}
