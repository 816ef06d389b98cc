// SPDX-License-Identifier: GPL-2.0
#include "auth.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

int auth_load_key(const char *path, struct auth_key *k)
{
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		msg_errno("cannot open key file %s", path);
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (st.st_mode & 077)) {
		msg("key file %s must be a regular file only its owner can read (chmod 600)",
		    path);
		close(fd);
		return -1;
	}
	n = read_full(fd, k->key, sizeof(k->key));
	close(fd);
	if (n < AUTH_KEY_MIN || (size_t)n == sizeof(k->key)) {
		msg("key file %s: %s (want %d to %d bytes; make one with: head -c 32 /dev/urandom >FILE)",
		    path, n < 0 ? strerror(errno) : "wrong size", AUTH_KEY_MIN,
		    AUTH_KEY_MAX - 1);
		return -1;
	}
	k->len = (size_t)n;
	return 0;
}

static int nonce(unsigned char *p)
{
	return getrandom(p, AUTH_NONCE_LEN, 0) == AUTH_NONCE_LEN ? 0 : -1;
}

void auth_mac_init(struct hmac_sha256 *c, const struct auth_session *s,
		   const char *what)
{
	hmac_sha256_init(c, s->key->key, s->key->len);
	hmac_sha256_update(c, "syncdev ", 8);
	hmac_sha256_update(c, what, strlen(what));
	hmac_sha256_update(c, s->nm, AUTH_NONCE_LEN);
	hmac_sha256_update(c, s->ns, AUTH_NONCE_LEN);
}

void auth_file_mac_init(struct hmac_sha256 *c, const struct auth_session *s,
			uint32_t index, uint64_t size)
{
	unsigned char le[12];

	put_le(le, index, 4);
	put_le(le + 4, size, 8);
	auth_mac_init(c, s, "file");
	hmac_sha256_update(c, le, sizeof(le));
}

void auth_answer_mac(const struct auth_session *s, const void *a, size_t len,
		     unsigned char *mac)
{
	struct hmac_sha256 c;

	auth_mac_init(&c, s, "answer");
	hmac_sha256_update(&c, a, len);
	hmac_sha256_final(&c, mac);
}

/* HMAC(key, "syncdev " role Nm Ns). */
static void proof(const struct auth_session *s, const char *role,
		  unsigned char *out)
{
	struct hmac_sha256 c;

	auth_mac_init(&c, s, role);
	hmac_sha256_final(&c, out);
}

/* Exactly len bytes from the peer; -1 with the reason in why. */
static int get(int fd, void *buf, size_t len, char *why)
{
	ssize_t n = read_full(fd, buf, len);

	if (n == (ssize_t)len)
		return 0;
	if (n < 0)
		snprintf(why, AUTH_WHY_LEN, "reading its answer: %s",
			 strerror(errno));
	else
		snprintf(why, AUTH_WHY_LEN, "it closed the connection %s",
			 n ? "after part of its answer" : "before answering");
	return -1;
}

static int put(int fd, const void *buf, size_t len, char *why)
{
	if (write_full(fd, buf, len) == (ssize_t)len)
		return 0;
	snprintf(why, AUTH_WHY_LEN, "writing to it: %s", strerror(errno));
	return -1;
}

static int refuse(char *why, const char *reason)
{
	snprintf(why, AUTH_WHY_LEN, "%s", reason);
	return -1;
}

int auth_master(int fd, const struct auth_key *k, struct auth_session *s,
		char *why)
{
	unsigned char out[4 + AUTH_NONCE_LEN], in[4 + AUTH_NONCE_LEN + SHA256_LEN];
	unsigned char want[SHA256_LEN];

	s->key = k;
	memcpy(out, AUTH_MASTER_MAGIC, 4);
	if (nonce(out + 4))
		return refuse(why, "no random bytes for a nonce");
	if (put(fd, out, sizeof(out), why) || get(fd, in, sizeof(in), why))
		return -1;
	if (memcmp(in, AUTH_SLAVE_MAGIC, 4))
		return refuse(why, "its answer is not a keyed slave's (a slave without --key, or not a slave)");
	memcpy(s->nm, out + 4, AUTH_NONCE_LEN);
	memcpy(s->ns, in + 4, AUTH_NONCE_LEN);
	proof(s, "slave", want);
	if (!mac_equal(want, in + 4 + AUTH_NONCE_LEN, SHA256_LEN))
		return refuse(why, "it does not hold the key");
	proof(s, "master", want);
	return put(fd, want, sizeof(want), why);
}

static int slave_proves(int fd, struct auth_session *s, char *why)
{
	unsigned char in[4 + AUTH_NONCE_LEN], out[4 + AUTH_NONCE_LEN + SHA256_LEN];
	unsigned char mac[SHA256_LEN], want[SHA256_LEN];

	if (get(fd, in, sizeof(in), why))
		return -1;
	if (memcmp(in, AUTH_MASTER_MAGIC, 4))
		return refuse(why, "it did not start one (a master without --key, or not a master)");
	memcpy(out, AUTH_SLAVE_MAGIC, 4);
	if (nonce(out + 4))
		return refuse(why, "no random bytes for a nonce");
	memcpy(s->nm, in + 4, AUTH_NONCE_LEN);
	memcpy(s->ns, out + 4, AUTH_NONCE_LEN);
	proof(s, "slave", out + 4 + AUTH_NONCE_LEN);
	if (put(fd, out, sizeof(out), why) ||
	    get(fd, mac, sizeof(mac), why))
		return -1;
	proof(s, "master", want);
	if (!mac_equal(want, mac, sizeof(mac)))
		return refuse(why, "it does not hold the key");
	return 0;
}

int auth_slave(int fd, const struct auth_key *k, struct auth_session *s)
{
	char why[AUTH_WHY_LEN];

	s->key = k;
	if (!slave_proves(fd, s, why))
		return 0;
	msg("key handshake with the master failed: %s", why);
	return -1;
}
