/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keyed transfers (--key FILE, docs/protocol.md "Keyed transfers"): before
 * any data, master and slave prove to each other that they hold the same
 * secret key, over fresh nonces from both ends, so that no recorded
 * exchange can be replayed:
 *
 *	master -> slave   "SDKM", Nm (32 random bytes)
 *	slave -> master   "SDKS", Ns (32 random bytes),
 *			  HMAC-SHA-256(key, "syncdev slave" Nm Ns)
 *	master -> slave   HMAC-SHA-256(key, "syncdev master" Nm Ns)
 *
 * Then the file stream follows as without a key.
 */
#ifndef SYNCDEV_AUTH_H
#define SYNCDEV_AUTH_H

#include "sha256.h"

#include <stddef.h>

#define AUTH_KEY_MIN	16	/* bytes */
#define AUTH_KEY_MAX	4096
#define AUTH_NONCE_LEN	32
#define AUTH_MASTER_MAGIC	"SDKM"
#define AUTH_SLAVE_MAGIC	"SDKS"

struct auth_key {
	unsigned char key[AUTH_KEY_MAX];
	size_t len;
};

/*
 * Read the key from path: 16 to 4096 bytes, in a regular file that no one
 * but its owner may read or write.  0, or -1 after a message.
 */
int auth_load_key(const char *path, struct auth_key *k);

#define AUTH_WHY_LEN	160

/*
 * The handshake over fd (a connected device or socket), 0 when the peer
 * proved the key.  The master's side fills why (AUTH_WHY_LEN bytes) with
 * the reason it failed, for the caller to log; the slave's prints it.
 */
int auth_master(int fd, const struct auth_key *k, char *why);
int auth_slave(int fd, const struct auth_key *k);

#endif
