// SPDX-License-Identifier: GPL-2.0
/*
 * The key handshake over a socketpair: the same key on both sides
 * succeeds, different keys fail on both, and a recorded answer of either
 * side does not pass a later handshake (fresh nonces).
 */
#include "auth.h"
#include "check.h"
#include "util.h"

#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct side {
	int fd;
	struct auth_key key;
	struct auth_session sess;
	int ret;
	char why[AUTH_WHY_LEN];
};

static void *run_slave(void *arg)
{
	struct side *s = arg;

	s->ret = auth_slave(s->fd, &s->key, &s->sess);
	shutdown(s->fd, SHUT_RDWR);
	return NULL;
}

static void set_key(struct auth_key *k, unsigned char byte)
{
	memset(k->key, byte, 32);
	k->len = 32;
}

/* One handshake; the results in *m and *s. */
static void handshake(struct side *m, struct side *s)
{
	int sv[2];
	pthread_t t;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die_errno("socketpair");
	m->fd = sv[0];
	s->fd = sv[1];
	pthread_create(&t, NULL, run_slave, s);
	m->ret = auth_master(m->fd, &m->key, &m->sess, m->why);
	shutdown(m->fd, SHUT_RDWR);
	pthread_join(t, NULL);
	close(sv[0]);
	close(sv[1]);
}

/* HMAC(key, "syncdev " role Nm Ns), as the protocol defines it. */
static void proof(const struct auth_key *k, const char *role,
		  const unsigned char *nm, const unsigned char *ns,
		  unsigned char *out)
{
	unsigned char msg[8 + 6 + 2 * AUTH_NONCE_LEN];
	size_t n = strlen(role);

	memcpy(msg, "syncdev ", 8);
	memcpy(msg + 8, role, n);
	memcpy(msg + 8 + n, nm, AUTH_NONCE_LEN);
	memcpy(msg + 8 + n + AUTH_NONCE_LEN, ns, AUTH_NONCE_LEN);
	hmac_sha256(k->key, k->len, msg, 8 + n + 2 * AUTH_NONCE_LEN, out);
}

struct master_run {
	int fd;
	const struct auth_key *key;
	struct auth_session sess;
	int ret;
	char why[AUTH_WHY_LEN];
};

static void *run_master(void *arg)
{
	struct master_run *m = arg;

	m->ret = auth_master(m->fd, m->key, &m->sess, m->why);
	shutdown(m->fd, SHUT_RDWR);
	return NULL;
}

/*
 * A legitimate exchange, recorded by a slave played by hand with the key:
 * the master's hello (its nonce at hello + 4), the slave's answer, and
 * the master's proof.  Returns the master's result.
 */
static int record(const struct auth_key *k, unsigned char *hello,
		  unsigned char *answer, unsigned char *mproof)
{
	struct master_run m = { .key = k };
	pthread_t t;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die_errno("socketpair");
	m.fd = sv[0];
	pthread_create(&t, NULL, run_master, &m);
	read_full(sv[1], hello, 4 + AUTH_NONCE_LEN);
	memcpy(answer, AUTH_SLAVE_MAGIC, 4);
	memset(answer + 4, 0x5a, AUTH_NONCE_LEN);
	proof(k, "slave", hello + 4, answer + 4, answer + 4 + AUTH_NONCE_LEN);
	write_full(sv[1], answer, 4 + AUTH_NONCE_LEN + SHA256_LEN);
	read_full(sv[1], mproof, SHA256_LEN);
	pthread_join(t, NULL);
	close(sv[0]);
	close(sv[1]);
	return m.ret;
}

/* The recorded slave answer replayed to a new master: does it pass? */
static int master_takes(const struct auth_key *k, const unsigned char *answer)
{
	struct master_run m = { .key = k };
	unsigned char hello[4 + AUTH_NONCE_LEN];
	pthread_t t;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die_errno("socketpair");
	m.fd = sv[0];
	pthread_create(&t, NULL, run_master, &m);
	read_full(sv[1], hello, sizeof(hello));
	write_full(sv[1], answer, 4 + AUTH_NONCE_LEN + SHA256_LEN);
	pthread_join(t, NULL);
	close(sv[0]);
	close(sv[1]);
	return m.ret == 0;
}

/* The recorded hello and master proof replayed to a new slave. */
static int slave_takes(const struct auth_key *k, const unsigned char *hello,
		       const unsigned char *mproof)
{
	unsigned char answer[4 + AUTH_NONCE_LEN + SHA256_LEN];
	struct side s = { .key = *k };
	pthread_t t;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die_errno("socketpair");
	s.fd = sv[1];
	pthread_create(&t, NULL, run_slave, &s);
	write_full(sv[0], hello, 4 + AUTH_NONCE_LEN);
	read_full(sv[0], answer, sizeof(answer));
	write_full(sv[0], mproof, SHA256_LEN);
	pthread_join(t, NULL);
	close(sv[0]);
	close(sv[1]);
	return s.ret == 0;
}

static void test_same_key(void)
{
	struct side m, s;

	set_key(&m.key, 7);
	set_key(&s.key, 7);
	unsigned char a[SHA256_LEN], b[SHA256_LEN];

	handshake(&m, &s);
	CHECK(m.ret == 0 && s.ret == 0, "same key: both sides pass");
	CHECK(!memcmp(m.sess.nm, s.sess.nm, AUTH_NONCE_LEN) &&
	      !memcmp(m.sess.ns, s.sess.ns, AUTH_NONCE_LEN) &&
	      memcmp(m.sess.nm, m.sess.ns, AUTH_NONCE_LEN),
	      "both sides hold the same two nonces, which differ");
	auth_answer_mac(&m.sess, "answer", 6, a);
	auth_answer_mac(&s.sess, "answer", 6, b);
	CHECK(!memcmp(a, b, sizeof(a)), "both sides compute the same answer MAC");
	auth_answer_mac(&s.sess, "answe?", 6, b);
	CHECK(memcmp(a, b, sizeof(a)), "another answer has another MAC");
}

static void test_wrong_key(void)
{
	struct side m, s;

	set_key(&m.key, 7);
	set_key(&s.key, 8);
	handshake(&m, &s);
	CHECK(m.ret == -1 && !strcmp(m.why, "it does not hold the key"),
	      "different keys: the master refuses (%s)", m.why);
	CHECK(s.ret == -1, "different keys: the slave fails too");
}

static void test_replay(void)
{
	unsigned char hello[4 + AUTH_NONCE_LEN], mproof[SHA256_LEN];
	unsigned char answer[4 + AUTH_NONCE_LEN + SHA256_LEN];
	struct auth_key k;

	set_key(&k, 9);
	CHECK(record(&k, hello, answer, mproof) == 0,
	      "a slave played by hand with the key passes (the proof as documented)");
	CHECK(!master_takes(&k, answer),
	      "the slave's recorded answer replayed to a new master: refused");
	CHECK(!slave_takes(&k, hello, mproof),
	      "the master's recorded hello and proof replayed to a new slave: refused");
}

int main(void)
{
	test_same_key();
	test_wrong_key();
	test_replay();
	return check_done();
}
