// SPDX-License-Identifier: GPL-2.0
/* SHA-256 as FIPS 180-4 section 6.2 defines it; HMAC as RFC 2104. */
#include "sha256.h"

#include <string.h>

/* The first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes (FIPS 180-4 4.2.2).
 */
static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* The message schedule W0..W63 of one block. */
static void schedule(const unsigned char *block, uint32_t w[64])
{
	int t;

	for (t = 0; t < 16; t++)
		w[t] = get_be32(block + 4 * t);
	for (t = 16; t < 64; t++)
		w[t] = (ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^
			(w[t - 2] >> 10)) + w[t - 7] +
		       (ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^
			(w[t - 15] >> 3)) + w[t - 16];
}

static void compress(uint32_t h[8], const unsigned char *block)
{
	uint32_t w[64], v[8], t1, t2;
	int t, i;

	schedule(block, w);
	memcpy(v, h, sizeof(v));
	for (t = 0; t < 64; t++) {
		t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) +
		     ((v[4] & v[5]) ^ (~v[4] & v[6])) + k[t] + w[t];
		t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) +
		     ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h[i] += v[i];
	/* Of a key's block (HMAC's padded key), these are key material. */
	explicit_bzero(w, sizeof(w));
	explicit_bzero(v, sizeof(v));
}

void sha256_init(struct sha256 *c)
{
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(c->h, h0, sizeof(h0));
	c->bytes = 0;
	c->fill = 0;
}

void sha256_update(struct sha256 *c, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t take;

	c->bytes += len;
	while (len) {
		if (!c->fill && len >= SHA256_BLOCK) {
			compress(c->h, p);
			p += SHA256_BLOCK;
			len -= SHA256_BLOCK;
			continue;
		}
		take = SHA256_BLOCK - c->fill < len ? SHA256_BLOCK - c->fill :
						      len;
		memcpy(c->buf + c->fill, p, take);
		c->fill += take;
		p += take;
		len -= take;
		if (c->fill == SHA256_BLOCK) {
			compress(c->h, c->buf);
			c->fill = 0;
		}
	}
}

/* Padding: 0x80, zeros, the length in bits as 64 bits big-endian. */
void sha256_final(struct sha256 *c, unsigned char out[SHA256_LEN])
{
	uint64_t bits = c->bytes * 8;
	int i;

	c->buf[c->fill++] = 0x80;
	if (c->fill > SHA256_BLOCK - 8) {
		memset(c->buf + c->fill, 0, SHA256_BLOCK - c->fill);
		compress(c->h, c->buf);
		c->fill = 0;
	}
	memset(c->buf + c->fill, 0, SHA256_BLOCK - 8 - c->fill);
	put_be32(c->buf + 56, (uint32_t)(bits >> 32));
	put_be32(c->buf + 60, (uint32_t)bits);
	compress(c->h, c->buf);
	for (i = 0; i < 8; i++)
		put_be32(out + 4 * i, c->h[i]);
	explicit_bzero(c, sizeof(*c));
}

void sha256(const void *data, size_t len, unsigned char out[SHA256_LEN])
{
	struct sha256 c;

	sha256_init(&c);
	sha256_update(&c, data, len);
	sha256_final(&c, out);
}

/* K0 (the key, hashed if longer than a block) XOR ipad or opad. */
void hmac_sha256_init(struct hmac_sha256 *c, const void *key, size_t keylen)
{
	unsigned char k0[SHA256_BLOCK] = { 0 }, pad[SHA256_BLOCK];
	size_t i;

	if (keylen > SHA256_BLOCK)
		sha256(key, keylen, k0);
	else if (keylen)
		memcpy(k0, key, keylen);
	for (i = 0; i < SHA256_BLOCK; i++)
		pad[i] = k0[i] ^ 0x36;
	sha256_init(&c->inner);
	sha256_update(&c->inner, pad, sizeof(pad));
	for (i = 0; i < SHA256_BLOCK; i++)
		pad[i] = k0[i] ^ 0x5c;
	sha256_init(&c->outer);
	sha256_update(&c->outer, pad, sizeof(pad));
	explicit_bzero(k0, sizeof(k0));
	explicit_bzero(pad, sizeof(pad));
}

void hmac_sha256_update(struct hmac_sha256 *c, const void *data, size_t len)
{
	sha256_update(&c->inner, data, len);
}

void hmac_sha256_final(struct hmac_sha256 *c, unsigned char out[SHA256_LEN])
{
	unsigned char ih[SHA256_LEN];

	sha256_final(&c->inner, ih);
	sha256_update(&c->outer, ih, sizeof(ih));
	sha256_final(&c->outer, out);
	explicit_bzero(ih, sizeof(ih));
}

void hmac_sha256_wipe(struct hmac_sha256 *c)
{
	explicit_bzero(c, sizeof(*c));
}

void hmac_sha256(const void *key, size_t keylen, const void *data, size_t len,
		 unsigned char out[SHA256_LEN])
{
	struct hmac_sha256 c;

	hmac_sha256_init(&c, key, keylen);
	hmac_sha256_update(&c, data, len);
	hmac_sha256_final(&c, out);
}

int mac_equal(const unsigned char *a, const unsigned char *b, size_t len)
{
	unsigned char d = 0;
	size_t i;

	for (i = 0; i < len; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}
