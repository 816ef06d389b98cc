/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), libc only: what the
 * keyed transfers authenticate with (docs/protocol.md, "Keyed transfers").
 * Incremental: init, update as often as needed, final.
 */
#ifndef SYNCDEV_SHA256_H
#define SYNCDEV_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN	32
#define SHA256_BLOCK	64

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;			/* message length so far */
	unsigned char buf[SHA256_BLOCK];
	size_t fill;			/* bytes waiting in buf */
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
void sha256_final(struct sha256 *c, unsigned char out[SHA256_LEN]);
void sha256(const void *data, size_t len, unsigned char out[SHA256_LEN]);

struct hmac_sha256 {
	struct sha256 inner;
	struct sha256 outer;
};

void hmac_sha256_init(struct hmac_sha256 *c, const void *key, size_t keylen);
void hmac_sha256_update(struct hmac_sha256 *c, const void *data, size_t len);
void hmac_sha256_final(struct hmac_sha256 *c, unsigned char out[SHA256_LEN]);
/*
 * A context given up before its final (a transfer that failed): its
 * state is derived from the key, so it is wiped.  final wipes the
 * context itself, as sha256_final does.
 */
void hmac_sha256_wipe(struct hmac_sha256 *c);
void hmac_sha256(const void *key, size_t keylen, const void *data, size_t len,
		 unsigned char out[SHA256_LEN]);

/* Equal in time that does not depend on where they differ. */
int mac_equal(const unsigned char *a, const unsigned char *b, size_t len);

#endif
