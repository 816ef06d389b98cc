// SPDX-License-Identifier: GPL-2.0
/*
 * badpeer: a malicious or broken peer over plain TCP, for the tests that
 * check that slave, master and tcpcopy fail cleanly against it.
 *
 *	badpeer master [options] CASE FILE...	listen, send FILEs to the
 *						first client (a slave on
 *						/dev/slave_device, or tcpcopy
 *						recv), damaged as CASE says,
 *						then print its answer
 *	badpeer slave [options] a.b.c.d[:port] CASE
 *						connect to a master (the
 *						device's port) or tcpcopy send,
 *						greet it (not tcpcopy), read
 *						the stream, answer as CASE says
 *
 * The stream is the master/slave framing (docs/protocol.md) or, with
 * --tcpcopy, tcpcopy's (size, data, CRC32C with --crc).
 */
#include "auth.h"
#include "crc32c.h"
#include "frame.h"
#include "infile.h"
#include "netaddr.h"
#include "tcp.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define DEFAULT_PORT	2325

/* What the master role does wrong (always to the last file). */
static const char *const master_cases[] = {
	"ok",		/* nothing: a correct stream */
	"badcrc",	/* the trailer's CRC32C is off by one bit */
	"badmagic",	/* the stream header's magic is wrong */
	"oldversion",	/* framing version 1 (one-way, no answer) */
	"count",	/* announces one file more than it sends */
	"huge",		/* announces 2^62 bytes, sends 1 MiB, closes */
	"huge64",	/* announces 2^64-1 bytes, sends 1 MiB, closes */
	"hugestop",	/* announces --size bytes, sends 16 MiB, stalls */
	"slowproof",	/* with --key: its key hello one byte per --drip
			 * MS, then its proof at once, then closes */
	"truncate",	/* half the data, then an orderly close */
	"trunchdr",	/* half a file header, then an orderly close */
	"stall",	/* half the data, then silence, connected */
	"reset",	/* half the data, then a reset */
	"deaf",		/* a correct stream, never reads the answer */
	"hold",		/* listens, never accepts: once its backlog is
			 * full, a connect hangs unanswered */
	NULL,
};

/* What the slave role does wrong. */
static const char *const slave_cases[] = {
	"ok",		/* reads everything, answers ok */
	"nack",		/* reads everything, answers "disk full" for file 1 */
	"wrongcount",	/* answers ok for one file fewer */
	"garbage",	/* answers 24 bytes of garbage */
	"truncanswer",	/* 10 bytes of a good answer, then closes */
	"hugereason",	/* an answer that claims a 65535-byte reason */
	"noanswer",	/* reads everything, closes without answering */
	"stall",	/* reads everything, never answers, connected */
	"stallread",	/* reads nothing at all, connected */
	"lateread",	/* reads nothing for --stall S or until SIGUSR1,
			 * then as ok */
	"reset",	/* reads a little, then a reset */
	"earlynack",	/* reads the first bytes, answers "count", then
			 * reads and drops the rest (as slave does) */
	"nackreset",	/* reads the first bytes, answers "count", closes
			 * with the rest unread (a reset) */
	"hangup",	/* connects and resets at once, before any byte */
	"silent",	/* connects and says nothing for --stall S */
	"badhello",	/* greets with a stream header instead of a hello */
	"slowgreet",	/* its hello one byte per --drip MS, then as ok */
	"slowproof",	/* with --key: its right key proof one byte per
			 * --drip MS; if the master accepts it, says so
			 * and closes */
	"crowd",	/* --count connections, silent, each opened again
			 * as soon as the master drops it, for --stall S */
	"crowdhello",	/* as crowd, each greeting and then silent */
	NULL,
};

struct opts {
	int tcpcopy;		/* tcpcopy's stream instead of the framing */
	int crc;		/* tcpcopy: a CRC32C after the data */
	uint16_t port;		/* master role: listen here */
	uint32_t stall_s;	/* how long "stall" stays silent */
	uint32_t wait_ms;	/* slave role: retry a refused connection */
	uint32_t drip_ms;	/* the slow cases: between two bytes */
	uint64_t size;		/* hugestop: the size announced */
	uint32_t count;		/* crowd: connections held at once */
	struct auth_key key;	/* --key */
	int keyed;
	const char *kind;	/* the case */
};

static void usage(FILE *f)
{
	int i;

	fprintf(f,
		"usage: badpeer master [options] CASE FILE...\n"
		"       badpeer slave [options] a.b.c.d[:port] CASE\n\n"
		"A broken peer for tests: as master it sends FILEs to the first\n"
		"client, damaged as CASE says, and prints the answer; as slave it\n"
		"reads a master's stream and answers as CASE says.\n\n"
		"  --tcpcopy      tcpcopy's stream (size, data, [CRC32C])\n"
		"  --crc          with --tcpcopy: the CRC32C after the data\n"
		"  --port P       master: listen on P (default %d)\n"
		"  --stall S      how long a stall lasts (default 3600 s)\n"
		"  --wait MS      slave: retry a refused connection (default 0)\n"
		"  --drip MS      the slow cases: a byte every MS (default 3000)\n"
		"  --size BYTES   hugestop: the size announced (default 1G)\n"
		"  --count N      crowd: connections held at once (default 3)\n"
		"  --key FILE     slowproof: the key to prove, slowly\n\n"
		"master cases:", DEFAULT_PORT);
	for (i = 0; master_cases[i]; i++)
		fprintf(f, " %s", master_cases[i]);
	fprintf(f, "\nslave cases: ");
	for (i = 0; slave_cases[i]; i++)
		fprintf(f, " %s", slave_cases[i]);
	fprintf(f, "\nExit status: 0 the case was played, 1 it could not be, 2 usage.\n");
}

static int is(const struct opts *o, const char *kind)
{
	return !strcmp(o->kind, kind);
}

/* Bytes to fd; errors are expected (the victim may be gone) and ignored. */
static void put(int fd, const void *p, size_t n)
{
	if (write_full(fd, p, n) < 0)
		msg_errno("note: sending %zu bytes", n);
}

/* A slave greets first (frame.h); what it said is noted, not judged. */
static void take_hello(int fd)
{
	unsigned char h[FRAME_HELLO_LEN];
	ssize_t n = read_full(fd, h, sizeof(h));

	if (n < 0)
		msg_errno("note: reading the hello");
	else if (frame_get_hello(h, (size_t)n))
		msg("note: no hello from the slave (%zd bytes)", n);
}

/* The victim sees silence on a live connection, then we go. */
static void __attribute__((noreturn)) stall(int fd, const struct opts *o)
{
	msg("stalling for %u s", o->stall_s);
	sleep(o->stall_s);
	close(fd);
	exit(EXIT_OK);
}

/* End the stream early in the way the case says. */
static void __attribute__((noreturn)) cut(int fd, const struct opts *o)
{
	if (is(o, "stall"))
		stall(fd, o);
	if (is(o, "reset"))
		tcp_reset(fd);
	else
		close(fd);
	msg("cut the stream (%s)", o->kind);
	exit(EXIT_OK);
}

/* The data of f, only its first half when the case cuts the stream. */
static uint32_t send_data(int fd, struct infile *f, const struct opts *o,
			  int last)
{
	static unsigned char buf[1 << 16];
	int cutting = last && (is(o, "truncate") || is(o, "stall") ||
			       is(o, "reset"));
	uint64_t end = cutting ? f->size / 2 : f->size, off = 0;
	uint32_t crc = 0;
	ssize_t n;

	while (off < end) {
		n = infile_copy(f, off, buf, end - off < sizeof(buf) ?
				(size_t)(end - off) : sizeof(buf), &crc);
		if (n < 0)
			exit(EXIT_FAIL);
		put(fd, buf, (size_t)n);
		off += (uint64_t)n;
	}
	if (cutting)
		cut(fd, o);
	return crc;
}

/* tcpcopy's stream: size, data, CRC32C with --crc. */
static void send_tcpcopy(int fd, struct infile *f, const struct opts *o)
{
	unsigned char w[8];
	uint32_t crc;

	put_le(w, is(o, "huge") ? 1ull << 62 : f->size, 8);
	put(fd, w, 8);
	if (is(o, "huge")) {
		static unsigned char mib[1 << 20];

		put(fd, mib, sizeof(mib));
		cut(fd, o);
	}
	crc = send_data(fd, f, o, 1);
	put_le(w, is(o, "badcrc") ? crc ^ 1 : crc, 4);
	if (o->crc)
		put(fd, w, 4);
}

/* The size the last file's header gives: its own, or the case's. */
static uint64_t announced(const struct infile *f, const struct opts *o)
{
	if (is(o, "huge"))
		return 1ull << 62;
	if (is(o, "huge64"))
		return UINT64_MAX;
	if (is(o, "hugestop"))
		return o->size;
	return f->size;
}

/* len bytes, one per o->drip_ms; errors ignored, as put()'s. */
static void drip(int fd, const unsigned char *p, size_t len,
		 const struct opts *o)
{
	size_t i;

	for (i = 0; i < len; i++) {
		usleep(o->drip_ms * 1000u);
		if (write(fd, p + i, 1) != 1) {
			msg_errno("note: dripping byte %zu", i + 1);
			return;
		}
	}
}

/*
 * slowproof: the key handshake (auth.h) of role "master" or "slave"
 * with o->key, this side's first message dripped.  0 when the peer got
 * as far as accepting it.
 */
static int slow_handshake(int fd, int master, const struct opts *o)
{
	unsigned char out[4 + AUTH_NONCE_LEN + SHA256_LEN];
	unsigned char in[4 + AUTH_NONCE_LEN + SHA256_LEN];
	struct auth_session s = { .key = &o->key };
	struct hmac_sha256 c;

	memset(s.nm, 0x4d, AUTH_NONCE_LEN);
	memset(s.ns, 0x53, AUTH_NONCE_LEN);
	if (master) {
		memcpy(out, AUTH_MASTER_MAGIC, 4);
		memcpy(out + 4, s.nm, AUTH_NONCE_LEN);
		drip(fd, out, 4 + AUTH_NONCE_LEN, o);
		if (read_full(fd, in, sizeof(in)) != (ssize_t)sizeof(in))
			return -1;
		memcpy(s.ns, in + 4, AUTH_NONCE_LEN);
		auth_mac_init(&c, &s, "master");
		hmac_sha256_final(&c, out);
		put(fd, out, SHA256_LEN);
		return 0;
	}
	if (read_full(fd, in, 4 + AUTH_NONCE_LEN) != 4 + AUTH_NONCE_LEN)
		return -1;
	memcpy(s.nm, in + 4, AUTH_NONCE_LEN);
	memcpy(out, AUTH_SLAVE_MAGIC, 4);
	memcpy(out + 4, s.ns, AUTH_NONCE_LEN);
	auth_mac_init(&c, &s, "slave");
	hmac_sha256_final(&c, out + 4 + AUTH_NONCE_LEN);
	drip(fd, out, sizeof(out), o);
	return read_full(fd, in, SHA256_LEN) == SHA256_LEN ? 0 : -1;
}

/* The stream header as the case has it. */
static void send_stream_hdr(int fd, unsigned int n, const struct opts *o)
{
	unsigned char h[FRAME_STREAM_HDR_LEN];

	frame_put_stream_hdr(h, n + is(o, "count"));
	if (is(o, "badmagic"))
		h[0] ^= 0x20;
	if (is(o, "oldversion"))
		put_le(h + 4, 1, 2);
	put(fd, h, sizeof(h));
}

static void send_framed(int fd, struct infile *f, unsigned int n,
			const struct opts *o)
{
	unsigned char h[FRAME_FILE_HDR_LEN];
	unsigned int i;
	uint32_t crc;
	int last;

	send_stream_hdr(fd, n, o);
	for (i = 0; i < n; i++) {
		last = i == n - 1;
		frame_put_file_hdr(h, i, last ? announced(&f[i], o) : f[i].size);
		if (last && is(o, "trunchdr")) {
			put(fd, h, sizeof(h) / 2);
			cut(fd, o);
		}
		put(fd, h, sizeof(h));
		if (last && announced(&f[i], o) != f[i].size) {
			static unsigned char mib[1 << 20];
			int k;

			/*
			 * hugestop: two device buffers' worth, which a
			 * slave in mmap mode receives whole (it waits for
			 * a full buffer while more is announced).
			 */
			for (k = is(o, "hugestop") ? 16 : 1; k > 0; k--)
				put(fd, mib, sizeof(mib));
			if (is(o, "hugestop"))
				stall(fd, o);
			cut(fd, o);
		}
		crc = send_data(fd, &f[i], o, last);
		frame_put_trailer(h, last && is(o, "badcrc") ? crc ^ 1 : crc);
		put(fd, h, FRAME_TRAILER_LEN);
	}
}

/* Read and print the victim's answer; 0 if one came. */
static int print_answer(int fd)
{
	unsigned char b[FRAME_RESULT_MAX_LEN];
	struct frame_result r;
	ssize_t got = read_full(fd, b, FRAME_RESULT_HDR_LEN);
	int err;

	if (got <= 0) {
		printf("answer: none (%s)\n", got ? strerror(errno) :
					      "end of stream");
		return 1;
	}
	err = frame_get_result_hdr(b, (size_t)got, &r);
	if (err || read_full(fd, b, r.reason_len) != (ssize_t)r.reason_len) {
		printf("answer: malformed (%s)\n",
		       err ? frame_strerror(err) : "short reason");
		return 1;
	}
	frame_get_reason(b, &r);
	printf("answer: status=%s index=%d files=%u errno=%u reason=%s\n",
	       frame_status_name(r.status),
	       r.index == FRAME_NO_FILE ? -1 : (int)r.index, r.files, r.err,
	       r.reason);
	return 0;
}

static int play_master(char **paths, unsigned int n, const struct opts *o)
{
	struct infile *f = xcalloc(n, sizeof(*f));
	unsigned int i;
	int fd;

	for (i = 0; i < n; i++)
		if (infile_open(&f[i], paths[i], 0))
			return EXIT_FAIL;
	if (is(o, "hold")) {
		fd = tcp_listen(o->port);
		if (fd < 0)
			return EXIT_FAIL;
		stall(fd, o);
	}
	fd = tcp_accept_one(o->port);
	if (fd < 0 || tcp_set_timeout(fd, 600))
		return EXIT_FAIL;
	if (!o->tcpcopy)
		take_hello(fd);
	if (is(o, "slowproof")) {
		printf("handshake: %s\n", slow_handshake(fd, 1, o) ?
		       "refused" : "the slave answered");
		close(fd);
		return EXIT_OK;
	}
	if (o->tcpcopy)
		send_tcpcopy(fd, f, o);
	else
		send_framed(fd, f, n, o);
	if (is(o, "deaf")) {
		/* Wait until the victim is done; never read its answer. */
		struct pollfd p = { .fd = fd, .events = POLLRDHUP };

		poll(&p, 1, 600 * 1000);
		close(fd);
		return EXIT_OK;
	}
	print_answer(fd);
	close(fd);
	return EXIT_OK;
}

/*
 * Read and drop n bytes, adding them to *crc unless crc is NULL; what
 * arrived before the stream ended.
 */
static uint64_t drain(int fd, uint64_t n, uint32_t *crc)
{
	static unsigned char buf[1 << 16];
	uint64_t got = 0;
	ssize_t r;

	while (got < n) {
		r = read(fd, buf, n - got < sizeof(buf) ? (size_t)(n - got) :
							  sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (crc)
			*crc = crc32c(*crc, buf, (size_t)r);
		got += (uint64_t)r;
	}
	return got;
}

/*
 * File i of the master's stream: header, data and trailer, the data
 * checked against the trailer's CRC32C.
 */
static void read_framed_file(int fd, uint32_t i)
{
	unsigned char h[FRAME_FILE_HDR_LEN], t[FRAME_TRAILER_LEN];
	uint32_t crc = 0, want;
	uint64_t size;

	if (read_full(fd, h, FRAME_FILE_HDR_LEN) != FRAME_FILE_HDR_LEN ||
	    frame_get_file_hdr(h, FRAME_FILE_HDR_LEN, i, &size) ||
	    drain(fd, size, &crc) != size ||
	    read_full(fd, t, FRAME_TRAILER_LEN) != FRAME_TRAILER_LEN ||
	    frame_get_trailer(t, FRAME_TRAILER_LEN, &want))
		die(EXIT_FAIL, "the master's stream ended in file %u", i + 1);
	if (crc != want)
		die(EXIT_FAIL, "file %u: the data's CRC32C is %08x, the trailer says %08x",
		    i + 1, crc, want);
}

/* The whole stream of the master (or tcpcopy send); the file count. */
static unsigned int read_stream(int fd, const struct opts *o)
{
	unsigned char h[FRAME_FILE_HDR_LEN];
	uint32_t n, i;
	uint64_t size;

	if (o->tcpcopy) {
		if (read_full(fd, h, 8) != 8)
			die(EXIT_FAIL, "no size from the sender");
		size = get_le(h, 8);
		if (drain(fd, size + (o->crc ? 4 : 0), NULL) != size + (o->crc ? 4 : 0))
			die(EXIT_FAIL, "the sender's stream ended early");
		return 1;
	}
	if (read_full(fd, h, FRAME_STREAM_HDR_LEN) != FRAME_STREAM_HDR_LEN ||
	    frame_get_stream_hdr(h, FRAME_STREAM_HDR_LEN, &n))
		die(EXIT_FAIL, "no stream header from the master");
	for (i = 0; i < n; i++)
		read_framed_file(fd, i);
	return n;
}

/* The answer the case calls for, to the n files received. */
static void answer(int fd, unsigned int n, const struct opts *o)
{
	static const char disk[] = "disk full (badpeer)";
	unsigned char b[FRAME_RESULT_MAX_LEN];
	struct frame_result r = { .status = FRAME_ST_OK,
				  .index = FRAME_NO_FILE, .files = n };
	size_t len;

	if (is(o, "nack") || is(o, "earlynack") || is(o, "nackreset")) {
		r.status = is(o, "nack") ? FRAME_ST_STORE : FRAME_ST_COUNT;
		r.index = is(o, "nack") ? 0 : FRAME_NO_FILE;
		r.files = 0;
		r.err = ENOSPC;
		r.reason_len = sizeof(disk) - 1;
		memcpy(r.reason, disk, sizeof(disk) - 1);
	}
	if (is(o, "wrongcount"))
		r.files = n - 1;
	len = frame_put_result(b, &r);
	if (is(o, "garbage"))
		memset(b, 'G', len = FRAME_RESULT_HDR_LEN);
	if (is(o, "truncanswer"))
		len = 10;
	if (is(o, "hugereason"))
		put_le(b + 10, 0xffff, 2);
	put(fd, b, len);
}

static void wake(int sig)
{
	(void)sig;
}

/*
 * lateread: silence for --stall S, cut short by SIGUSR1 (the test sends it
 * once it has seen the master blocked), so that the wait costs only what
 * the test needs on a fast or a slow machine.  The handler is in place
 * before the connection exists, so no SIGUSR1 can kill us.
 */
static void catch_usr1(void)
{
	struct sigaction sa = { .sa_handler = wake };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
}

/* The slave's hello (frame.h), or with "badhello" a stream header. */
static void greet(int fd, const struct opts *o)
{
	unsigned char h[FRAME_STREAM_HDR_LEN];
	size_t len = FRAME_HELLO_LEN;

	if (is(o, "badhello")) {
		frame_put_stream_hdr(h, 1);
		len = sizeof(h);
	} else {
		frame_put_hello(h);
	}
	if (is(o, "slowgreet"))
		drip(fd, h, len, o);
	else
		put(fd, h, len);
}

#define CROWD_MAX	64

/* One stranger of the crowd: connected, greeting if the case says so. */
static int crowd_join(struct in_addr addr, uint16_t port,
		      const struct opts *o)
{
	unsigned char h[FRAME_HELLO_LEN];
	int fd = tcp_connect(addr, port, o->wait_ms);

	if (fd >= 0 && is(o, "crowdhello")) {
		frame_put_hello(h);
		put(fd, h, sizeof(h));
	}
	return fd;
}

/*
 * crowd: --count strangers that never prove anything, each connected
 * again as soon as the master drops it (or a connect fails), for --stall
 * S; then the number of connections made.
 */
static int play_crowd(struct in_addr addr, uint16_t port,
		      const struct opts *o)
{
	struct pollfd p[CROWD_MAX];
	uint64_t end = now_ns() + (uint64_t)o->stall_s * 1000000000u;
	unsigned long made = 0;
	unsigned int i;
	char buf[256];

	for (i = 0; i < o->count; i++) {
		p[i].fd = crowd_join(addr, port, o);
		p[i].events = POLLIN;
		made++;
	}
	while (now_ns() < end) {
		poll(p, o->count, 100);
		for (i = 0; i < o->count; i++) {
			if (p[i].fd >= 0 && !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			/* Data (a keyed master's challenge) is read and ignored. */
			if (p[i].fd >= 0 && read(p[i].fd, buf, sizeof(buf)) > 0)
				continue;
			if (p[i].fd >= 0)
				close(p[i].fd);
			p[i].fd = crowd_join(addr, port, o);
			made++;
		}
	}
	printf("crowd: %lu connections\n", made);
	return EXIT_OK;
}

static int play_slave(struct in_addr addr, uint16_t port,
		      const struct opts *o)
{
	unsigned int n;
	int fd;

	if (is(o, "crowd") || is(o, "crowdhello"))
		return play_crowd(addr, port, o);
	if (is(o, "lateread"))
		catch_usr1();
	fd = tcp_connect(addr, port, o->wait_ms);
	if (fd < 0 || tcp_set_timeout(fd, 600))
		return EXIT_FAIL;
	if (is(o, "hangup")) {
		tcp_reset(fd);
		return EXIT_OK;
	}
	if (is(o, "silent"))
		stall(fd, o);
	if (!o->tcpcopy)
		greet(fd, o);
	if (is(o, "slowproof")) {
		printf("handshake: %s\n", slow_handshake(fd, 0, o) ?
		       "refused" : "the master accepted the proof");
		close(fd);
		return EXIT_OK;
	}
	if (is(o, "stallread") || is(o, "badhello"))
		stall(fd, o);
	if (is(o, "lateread")) {
		msg("not reading for %u s or until SIGUSR1", o->stall_s);
		sleep(o->stall_s);
	}
	if (is(o, "reset") || is(o, "earlynack") || is(o, "nackreset")) {
		drain(fd, 4096, NULL);
		if (is(o, "reset"))
			cut(fd, o);
		answer(fd, 0, o);
		if (is(o, "earlynack"))
			drain(fd, UINT64_MAX, NULL);
		close(fd);
		return EXIT_OK;
	}
	n = read_stream(fd, o);
	printf("received %u files\n", n);
	fflush(stdout);
	if (is(o, "stall"))
		stall(fd, o);
	if (!is(o, "noanswer"))
		answer(fd, n, o);
	close(fd);
	return EXIT_OK;
}

static int known(const char *const *cases, const char *kind)
{
	for (; *cases; cases++)
		if (!strcmp(*cases, kind))
			return 1;
	return 0;
}

/* Options into *o; the index of the first operand. */
static int parse_opts(int argc, char **argv, struct opts *o)
{
	enum { TCPCOPY = 256, CRC, PORT, STALL, WAIT, DRIP, SIZE, KEY, COUNT };
	static const struct option longopts[] = {
		{ "tcpcopy", no_argument, NULL, TCPCOPY },
		{ "crc", no_argument, NULL, CRC },
		{ "port", required_argument, NULL, PORT },
		{ "stall", required_argument, NULL, STALL },
		{ "wait", required_argument, NULL, WAIT },
		{ "drip", required_argument, NULL, DRIP },
		{ "size", required_argument, NULL, SIZE },
		{ "key", required_argument, NULL, KEY },
		{ "count", required_argument, NULL, COUNT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (c == TCPCOPY || c == CRC) {
			*(c == CRC ? &o->crc : &o->tcpcopy) = 1;
			continue;
		}
		if (c == 'h') {
			usage(stdout);
			exit(EXIT_OK);
		}
		if (c == KEY) {
			if (auth_load_key(optarg, &o->key))
				exit(EXIT_USAGE);
			o->keyed = 1;
			continue;
		}
		if (c == SIZE) {
			if (parse_size(optarg, &o->size))
				die(EXIT_USAGE, "bad --size '%s'", optarg);
			continue;
		}
		if (c == '?' || parse_uint(optarg, c == PORT, c == PORT ?
					   65535 : UINT32_MAX, &v))
			die(EXIT_USAGE, "bad option (see --help)");
		if (c == COUNT && (v < 1 || v > CROWD_MAX))
			die(EXIT_USAGE, "--count is 1..%d", CROWD_MAX);
		if (c == PORT)
			o->port = (uint16_t)v;
		else if (c == COUNT)
			o->count = (uint32_t)v;
		else if (c == DRIP)
			o->drip_ms = (uint32_t)v;
		else
			*(c == STALL ? &o->stall_s : &o->wait_ms) = (uint32_t)v;
	}
	return optind;
}

int main(int argc, char **argv)
{
	static struct opts o = { .port = DEFAULT_PORT, .stall_s = 3600,
				 .drip_ms = 3000, .size = 1ull << 30,
				 .count = 3 };
	struct in_addr addr;
	uint16_t port;
	int i, master;

	set_progname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2 || (strcmp(argv[1], "master") && strcmp(argv[1], "slave"))) {
		usage(stderr);
		return EXIT_USAGE;
	}
	master = !strcmp(argv[1], "master");
	i = parse_opts(argc - 1, argv + 1, &o) + 1;
	if (argc - i < 2 || (!master && argc - i != 2))
		die(EXIT_USAGE, "missing operands (see --help)");
	o.kind = argv[master ? i : i + 1];
	if (!known(master ? master_cases : slave_cases, o.kind))
		die(EXIT_USAGE, "unknown %s case '%s' (see --help)", argv[1],
		    o.kind);
	if (is(&o, "slowproof") && !o.keyed)
		die(EXIT_USAGE, "slowproof needs --key FILE");
	if (master)
		return play_master(argv + i + 1, (unsigned int)(argc - i - 1),
				   &o);
	if (parse_ipv4_port(argv[i], DEFAULT_PORT, &addr, &port))
		return EXIT_USAGE;
	return play_slave(addr, port, &o);
}
