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
 * Then the file stream follows as without a key, but each file's trailer
 * is followed by HMAC-SHA-256(key, "syncdev file" Nm Ns index size data)
 * (index 4 bytes and size 8 bytes, little-endian), and the slave's answer
 * by HMAC-SHA-256(key, "syncdev answer" Nm Ns answer).
 */
#ifndef SYNCDEV_AUTH_H
#define SYNCDEV_AUTH_H

#include "sha256.h"

#include <stddef.h>
#include <stdint.h>

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
 * Read the key from path: 16 to 4095 bytes, in a regular file of the
 * caller's (effective user) that no one else may read or write.  0, or -1
 * after a message.  k is wiped at exit (auth_wipe_key).
 */
int auth_load_key(const char *path, struct auth_key *k);
/* Wipe k's bytes (explicit_bzero: not removed by the compiler). */
void auth_wipe_key(struct auth_key *k);

#define AUTH_WHY_LEN	160
/* How why starts when the peer's answer did not come in time. */
#define AUTH_LATE	"no complete answer within "

/* A handshake that succeeded: what the MACs after it are keyed with. */
struct auth_session {
	const struct auth_key *key;
	unsigned char nm[AUTH_NONCE_LEN];
	unsigned char ns[AUTH_NONCE_LEN];
};

/* HMAC(key, "syncdev " what Nm Ns ...): the caller adds the rest. */
void auth_mac_init(struct hmac_sha256 *c, const struct auth_session *s,
		   const char *what);
/* The MAC of a file: auth_mac_init("file"), its index and size. */
void auth_file_mac_init(struct hmac_sha256 *c, const struct auth_session *s,
			uint32_t index, uint64_t size);
/* The MAC of the answer bytes a[0..len). */
void auth_answer_mac(const struct auth_session *s, const void *a, size_t len,
		     unsigned char *mac);

struct deadline;

/*
 * The handshake over fd (a connected device or socket), 0 when the peer
 * proved the key before the deadline d (deadline.h: the whole exchange,
 * not each read).  The master's side fills why (AUTH_WHY_LEN bytes) with
 * the reason it failed, for the caller to log; the slave's prints it.
 */
int auth_master_by(int fd, const struct auth_key *k, struct auth_session *s,
		   char *why, const struct deadline *d);
int auth_slave_by(int fd, const struct auth_key *k, struct auth_session *s,
		  const struct deadline *d);
/*
 * The same with a deadline of deadline_handshake_ms() from now on a
 * socket; on the device, under its own timeout per call
 * (deadline_start_keep), which they do not change.
 */
int auth_master(int fd, const struct auth_key *k, struct auth_session *s,
		char *why);
int auth_slave(int fd, const struct auth_key *k, struct auth_session *s);

#endif
