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
 * 64-bit XOR over 64-byte vectors lets the compiler use the widest
 * registers it has: a plain 32-bit loop is CPU-bound at 2-3 GB/s, well
 * below what memory delivers.  GCC's vector extension keeps the code
 * portable (SSE2 on any x86-64); the AVX2 clone is picked at run time.
 */
typedef uint64_t vec64 __attribute__((vector_size(64)));

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * XOR of the 64-bit little-endian words of n * 64 bytes at p.  Always
 * inlined, so that each caller below compiles it for its own target: GCC
 * inlines a default-target body into a target("avx2") function and then
 * uses the ymm registers for the vector type.
 */
static inline __attribute__((always_inline))
uint64_t xor_blocks_body(const unsigned char *p, size_t n)
{
	vec64 a = { 0 }, b = { 0 }, v, w;
	uint64_t r = 0;
	size_t i, k;

	/* Two accumulators hide the latency of the loads. */
	for (i = 0; i + 1 < n; i += 2) {
		memcpy(&v, p + i * 64, 64);
		memcpy(&w, p + i * 64 + 64, 64);
		a ^= v;
		b ^= w;
	}
	if (i < n) {
		memcpy(&v, p + i * 64, 64);
		a ^= v;
	}
	a ^= b;
	for (k = 0; k < 8; k++)
		r ^= a[k];
	return r;
}

__attribute__((target("avx2")))
static uint64_t xor_blocks_avx2(const unsigned char *p, size_t n)
{
	return xor_blocks_body(p, n);
}

static uint64_t xor_blocks_generic(const unsigned char *p, size_t n)
{
	return xor_blocks_body(p, n);
}

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
