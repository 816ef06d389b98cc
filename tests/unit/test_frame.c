// SPDX-License-Identifier: GPL-2.0
/* The file framing: exact wire bytes, round trips and every decode error. */
#include "check.h"
#include "crc32c.h"
#include "frame.h"
#include "util.h"

#include <string.h>

static void test_wire_bytes(void)
{
	static const unsigned char want_stream[FRAME_STREAM_HDR_LEN] = {
		'S', 'D', 'X', 'F', 3, 0, 0, 0, 0x0a, 0, 0, 0, 0, 0, 0, 0 };
	static const unsigned char want_file[FRAME_FILE_HDR_LEN] = {
		'S', 'D', 'F', 'H', 3, 0, 0, 0,
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 };
	static const unsigned char want_trailer[FRAME_TRAILER_LEN] = {
		'S', 'D', 'F', 'T', 0x83, 0x92, 0x06, 0xe3 };
	unsigned char b[FRAME_FILE_HDR_LEN];

	frame_put_stream_hdr(b, 10);
	CHECK(!memcmp(b, want_stream, sizeof(want_stream)),
	      "frame stream header wire bytes");
	frame_put_file_hdr(b, 3, 0x0102030405060708ull);
	CHECK(!memcmp(b, want_file, sizeof(want_file)),
	      "frame file header wire bytes");
	frame_put_trailer(b, 0xE3069283u);
	CHECK(!memcmp(b, want_trailer, sizeof(want_trailer)),
	      "frame trailer wire bytes");
}

static void test_hello(void)
{
	static const unsigned char want[FRAME_HELLO_LEN] = {
		'S', 'D', 'H', 'I', 3, 0, 0, 0 };
	unsigned char b[FRAME_HELLO_LEN], stream[FRAME_STREAM_HDR_LEN];
	size_t len;

	frame_put_hello(b);
	CHECK(!memcmp(b, want, sizeof(want)), "frame hello wire bytes");
	CHECK(frame_get_hello(b, sizeof(b)) == FRAME_OK, "frame hello round trip");
	for (len = 0; len < sizeof(b); len++)
		if (frame_get_hello(b, len) != FRAME_ETRUNC)
			break;
	CHECK(len == sizeof(b), "frame hello: every short read is truncated");
	b[3] = 'X';
	CHECK(frame_get_hello(b, sizeof(b)) == FRAME_EMAGIC,
	      "frame hello bad magic");
	frame_put_hello(b);
	b[4] = 2;
	CHECK(frame_get_hello(b, sizeof(b)) == FRAME_EVERSION,
	      "frame hello other version");
	frame_put_hello(b);
	b[7] = 1;
	CHECK(frame_get_hello(b, sizeof(b)) == FRAME_EFLAGS,
	      "frame hello flags set");
	/* A stream header where the hello belongs: a master, not a slave. */
	frame_put_stream_hdr(stream, 1);
	CHECK(frame_get_hello(stream, sizeof(stream)) == FRAME_EMAGIC,
	      "frame hello: a stream header is not one");
}

static void test_round_trip(void)
{
	unsigned char b[FRAME_FILE_HDR_LEN];
	uint32_t n = 0, crc = 0;
	uint64_t size = 0;

	frame_put_stream_hdr(b, 0xfffffffeu);
	CHECK(frame_get_stream_hdr(b, sizeof(b), &n) == FRAME_OK &&
	      n == 0xfffffffeu, "frame stream header round trip");
	frame_put_file_hdr(b, 7, UINT64_MAX - 1);
	CHECK(frame_get_file_hdr(b, sizeof(b), 7, &size) == FRAME_OK &&
	      size == UINT64_MAX - 1, "frame file header round trip");
	frame_put_file_hdr(b, 0, 0);
	CHECK(frame_get_file_hdr(b, sizeof(b), 0, &size) == FRAME_OK &&
	      size == 0, "frame empty file header round trip");
	frame_put_trailer(b, 0x80000001u);
	CHECK(frame_get_trailer(b, FRAME_TRAILER_LEN, &crc) == FRAME_OK &&
	      crc == 0x80000001u, "frame trailer round trip");
}

static void test_errors(void)
{
	unsigned char b[FRAME_FILE_HDR_LEN];
	uint32_t n = 123, crc = 456;
	uint64_t size = 789;
	size_t len, trunc = 0;

	frame_put_stream_hdr(b, 1);
	b[0] ^= 1;
	CHECK(frame_get_stream_hdr(b, sizeof(b), &n) == FRAME_EMAGIC &&
	      n == 123, "frame stream header bad magic");
	frame_put_stream_hdr(b, 1);
	b[4] = 4;
	CHECK(frame_get_stream_hdr(b, sizeof(b), &n) == FRAME_EVERSION,
	      "frame stream header version 4 rejected");
	b[4] = 2;
	CHECK(frame_get_stream_hdr(b, sizeof(b), &n) == FRAME_EVERSION,
	      "frame stream header version 2 (no hello) rejected");
	b[4] = 1;
	CHECK(frame_get_stream_hdr(b, sizeof(b), &n) == FRAME_EVERSION,
	      "frame stream header version 1 (one-way, no answer) rejected");
	frame_put_stream_hdr(b, 1);
	b[6] = 1;
	CHECK(frame_get_stream_hdr(b, sizeof(b), &n) == FRAME_EFLAGS,
	      "frame stream header flags set rejected");
	frame_put_stream_hdr(b, 1);
	b[15] = 0x80;
	CHECK(frame_get_stream_hdr(b, sizeof(b), &n) == FRAME_EFLAGS,
	      "frame stream header reserved set rejected");

	frame_put_file_hdr(b, 2, 10);
	CHECK(frame_get_file_hdr(b, sizeof(b), 3, &size) == FRAME_EINDEX &&
	      size == 789, "frame file header wrong index");
	frame_put_trailer(b, 1);
	CHECK(frame_get_file_hdr(b, sizeof(b), 0, &size) == FRAME_EMAGIC,
	      "frame trailer where a file header belongs");
	frame_put_file_hdr(b, 0, 1);
	CHECK(frame_get_trailer(b, sizeof(b), &crc) == FRAME_EMAGIC &&
	      crc == 456, "frame file header where a trailer belongs");

	frame_put_stream_hdr(b, 1);
	for (len = 0; len < FRAME_STREAM_HDR_LEN; len++)
		trunc += frame_get_stream_hdr(b, len, &n) == FRAME_ETRUNC;
	frame_put_file_hdr(b, 0, 1);
	for (len = 0; len < FRAME_FILE_HDR_LEN; len++)
		trunc += frame_get_file_hdr(b, len, 0, &size) == FRAME_ETRUNC;
	frame_put_trailer(b, 1);
	for (len = 0; len < FRAME_TRAILER_LEN; len++)
		trunc += frame_get_trailer(b, len, &crc) == FRAME_ETRUNC;
	CHECK(trunc == FRAME_STREAM_HDR_LEN + FRAME_FILE_HDR_LEN +
		       FRAME_TRAILER_LEN, "frame truncated headers rejected");

	CHECK(strstr(frame_strerror(FRAME_EMAGIC), "magic") &&
	      strstr(frame_strerror(FRAME_ETRUNC), "ends") &&
	      strstr(frame_strerror(-1), "unknown"), "frame_strerror texts");
}

/* A whole three-file stream in memory, decoded as the slave would. */
static void test_stream(void)
{
	static const char *files[] = { "", "a", "hello, world" };
	unsigned char s[256], *p = s;
	uint32_t n, i, crc;
	uint64_t size;
	int ok = 1;

	frame_put_stream_hdr(p, 3);
	p += FRAME_STREAM_HDR_LEN;
	for (i = 0; i < 3; i++) {
		size = strlen(files[i]);
		frame_put_file_hdr(p, i, size);
		p += FRAME_FILE_HDR_LEN;
		memcpy(p, files[i], size);
		p += size;
		frame_put_trailer(p, crc32c(0, files[i], size));
		p += FRAME_TRAILER_LEN;
	}
	CHECK(p - s == 16 + 3 * (16 + 8) + 13, "frame stream length");

	p = s;
	ok &= frame_get_stream_hdr(p, 16, &n) == FRAME_OK && n == 3;
	p += 16;
	for (i = 0; ok && i < n; i++) {
		ok &= frame_get_file_hdr(p, 16, i, &size) == FRAME_OK;
		p += 16;
		ok &= size == strlen(files[i]) && !memcmp(p, files[i], size);
		ok &= frame_get_trailer(p + size, 8, &crc) == FRAME_OK &&
		      crc == crc32c(0, p, size);
		p += size + 8;
	}
	CHECK(ok, "frame three-file stream decodes to the same files");
}

static void test_result_wire(void)
{
	static const unsigned char want[] = {
		'S', 'D', 'A', 'K', 3, 0, 1, 0,	/* magic, version, type */
		3, 0, 9, 0,			/* status CRC, 9 bytes */
		1, 0, 0, 0, 1, 0, 0, 0,		/* file index 1, 1 in place */
		0x1c, 0, 0, 0,			/* errno 28 */
		'n', 'o', ' ', 's', 'p', 'a', 'c', 'e', '!' };
	struct frame_result r = { .status = FRAME_ST_CRC, .index = 1,
				  .files = 1, .err = 28, .reason_len = 9 };
	unsigned char b[FRAME_RESULT_MAX_LEN];
	struct frame_result got;

	memcpy(r.reason, "no space!", 9);
	CHECK(frame_put_result(b, &r) == sizeof(want) &&
	      !memcmp(b, want, sizeof(want)), "frame result wire bytes");
	CHECK(frame_get_result_hdr(b, FRAME_RESULT_HDR_LEN, &got) ==
	      FRAME_OK && got.status == FRAME_ST_CRC && got.index == 1 &&
	      got.files == 1 && got.err == 28 && got.reason_len == 9,
	      "frame result header round trip");
	frame_get_reason(b + FRAME_RESULT_HDR_LEN, &got);
	CHECK(!strcmp(got.reason, "no space!"), "frame result reason");

	/* The example in docs/framing.md: one file in place. */
	r = (struct frame_result){ .status = FRAME_ST_OK,
				   .index = FRAME_NO_FILE, .files = 1 };
	CHECK(frame_put_result(b, &r) == FRAME_RESULT_HDR_LEN &&
	      !memcmp(b, "SDAK\3\0\1\0\0\0\0\0\377\377\377\377\1\0\0\0\0\0\0\0",
		      FRAME_RESULT_HDR_LEN),
	      "frame result: the ok example of docs/framing.md");

	r.reason_len = FRAME_REASON_MAX + 100;
	memset(r.reason, 'x', sizeof(r.reason));
	CHECK(frame_put_result(b, &r) == FRAME_RESULT_MAX_LEN &&
	      get_le(b + 10, 2) == FRAME_REASON_MAX,
	      "frame result reason cut at FRAME_REASON_MAX");
}

static void test_result_errors(void)
{
	struct frame_result r = { .status = FRAME_ST_OK,
				  .index = FRAME_NO_FILE, .files = 2 };
	unsigned char b[FRAME_RESULT_MAX_LEN];
	size_t len, trunc = 0;

	frame_put_result(b, &r);
	for (len = 0; len < FRAME_RESULT_HDR_LEN; len++)
		trunc += frame_get_result_hdr(b, len, &r) == FRAME_ETRUNC;
	CHECK(trunc == FRAME_RESULT_HDR_LEN, "frame result truncated header");
	b[0] = 'X';
	CHECK(frame_get_result_hdr(b, sizeof(b), &r) == FRAME_EMAGIC,
	      "frame result bad magic");
	frame_put_result(b, &r);
	b[4] = 1;
	CHECK(frame_get_result_hdr(b, sizeof(b), &r) == FRAME_EVERSION,
	      "frame result other version");
	frame_put_result(b, &r);
	b[6] = 2;
	CHECK(frame_get_result_hdr(b, sizeof(b), &r) == FRAME_ETYPE,
	      "frame result unknown type");
	frame_put_result(b, &r);
	b[8] = FRAME_ST_COUNT_OF_STATUSES;
	CHECK(frame_get_result_hdr(b, sizeof(b), &r) == FRAME_ERANGE,
	      "frame result unknown status");
	frame_put_result(b, &r);
	put_le(b + 10, FRAME_REASON_MAX + 1, 2);
	CHECK(frame_get_result_hdr(b, sizeof(b), &r) == FRAME_ERANGE,
	      "frame result reason longer than FRAME_REASON_MAX");

	r.reason_len = 5;
	frame_get_reason((const unsigned char *)"a\033[2J", &r);
	CHECK(!strcmp(r.reason, "a?[2J"),
	      "frame result reason: control bytes become '?'");
	CHECK(!strcmp(frame_status_name(FRAME_ST_CRC), "CRC mismatch") &&
	      !strcmp(frame_status_name(99), "unknown status"),
	      "frame_status_name");
}

int main(void)
{
	test_wire_bytes();
	test_hello();
	test_round_trip();
	test_errors();
	test_stream();
	test_result_wire();
	test_result_errors();
	return check_done();
}
