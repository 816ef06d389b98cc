// SPDX-License-Identifier: GPL-2.0
/*
 * The master and slave transfer loops over a socketpair (fcntl method),
 * without the device: round trips with buffer sizes that split every
 * header, every way a stream can be bad, checking that no output or
 * temporary file is left behind when it is, and the slave's answer: what
 * it says for each failure, and that the master exits 0 only on a
 * positive one.
 */
#include "check.h"
#include "tmpdir.h"
#include "ack.h"
#include "auth.h"
#include "crc32c.h"
#include "devio.h"
#include "frame.h"
#include "infile.h"
#include "outfile/outfile.h"
#include "util.h"
#include "xfer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Keyed runs: the sessions each side uses (NULL: no key). */
static const struct auth_session *master_auth, *slave_auth;

/*
 * A master in a child process on fd: send in[0..n-1] with a tx buffer of
 * txbuf bytes, then wait for the answer, exiting as the master does.  Its
 * messages go to the file master.err.
 */
static pid_t start_master(int fd, char **in, unsigned int n, size_t txbuf,
			  int map_in)
{
	struct ack_in early = { .len = 0 };
	struct infile files[8];
	struct devbuf b;
	unsigned int i;
	pid_t pid = fork();
	int ret;

	if (pid)
		return pid;
	ret = open(path("master.err"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(ret, 2);
	for (i = 0; i < n; i++)
		if (infile_open(&files[i], in[i], map_in))
			_exit(9);
	struct xfer_opts o = { .auth = master_auth };

	devbuf_open(&b, fd, METHOD_FCNTL, txbuf);
	ack_set_auth(master_auth);
	ret = xfer_send(&b, files, n, &o, &early);
	if (ret)
		_exit(ack_failed(fd, &early, n, in, "slave"));
	_exit(ack_wait(fd, &early, n, in, "slave"));
}

/* The slave's side, here: receive into out[0..n-1], then answer. */
static int run_slave(int fd, char **out, unsigned int n, size_t rxbuf,
		     struct xfer_report *r)
{
	struct xfer_opts o = { .auth = slave_auth };
	struct xfer_pages pg;
	struct devbuf b;
	int ret;

	devbuf_open(&b, fd, METHOD_FCNTL, rxbuf);
	ack_set_auth(slave_auth);
	ret = xfer_recv(&b, out, n, &o, r, &pg);
	ret = ack_answer(fd, ret, r->status, r->index, r->files, "master");
	ack_set_auth(NULL);
	devbuf_close(&b);
	return ret;
}

/*
 * Master with nin files in a child, slave with nout here; the slave's
 * exit code, the master's status in *master.
 */
static int transfer(char **in, unsigned int nin, char **out,
		    unsigned int nout, size_t txbuf, size_t rxbuf, int map_in,
		    struct xfer_report *r, int *master)
{
	int sv[2], ret;
	pid_t pid;

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pid = start_master(sv[1], in, nin, txbuf, map_in);
	close(sv[1]);
	ret = run_slave(sv[0], out, nout, rxbuf, r);
	close(sv[0]);
	waitpid(pid, master, 0);
	return ret;
}

/* Send in[] from a child with tx buffer txbuf; receive with rxbuf. */
static int round_trip(char **in, char **out, unsigned int n, size_t txbuf,
		      size_t rxbuf, int map_in, uint64_t *total,
		      int *child_status)
{
	struct xfer_report r;
	int ret = transfer(in, n, out, n, txbuf, rxbuf, map_in, &r,
			   child_status);

	*total = r.total;
	return ret;
}

static void test_round_trips(void)
{
	static const size_t sizes[] = { 0, 1, 4095, 4096, 4097, 1 << 20 };
	static const size_t bufs[][2] = {
		{ 1, 1 }, { 7, 5 }, { 4096, 16 }, { 1 << 20, 1 << 20 },
		{ 3, 1 << 16 },
	};
	char *in[6], *out[6];
	uint64_t total, want = 0;
	unsigned int i, k;
	int ret, st, same;
	char name[32];

	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "in%u", i);
		make_file(name, sizes[i], i + 1);
		in[i] = strdup(path(name));
		snprintf(name, sizeof(name), "out%u", i);
		out[i] = strdup(path(name));
		want += sizes[i];
	}
	for (k = 0; k < sizeof(bufs) / sizeof(bufs[0]); k++) {
		/* 1-byte buffers on a 1 MiB file are slow: leave it out. */
		unsigned int n = bufs[k][0] < 16 || bufs[k][1] < 16 ? 5 : 6;
		uint64_t w = n == 6 ? want : want - sizes[5];

		ret = round_trip(in, out, n, bufs[k][0], bufs[k][1], k & 1,
				 &total, &st);
		same = 1;
		for (i = 0; i < n; i++)
			same &= same_file(in[i], out[i]);
		CHECK(ret == EXIT_OK && WIFEXITED(st) && !WEXITSTATUS(st) &&
		      total == w && same && !count_entries(".syncdev-"),
		      "xfer %u files, tx buffer %zu, rx buffer %zu, %s input: identical",
		      n, bufs[k][0], bufs[k][1], k & 1 ? "mmap" : "read()");
		remove_outputs();
	}
	for (i = 0; i < 6; i++) {
		free(in[i]);
		free(out[i]);
	}
}

/*
 * Feed a hand-made stream to xfer_recv (the writer shuts its side down
 * after it) and read the slave's answer into *res.
 */
static int recv_raw_answer(const unsigned char *s, size_t len,
			   unsigned int n, struct frame_result *res)
{
	char *out[3] = { path("out0"), path("out1"), path("out2") };
	unsigned char a[FRAME_RESULT_MAX_LEN];
	struct xfer_report r;
	int sv[2], ret;
	ssize_t got;

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	write_full(sv[1], s, len);
	shutdown(sv[1], SHUT_WR);
	ret = run_slave(sv[0], out, n, 64, &r);
	close(sv[0]);
	/* Exactly the answer: a read past it may see the reset. */
	memset(res, 0xff, sizeof(*res));
	got = read_full(sv[1], a, FRAME_RESULT_HDR_LEN);
	if (got != FRAME_RESULT_HDR_LEN ||
	    frame_get_result_hdr(a, (size_t)got, res) ||
	    read_full(sv[1], a, res->reason_len) != (ssize_t)res->reason_len)
		res->status = 99;
	else
		frame_get_reason(a, res);
	close(sv[1]);
	return ret;
}

static int recv_raw(const unsigned char *s, size_t len, unsigned int n)
{
	struct frame_result res;

	return recv_raw_answer(s, len, n, &res);
}

/* The answer is status about file index with files in place. */
static int answer_is(const struct frame_result *r, unsigned int status,
		     uint32_t index, uint32_t files)
{
	return r->status == status && r->index == index && r->files == files;
}

/* Stream of two files "hello" and "world!"; returns its length. */
static size_t good_stream(unsigned char *s)
{
	unsigned char *p = s;

	frame_put_stream_hdr(p, 2);
	p += FRAME_STREAM_HDR_LEN;
	frame_put_file_hdr(p, 0, 5);
	memcpy(p + FRAME_FILE_HDR_LEN, "hello", 5);
	frame_put_trailer(p + FRAME_FILE_HDR_LEN + 5, crc32c(0, "hello", 5));
	p += FRAME_FILE_HDR_LEN + 5 + FRAME_TRAILER_LEN;
	frame_put_file_hdr(p, 1, 6);
	memcpy(p + FRAME_FILE_HDR_LEN, "world!", 6);
	frame_put_trailer(p + FRAME_FILE_HDR_LEN + 6, crc32c(0, "world!", 6));
	p += FRAME_FILE_HDR_LEN + 6 + FRAME_TRAILER_LEN;
	return (size_t)(p - s);
}

#define FILE1_DATA	(16 + 29 + 16)	/* offset of "world!" */

static void test_bad_streams(void)
{
	unsigned char s[128];
	size_t len = good_stream(s), cut, bad = 0;
	int ret;

	CHECK(recv_raw(s, len, 2) == EXIT_OK &&
	      file_is(path("out0"), "hello") &&
	      file_is(path("out1"), "world!") &&
	      count_entries("out") == 2 && !count_entries(".syncdev-"),
	      "xfer_recv hand-made stream");
	remove_outputs();

	CHECK(recv_raw(s, len, 3) == EXIT_FAIL && !count_entries("out"),
	      "xfer_recv file count mismatch fails, no output");

	s[FILE1_DATA + 2] ^= 0x20;
	ret = recv_raw(s, len, 2);
	CHECK(ret == EXIT_CORRUPT && file_is(path("out0"), "hello") &&
	      count_entries("out") == 1 && !count_entries(".syncdev-"),
	      "xfer_recv CRC mismatch in file 2: EXIT_CORRUPT, file 1 kept, no file 2, no temp");
	remove_outputs();
	s[FILE1_DATA + 2] ^= 0x20;

	s[0] = 'X';
	CHECK(recv_raw(s, len, 2) == EXIT_CORRUPT && !count_entries("out"),
	      "xfer_recv bad stream magic: EXIT_CORRUPT");
	s[0] = 'S';
	s[4] = 9;
	CHECK(recv_raw(s, len, 2) == EXIT_CORRUPT && !count_entries("out"),
	      "xfer_recv bad version: EXIT_CORRUPT");
	s[4] = FRAME_VERSION;
	s[FILE1_DATA - 12] = 5;		/* file 1's index */
	CHECK(recv_raw(s, len, 2) == EXIT_CORRUPT &&
	      count_entries("out") == 1,
	      "xfer_recv file header out of sequence: EXIT_CORRUPT");
	remove_outputs();
	s[FILE1_DATA - 12] = 1;
	s[FILE1_DATA + 6] = 'x';	/* file 1's trailer magic */
	CHECK(recv_raw(s, len, 2) == EXIT_CORRUPT &&
	      count_entries("out") == 1 && !count_entries(".syncdev-"),
	      "xfer_recv bad trailer magic: EXIT_CORRUPT, no temp");
	remove_outputs();
	s[FILE1_DATA + 6] = 'S';

	/* Every possible early end is a failure that leaves nothing. */
	for (cut = 0; cut < len; cut++) {
		ret = recv_raw(s, cut, 2);
		bad += ret != EXIT_FAIL || count_entries(".syncdev-") ||
		       count_entries("out") != (cut >= FILE1_DATA - 16);
		remove_outputs();
	}
	CHECK(bad == 0,
	      "xfer_recv stream cut at each of %zu bytes: EXIT_FAIL, only complete files",
	      len);
}

/*
 * A small file, then a size that a free-space check rounding up to whole
 * blocks without care would wrap to 0: refused at its header, the first
 * file kept, nothing of the second.
 */
static void test_huge_second(void)
{
	static const uint64_t sizes[] = { UINT64_MAX, UINT64_MAX - 4094,
					  (uint64_t)1 << 63 };
	struct frame_result res;
	unsigned char s[128];
	size_t i, bad = 0;

	good_stream(s);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		frame_put_file_hdr(s + FILE1_DATA - FRAME_FILE_HDR_LEN, 1,
				   sizes[i]);
		bad += recv_raw_answer(s, FILE1_DATA, 2, &res) != EXIT_FAIL ||
		       !answer_is(&res, FRAME_ST_STORE, 1, 1) ||
		       res.err != EFBIG || !file_is(path("out0"), "hello") ||
		       count_entries("out") != 1 || count_entries(".syncdev-");
		remove_outputs();
	}
	CHECK(bad == 0,
	      "xfer_recv 2^64-1, 2^64-4095 and 2^63 bytes after a small file: refused at the header (EFBIG), file 1 kept, no file 2");
}

/* What the slave answers for each outcome of a hand-made stream. */
static void test_answers(void)
{
	unsigned char s[128];
	size_t len = good_stream(s);
	struct frame_result r;

	CHECK(recv_raw_answer(s, len, 2, &r) == EXIT_OK &&
	      answer_is(&r, FRAME_ST_OK, FRAME_NO_FILE, 2) && !r.err &&
	      !r.reason_len, "answer: ok, 2 files in place");
	remove_outputs();
	CHECK(recv_raw_answer(s, len, 3, &r) == EXIT_FAIL &&
	      answer_is(&r, FRAME_ST_COUNT, FRAME_NO_FILE, 0) &&
	      !strcmp(r.reason, "the master sends 2 files, the slave expects 3"),
	      "answer: count mismatch, with the slave's message");
	s[FILE1_DATA] ^= 1;
	CHECK(recv_raw_answer(s, len, 2, &r) == EXIT_CORRUPT &&
	      answer_is(&r, FRAME_ST_CRC, 1, 1) &&
	      !strncmp(r.reason, "CRC mismatch in ", 16),
	      "answer: CRC mismatch in file 2, file 1 in place");
	s[FILE1_DATA] ^= 1;
	remove_outputs();
	s[FILE1_DATA - 16] = 'x';
	CHECK(recv_raw_answer(s, len, 2, &r) == EXIT_CORRUPT &&
	      answer_is(&r, FRAME_ST_FRAMING, 1, 1),
	      "answer: bad file header: framing, file 2");
	s[FILE1_DATA - 16] = 'S';
	remove_outputs();
	CHECK(recv_raw_answer(s, FILE1_DATA + 3, 2, &r) == EXIT_FAIL &&
	      answer_is(&r, FRAME_ST_RECV, 1, 1) &&
	      strstr(r.reason, "(after 3 of 6 bytes)"),
	      "answer: stream cut in file 2: receive failure after 3 bytes");
	remove_outputs();
}

/* in0..in2 (made by test_round_trips) into out0..: the master's exit. */
static int master_exit(unsigned int nin, unsigned int nout, size_t limit)
{
	char names[6][320], *in[3], *out[3];
	struct rlimit old, lim;
	struct xfer_report r;
	int i, st;

	/* path() keeps only four names at a time. */
	for (i = 0; i < 3; i++) {
		snprintf(names[i], sizeof(names[i]), "%s/in%d", dir, i + 1);
		snprintf(names[3 + i], sizeof(names[i]), "%s/out%d", dir, i);
		in[i] = names[i];
		out[i] = names[3 + i];
	}
	getrlimit(RLIMIT_FSIZE, &old);
	/* The soft limit only: a lowered hard limit could not be raised again. */
	lim = (struct rlimit){ limit, old.rlim_max };
	if (limit)
		setrlimit(RLIMIT_FSIZE, &lim);
	transfer(in, nin, out, nout, 4096, 4096, 0, &r, &st);
	setrlimit(RLIMIT_FSIZE, &old);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_master_exit(void)
{
	signal(SIGXFSZ, SIG_IGN);
	CHECK(master_exit(3, 2, 0) == EXIT_FAIL &&
	      strstr(slurp(path("master.err")),
		     "the slave failed: the master sends 3 files, the slave expects 2"),
	      "master sends 3, slave expects 2: master exits 1 with the slave's reason");
	remove_outputs();
	CHECK(master_exit(2, 3, 0) == EXIT_FAIL &&
	      strstr(slurp(path("master.err")),
		     "the master sends 2 files, the slave expects 3"),
	      "master sends 2, slave expects 3: master exits 1 with the slave's reason");
	remove_outputs();
	/* in1 is 1 byte, in2 4095: a 2000-byte limit fails file 2. */
	CHECK(master_exit(3, 3, 2000) == EXIT_FAIL &&
	      strstr(slurp(path("master.err")),
		     "the slave failed with file 2 of 3") &&
	      strstr(slurp(path("master.err")), "File too large") &&
	      count_entries("out") == 1 && !count_entries(".syncdev-"),
	      "slave cannot store file 2: master exits 1 naming it and the errno text");
	remove_outputs();
	signal(SIGXFSZ, SIG_DFL);
}

/* ack_early and ack_wait on answers written by hand. */
static void test_ack_io(void)
{
	struct frame_result r = { .status = FRAME_ST_STORE, .index = 1,
				  .files = 1, .err = 28, .reason_len = 4 };
	char *names[2] = { "a", "b" };
	unsigned char b[FRAME_RESULT_MAX_LEN];
	struct ack_in in = { .len = 0 };
	int sv[2];
	size_t len;

	memcpy(r.reason, "full", 4);
	len = frame_put_result(b, &r);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	alarm(10);
	CHECK(ack_early(sv[0], &in) == 0 && in.len == 0,
	      "ack_early: nothing yet, does not block");
	write_full(sv[1], b, 10);
	CHECK(ack_early(sv[0], &in) == 1 && in.len == 10,
	      "ack_early: the start of an answer is kept");
	write_full(sv[1], b + 10, len - 10);
	CHECK(ack_wait(sv[0], &in, 2, names, "slave") == EXIT_FAIL &&
	      !strcmp(msg_last(NULL),
		      "the slave failed with file 2 of 2 (b): full [1 in place there]"),
	      "ack_wait: the rest of an early answer, reported");
	r = (struct frame_result){ .status = FRAME_ST_OK,
				   .index = FRAME_NO_FILE, .files = 2 };
	in.len = 0;
	write_full(sv[1], b, frame_put_result(b, &r));
	CHECK(ack_wait(sv[0], &in, 2, names, "slave") == EXIT_OK,
	      "ack_wait: a positive answer for both files");
	close(sv[1]);
	in.len = 0;
	CHECK(ack_wait(sv[0], &in, 2, names, "slave") == EXIT_FAIL &&
	      strstr(msg_last(NULL), "closed the connection without confirming"),
	      "ack_wait: end of stream instead of an answer");
	alarm(0);
	close(sv[0]);
}

/*
 * Placement of the mapped device buffer (devio.h): page-aligned, inside
 * the spare DEVBUF_SKEW, and half of it away from the peer modulo it, for
 * every page offset of map and peer and a misaligned peer.
 */
static void test_placement(void)
{
	const uintptr_t map0 = (uintptr_t)1 << 40, peer0 = (uintptr_t)3 << 36;
	uintptr_t m, p, buf, dist;
	int bad = 0, n = 0;
	size_t off;

	for (m = map0; m < map0 + 2 * DEVBUF_SKEW; m += 5 * DEVBUF_PAGE)
		for (p = peer0; p < peer0 + 2 * DEVBUF_SKEW; p += 3 * DEVBUF_PAGE + 8) {
			off = devbuf_place_offset((void *)m, (void *)p);
			buf = m + off;
			dist = (buf - p) & (DEVBUF_SKEW - 1);
			n++;
			if (off % DEVBUF_PAGE || off >= DEVBUF_SKEW ||
			    dist + DEVBUF_PAGE <= DEVBUF_SKEW / 2 ||
			    dist > DEVBUF_SKEW / 2)
				bad++;
		}
	CHECK(n > 1000 && !bad,
	      "placement: %d of %d offsets outside the page, the skew or half of it",
	      bad, n);
}

/*
 * Keyed: the same session on both sides moves the files; a session of
 * another key on the master's side (data that is not from a holder of
 * the slave's key) fails the first file's MAC: exit 3, nothing written.
 */
static void test_keyed(void)
{
	static struct auth_key k1 = { .len = 32 }, k2 = { .len = 32 };
	struct auth_session s1 = { .key = &k1 }, s2 = { .key = &k2 };
	char *in[2], *out[2];
	uint64_t total;
	int ret, st;

	memset(k1.key, 1, 32);
	memset(k2.key, 2, 32);
	memset(s1.nm, 3, AUTH_NONCE_LEN);
	memset(s2.nm, 3, AUTH_NONCE_LEN);
	make_file("kin0", 100000, 7);
	make_file("kin1", 5000, 8);
	in[0] = strdup(path("kin0"));
	in[1] = strdup(path("kin1"));
	out[0] = strdup(path("kout0"));
	out[1] = strdup(path("kout1"));
	master_auth = slave_auth = &s1;
	ret = round_trip(in, out, 2, 4096, 4096, 0, &total, &st);
	CHECK(ret == EXIT_OK && WIFEXITED(st) && !WEXITSTATUS(st) &&
	      same_file(in[0], out[0]) && same_file(in[1], out[1]),
	      "keyed xfer, same session both sides: identical, both exit 0");
	unlink(out[0]);
	unlink(out[1]);
	master_auth = &s2;
	ret = round_trip(in, out, 2, 4096, 4096, 0, &total, &st);
	CHECK(ret == EXIT_CORRUPT && WIFEXITED(st) && WEXITSTATUS(st) == 1 &&
	      access(out[0], F_OK) && !count_entries(".syncdev-"),
	      "keyed xfer, master of another key: file MAC mismatch, slave exit 3, master exit 1, nothing written");
	unlink(out[0]);
	unlink(out[1]);
	master_auth = slave_auth = NULL;
	free(in[0]);
	free(in[1]);
	free(out[0]);
	free(out[1]);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	if (tmpdir_make())
		return 1;
	test_round_trips();
	test_bad_streams();
	test_huge_second();
	test_answers();
	test_master_exit();
	test_ack_io();
	test_placement();
	test_keyed();
	tmpdir_remove();
	return check_done();
}
