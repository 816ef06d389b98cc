// SPDX-License-Identifier: GPL-2.0
/*
 * The key handshake over a socketpair: the same key on both sides
 * succeeds, different keys fail on both, and a recorded answer of either
 * side does not pass a later handshake (fresh nonces); its one deadline,
 * and the kernel's deadline call where the driver has none.
 */
#include "auth.h"
#include "check.h"
#include "deadline.h"
#include "device.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
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

/*
 * A master under a deadline of ms (deadline.h), started as where the
 * kernel may hold it (deadline_start_dev) with kernel.
 */
struct timed_master {
	int fd;
	const struct auth_key *key;
	uint32_t ms;
	int kernel;
	int ret;
	char why[AUTH_WHY_LEN];
};

static void *run_timed_master(void *arg)
{
	struct timed_master *m = arg;
	struct auth_session sess;
	struct deadline d;

	deadline_start_dev(&d, m->fd, m->ms, m->kernel);
	m->ret = auth_master_by(m->fd, m->key, &sess, m->why, &d);
	shutdown(m->fd, SHUT_RDWR);
	return NULL;
}

/*
 * A slave played by hand with the key, its right answer sent one byte
 * every 20 ms (68 bytes), to a master with a deadline of ms (kernel: as
 * if the module held one): the master's result, its reason in why.
 */
static int dribble_to_master(uint32_t ms, int kernel, char *why)
{
	struct auth_key k;
	struct timed_master m = { .key = &k, .ms = ms, .kernel = kernel };
	unsigned char hello[4 + AUTH_NONCE_LEN];
	unsigned char answer[4 + AUTH_NONCE_LEN + SHA256_LEN];
	pthread_t t;
	size_t i;
	int sv[2];

	set_key(&k, 3);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die_errno("socketpair");
	m.fd = sv[0];
	pthread_create(&t, NULL, run_timed_master, &m);
	read_full(sv[1], hello, sizeof(hello));
	memcpy(answer, AUTH_SLAVE_MAGIC, 4);
	memset(answer + 4, 0x33, AUTH_NONCE_LEN);
	proof(&k, "slave", hello + 4, answer + 4, answer + 4 + AUTH_NONCE_LEN);
	for (i = 0; i < sizeof(answer) && write(sv[1], answer + i, 1) == 1; i++)
		usleep(20000);
	pthread_join(t, NULL);
	close(sv[0]);
	close(sv[1]);
	memcpy(why, m.why, AUTH_WHY_LEN);
	return m.ret;
}

/*
 * One deadline for the whole handshake, not a limit per read: each byte
 * comes well within 300 ms of the one before, the whole answer does not.
 */
static void test_deadline(void)
{
	char why[AUTH_WHY_LEN] = "";

	/* The dribble goes on after the master gave up. */
	signal(SIGPIPE, SIG_IGN);
	CHECK(dribble_to_master(300, 0, why) == -1 &&
	      strstr(why, "no complete answer within the handshake's 300 ms"),
	      "a right key proof dribbled over 1.4 s: refused by a 300 ms deadline (%s)",
	      why);
	CHECK(dribble_to_master(60000, 0, why) == 0,
	      "the same proof under a 60 s deadline: accepted");
	/* Only the device leaves the deadline to the kernel. */
	why[0] = '\0';
	CHECK(dribble_to_master(300, 1, why) == -1 &&
	      strstr(why, "no complete answer within the handshake's 300 ms"),
	      "on a socket, with the kernel's deadline set: still refused at 300 ms (%s)",
	      why);
}

/*
 * A descriptor whose driver has no SYNCDEV_IOC_SET_HANDSHAKE (here a
 * socket: ENOTTY, as from an older syncdev): 0, and no message, so that
 * the programs keep their own deadline without a word.
 */
static void test_no_kernel_deadline(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die_errno("socketpair");
	msg_forget();
	CHECK(dev_set_handshake(sv[0], "sock", 1500) == 0 && !*msg_last(NULL),
	      "SET_HANDSHAKE refused with ENOTTY: 0, silently");
	errno = 0;
	CHECK(dev_confirm(sv[0]) == -1 && errno == ENOTTY,
	      "CONFIRM there: -1, ENOTTY");
	close(sv[0]);
	close(sv[1]);
}

/* A key file must be the caller's own: another user could change it. */
static void test_key_owner(void)
{
	char name[] = "/tmp/syncdev-key-XXXXXX";
	struct auth_key k;
	int fd = mkstemp(name);

	CHECK(fd >= 0 && write(fd, "0123456789abcdef0123", 20) == 20 &&
	      auth_load_key(name, &k) == 0 && k.len == 20,
	      "a 0600 key file of the caller's: loaded");
	auth_wipe_key(&k);
	CHECK(k.len == 0 && k.key[0] == 0 && k.key[19] == 0,
	      "auth_wipe_key: the key's bytes are zero");
	if (fd >= 0 && geteuid() == 0 && fchown(fd, 65534, 65534) == 0)
		CHECK(auth_load_key(name, &k) == -1 &&
		      strstr(msg_last(NULL), "belongs to uid 65534, not to this user (uid 0)"),
		      "a key file of uid 65534 read by root: refused");
	if (fd >= 0)
		close(fd);
	unlink(name);
}

int main(void)
{
	test_same_key();
	test_wrong_key();
	test_replay();
	test_deadline();
	test_no_kernel_deadline();
	test_key_owner();
	return check_done();
}
