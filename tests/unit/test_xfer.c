// SPDX-License-Identifier: GPL-2.0
/*
 * The master and slave transfer loops over a socketpair (fcntl method),
 * without the device: round trips with buffer sizes that split every
 * header, and every way a stream can be bad, checking that no output or
 * temporary file is left behind when it is.
 */
#include "check.h"
#include "crc32c.h"
#include "devio.h"
#include "frame.h"
#include "infile.h"
#include "outfile.h"
#include "util.h"
#include "xfer.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/syncdev-test-xfer-XXXXXX";
static const struct xfer_opts quiet = { 0, 0 };

static char *path(const char *name)
{
	static char buf[4][320];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static void make_file(const char *name, size_t size, unsigned int seed)
{
	unsigned char *d = malloc(size + 1);
	FILE *f = fopen(path(name), "w");
	size_t i;

	for (i = 0; i < size; i++) {
		seed = seed * 1103515245u + 12345u;
		d[i] = (unsigned char)(seed >> 16);
	}
	fwrite(d, 1, size, f);
	fclose(f);
	free(d);
}

static int same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	int ca, cb, same = fa && fb;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		same = ca == cb;
		if (ca == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

static int file_is(const char *name, const char *content)
{
	char buf[64];
	FILE *f = fopen(name, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return n == strlen(content) && !memcmp(buf, content, n);
}

/* Entries of the test directory whose name contains s. */
static int count_entries(const char *s)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)))
		n += strstr(e->d_name, s) != NULL;
	closedir(d);
	return n;
}

static void remove_outputs(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "out", 3) ||
		    strstr(e->d_name, ".syncdev-"))
			unlink(path(e->d_name));
	closedir(d);
}

/* Send names[] from a child with tx buffer txbuf; receive with rxbuf. */
static int round_trip(char **in, char **out, unsigned int n, size_t txbuf,
		      size_t rxbuf, int map_in, uint64_t *total,
		      int *child_status)
{
	struct infile files[8];
	struct devbuf b;
	unsigned int i;
	int sv[2], ret;
	pid_t pid;

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		for (i = 0; i < n; i++)
			if (infile_open(&files[i], in[i], map_in))
				_exit(9);
		devbuf_open(&b, sv[1], METHOD_FCNTL, txbuf);
		_exit(xfer_send(&b, files, n, &quiet));
	}
	close(sv[1]);
	devbuf_open(&b, sv[0], METHOD_FCNTL, rxbuf);
	ret = xfer_recv(&b, out, n, &quiet, total);
	devbuf_close(&b);
	close(sv[0]);
	waitpid(pid, child_status, 0);
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

/* Feed a hand-made stream to xfer_recv; the writer closes after it. */
static int recv_raw(const unsigned char *s, size_t len, unsigned int n)
{
	char *out[3] = { path("out0"), path("out1"), path("out2") };
	struct devbuf b;
	uint64_t total;
	int sv[2], ret;

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	write_full(sv[1], s, len);
	close(sv[1]);
	devbuf_open(&b, sv[0], METHOD_FCNTL, 64);
	ret = xfer_recv(&b, out, n, &quiet, &total);
	devbuf_close(&b);
	close(sv[0]);
	return ret;
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
	s[4] = 1;
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

static void test_outfile(void)
{
	struct outfile f;
	struct stat st;
	mode_t mask = umask(022);

	CHECK(outfile_create(&f, path("outm"), 10, 1) == 0 && f.map &&
	      count_entries(".outm.syncdev-") == 1 &&
	      access(path("outm"), F_OK) == -1,
	      "outfile mmap: hidden temporary file, no final name yet");
	outfile_write(&f, 0, "0123", 4, NULL);
	outfile_write(&f, 4, "456789", 6, NULL);
	CHECK(outfile_commit(&f) == 0 && !count_entries(".syncdev-") &&
	      stat(path("outm"), &st) == 0 && st.st_size == 10 &&
	      (st.st_mode & 0777) == 0644, "outfile commit: renamed, mode 0644");
	CHECK(outfile_create(&f, path("oute"), 0, 1) == 0 && !f.map &&
	      outfile_commit(&f) == 0 && stat(path("oute"), &st) == 0 &&
	      st.st_size == 0, "outfile empty file in mmap mode");
	CHECK(outfile_create(&f, path("outa"), 100, 0) == 0, "outfile create");
	outfile_abort(&f);
	CHECK(!count_entries("outa"), "outfile abort removes the temp file");
	CHECK(outfile_check(path("nodir/x")) == -1, "outfile_check missing dir");
	CHECK(outfile_check(dir) == -1, "outfile_check a directory");
	CHECK(outfile_check(path("fine")) == 0, "outfile_check ok");
	remove_outputs();
	unlink(path("outm"));
	unlink(path("oute"));
	umask(mask);
}

static void test_infile(void)
{
	struct infile f;

	CHECK(infile_open(&f, path("missing"), 0) == -1,
	      "infile missing file fails");
	CHECK(infile_open(&f, dir, 0) == -1, "infile directory fails");
	make_file("empty", 0, 1);
	CHECK(infile_open(&f, path("empty"), 1) == 0 && f.size == 0 &&
	      !f.map, "infile empty file needs no mapping");
	infile_close(&f);
}

int main(void)
{
	DIR *d;
	struct dirent *e;

	signal(SIGPIPE, SIG_IGN);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_round_trips();
	test_bad_streams();
	test_outfile();
	test_infile();
	d = opendir(dir);
	while ((e = readdir(d)))
		unlink(path(e->d_name));
	closedir(d);
	rmdir(dir);
	return check_done();
}
