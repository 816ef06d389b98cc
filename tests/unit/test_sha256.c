// SPDX-License-Identifier: GPL-2.0
/*
 * SHA-256 against FIPS 180's examples, HMAC-SHA-256 against RFC 4231's
 * test cases 1 to 7, and incremental use against one call.
 */
#include "check.h"
#include "sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex(const unsigned char *p, size_t len, char *out)
{
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

/* The hash of @len bytes of @data, in hex, is @want. */
static int sha_is(const void *data, size_t len, const char *want)
{
	unsigned char d[SHA256_LEN];
	char h[2 * SHA256_LEN + 1];

	sha256(data, len, d);
	hex(d, sizeof(d), h);
	return !strcmp(h, want);
}

static void test_fips180(void)
{
	char *a = malloc(1000000);
	struct sha256 c;
	unsigned char d[SHA256_LEN];
	char h[2 * SHA256_LEN + 1];
	int i;

	CHECK(sha_is("abc", 3,
		     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
	      "SHA-256 \"abc\" (one block)");
	CHECK(sha_is("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		     56,
		     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
	      "SHA-256 of 448 bits (two blocks)");
	CHECK(sha_is("", 0,
		     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
	      "SHA-256 of nothing");
	memset(a, 'a', 1000000);
	CHECK(sha_is(a, 1000000,
		     "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
	      "SHA-256 of a million 'a'");
	/* The same million in pieces of 1 to 97 bytes. */
	sha256_init(&c);
	for (i = 0; i < 1000000;) {
		int n = 1 + i % 97;

		n = n > 1000000 - i ? 1000000 - i : n;
		sha256_update(&c, a + i, (size_t)n);
		i += n;
	}
	sha256_final(&c, d);
	hex(d, sizeof(d), h);
	CHECK(!strcmp(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
	      "SHA-256 of a million 'a' in pieces of 1 to 97 bytes");
	free(a);
}

struct rfc4231 {
	int n;			/* test case */
	unsigned char key_byte;	/* 0: the key is 0x01..0x19 */
	size_t key_len;
	const char *data;	/* NULL: data_len bytes of data_byte */
	unsigned char data_byte;
	size_t data_len;
	const char *mac;	/* hex; case 5 only the first 128 bits */
};

static const struct rfc4231 cases[] = {
	{ 1, 0x0b, 20, "Hi There", 0, 8,
	  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
	{ 2, 0, 0, "what do ya want for nothing?", 0, 28,
	  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
	{ 3, 0xaa, 20, NULL, 0xdd, 50,
	  "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe" },
	{ 4, 0, 25, NULL, 0xcd, 50,
	  "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b" },
	{ 5, 0x0c, 20, "Test With Truncation", 0, 20,
	  "a3b6167473100ee06e0c796c2955552b" },
	{ 6, 0xaa, 131,
	  "Test Using Larger Than Block-Size Key - Hash Key First", 0, 54,
	  "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54" },
	{ 7, 0xaa, 131,
	  "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.",
	  0, 152,
	  "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2" },
};

static void test_rfc4231(void)
{
	unsigned char key[131], data[152], mac[SHA256_LEN];
	char h[2 * SHA256_LEN + 1];
	const struct rfc4231 *t;
	size_t i, j;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t = &cases[i];
		for (j = 0; j < t->key_len; j++)
			key[j] = t->key_byte ? t->key_byte : (unsigned char)(j + 1);
		if (t->n == 2)
			memcpy(key, "Jefe", 4);
		if (t->data)
			memcpy(data, t->data, t->data_len);
		else
			memset(data, t->data_byte, t->data_len);
		hmac_sha256(key, t->n == 2 ? 4 : t->key_len, data, t->data_len,
			    mac);
		hex(mac, sizeof(mac), h);
		CHECK(!strncmp(h, t->mac, strlen(t->mac)),
		      "HMAC-SHA-256 RFC 4231 test case %d", t->n);
	}
}

static void test_mac_equal(void)
{
	unsigned char a[SHA256_LEN] = { 1, 2, 3 }, b[SHA256_LEN] = { 1, 2, 3 };

	CHECK(mac_equal(a, b, sizeof(a)), "mac_equal: equal");
	b[SHA256_LEN - 1] ^= 0x80;
	CHECK(!mac_equal(a, b, sizeof(a)), "mac_equal: last bit differs");
}

int main(void)
{
	test_fips180();
	test_rfc4231();
	test_mac_equal();
	return check_done();
}
