// SPDX-License-Identifier: GPL-2.0
#include "auth.h"
#include "deadline.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* The keys loaded, wiped at exit (their buffers are often static). */
static struct auth_key *loaded[4];
static unsigned int nloaded;

void auth_wipe_key(struct auth_key *k)
{
	explicit_bzero(k->key, sizeof(k->key));
	k->len = 0;
}

static void wipe_loaded(void)
{
	unsigned int i;

	for (i = 0; i < nloaded; i++)
		auth_wipe_key(loaded[i]);
}

static void remember(struct auth_key *k)
{
	unsigned int i;

	for (i = 0; i < nloaded && loaded[i] != k; i++)
		;
	if (i < nloaded)
		return;
	if (!nloaded)
		atexit(wipe_loaded);
	if (nloaded < sizeof(loaded) / sizeof(loaded[0]))
		loaded[nloaded++] = k;
}

/* The key file's kind, owner and mode allow it: 0, or -1 after a message. */
static int key_file_ok(int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (st.st_mode & 077)) {
		msg("key file %s must be a regular file only its owner can read (chmod 600)",
		    path);
		return -1;
	}
	if (st.st_uid != geteuid()) {
		msg("key file %s belongs to uid %u, not to this user (uid %u): refused, as another user could change or read the key (chown it, or make your own)",
		    path, (unsigned int)st.st_uid, (unsigned int)geteuid());
		return -1;
	}
	return 0;
}

int auth_load_key(const char *path, struct auth_key *k)
{
	ssize_t n;
	int fd;

	remember(k);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		msg_errno("cannot open key file %s", path);
		return -1;
	}
	if (key_file_ok(fd, path)) {
		close(fd);
		return -1;
	}
	n = read_full(fd, k->key, sizeof(k->key));
	close(fd);
	if (n < AUTH_KEY_MIN || (size_t)n == sizeof(k->key)) {
		auth_wipe_key(k);
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
static int get(int fd, void *buf, size_t len, char *why,
	       const struct deadline *d)
{
	ssize_t n = deadline_read(fd, buf, len, d);

	if (n == (ssize_t)len)
		return 0;
	if (n < 0 && errno == ETIMEDOUT)
		snprintf(why, AUTH_WHY_LEN, AUTH_LATE "the handshake's %u ms",
			 d->ms);
	else if (n < 0)
		snprintf(why, AUTH_WHY_LEN, "reading its answer: %s",
			 strerror(errno));
	else
		snprintf(why, AUTH_WHY_LEN, "it closed the connection %s",
			 n ? "after part of its answer" : "before answering");
	return -1;
}

static int put(int fd, const void *buf, size_t len, char *why,
	       const struct deadline *d)
{
	if (deadline_write(fd, buf, len, d) == (ssize_t)len)
		return 0;
	snprintf(why, AUTH_WHY_LEN, "writing to it: %s", strerror(errno));
	return -1;
}

static int refuse(char *why, const char *reason)
{
	snprintf(why, AUTH_WHY_LEN, "%s", reason);
	return -1;
}

int auth_master_by(int fd, const struct auth_key *k, struct auth_session *s,
		   char *why, const struct deadline *d)
{
	unsigned char out[4 + AUTH_NONCE_LEN], in[4 + AUTH_NONCE_LEN + SHA256_LEN];
	unsigned char want[SHA256_LEN];
	int ok, ret;

	s->key = k;
	memcpy(out, AUTH_MASTER_MAGIC, 4);
	if (nonce(out + 4))
		return refuse(why, "no random bytes for a nonce");
	if (put(fd, out, sizeof(out), why, d) ||
	    get(fd, in, sizeof(in), why, d))
		return -1;
	if (memcmp(in, AUTH_SLAVE_MAGIC, 4))
		return refuse(why, "its answer is not a keyed slave's (a slave without --key, or not a slave)");
	memcpy(s->nm, out + 4, AUTH_NONCE_LEN);
	memcpy(s->ns, in + 4, AUTH_NONCE_LEN);
	proof(s, "slave", want);
	ok = mac_equal(want, in + 4 + AUTH_NONCE_LEN, SHA256_LEN);
	if (ok)
		proof(s, "master", want);
	ret = ok ? put(fd, want, sizeof(want), why, d) :
		   refuse(why, "it does not hold the key");
	explicit_bzero(want, sizeof(want));
	return ret;
}

int auth_master(int fd, const struct auth_key *k, struct auth_session *s,
		char *why)
{
	struct deadline d;

	deadline_start_keep(&d, fd, deadline_handshake_ms());
	return auth_master_by(fd, k, s, why, &d);
}

static int slave_proves(int fd, struct auth_session *s, char *why,
			const struct deadline *d)
{
	unsigned char in[4 + AUTH_NONCE_LEN], out[4 + AUTH_NONCE_LEN + SHA256_LEN];
	unsigned char mac[SHA256_LEN], want[SHA256_LEN];
	int ok;

	if (get(fd, in, sizeof(in), why, d))
		return -1;
	if (memcmp(in, AUTH_MASTER_MAGIC, 4))
		return refuse(why, "it did not start one (a master without --key, or not a master)");
	memcpy(out, AUTH_SLAVE_MAGIC, 4);
	if (nonce(out + 4))
		return refuse(why, "no random bytes for a nonce");
	memcpy(s->nm, in + 4, AUTH_NONCE_LEN);
	memcpy(s->ns, out + 4, AUTH_NONCE_LEN);
	proof(s, "slave", out + 4 + AUTH_NONCE_LEN);
	if (put(fd, out, sizeof(out), why, d) ||
	    get(fd, mac, sizeof(mac), why, d))
		return -1;
	proof(s, "master", want);
	ok = mac_equal(want, mac, sizeof(mac));
	/* Until the master sends it, its proof is a secret. */
	explicit_bzero(want, sizeof(want));
	return ok ? 0 : refuse(why, "it does not hold the key");
}

int auth_slave_by(int fd, const struct auth_key *k, struct auth_session *s,
		  const struct deadline *d)
{
	char why[AUTH_WHY_LEN];

	s->key = k;
	if (!slave_proves(fd, s, why, d))
		return 0;
	msg("key handshake with the master failed: %s", why);
	return -1;
}

int auth_slave(int fd, const struct auth_key *k, struct auth_session *s)
{
	struct deadline d;

	deadline_start_keep(&d, fd, deadline_handshake_ms());
	return auth_slave_by(fd, k, s, &d);
}
