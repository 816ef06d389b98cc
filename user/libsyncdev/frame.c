// SPDX-License-Identifier: GPL-2.0
#include "frame.h"
#include "util.h"

#include <string.h>

/* Hello: magic u32, version u16, flags u16 (0, reserved). */
void frame_put_hello(unsigned char *p)
{
	put_le(p, FRAME_HELLO_MAGIC, 4);
	put_le(p + 4, FRAME_VERSION, 2);
	put_le(p + 6, 0, 2);
}

int frame_get_hello(const unsigned char *p, size_t len)
{
	if (len < FRAME_HELLO_LEN)
		return FRAME_ETRUNC;
	if (get_le(p, 4) != FRAME_HELLO_MAGIC)
		return FRAME_EMAGIC;
	if (get_le(p + 4, 2) != FRAME_VERSION)
		return FRAME_EVERSION;
	if (get_le(p + 6, 2))
		return FRAME_EFLAGS;
	return FRAME_OK;
}

/*
 * Stream header: magic u32, version u16, flags u16 (0), file count u32,
 * reserved u32 (0).
 */
void frame_put_stream_hdr(unsigned char *p, uint32_t nfiles)
{
	put_le(p, FRAME_STREAM_MAGIC, 4);
	put_le(p + 4, FRAME_VERSION, 2);
	put_le(p + 6, 0, 2);
	put_le(p + 8, nfiles, 4);
	put_le(p + 12, 0, 4);
}

int frame_get_stream_hdr(const unsigned char *p, size_t len,
			 uint32_t *nfiles)
{
	if (len < FRAME_STREAM_HDR_LEN)
		return FRAME_ETRUNC;
	if (get_le(p, 4) != FRAME_STREAM_MAGIC)
		return FRAME_EMAGIC;
	if (get_le(p + 4, 2) != FRAME_VERSION)
		return FRAME_EVERSION;
	if (get_le(p + 6, 2) || get_le(p + 12, 4))
		return FRAME_EFLAGS;
	*nfiles = (uint32_t)get_le(p + 8, 4);
	return FRAME_OK;
}

/* File header: magic u32, index u32, size u64. */
void frame_put_file_hdr(unsigned char *p, uint32_t index, uint64_t size)
{
	put_le(p, FRAME_FILE_MAGIC, 4);
	put_le(p + 4, index, 4);
	put_le(p + 8, size, 8);
}

int frame_get_file_hdr(const unsigned char *p, size_t len, uint32_t index,
		       uint64_t *size)
{
	if (len < FRAME_FILE_HDR_LEN)
		return FRAME_ETRUNC;
	if (get_le(p, 4) != FRAME_FILE_MAGIC)
		return FRAME_EMAGIC;
	if (get_le(p + 4, 4) != index)
		return FRAME_EINDEX;
	*size = get_le(p + 8, 8);
	return FRAME_OK;
}

/* Trailer: magic u32, CRC32C u32. */
void frame_put_trailer(unsigned char *p, uint32_t crc)
{
	put_le(p, FRAME_TRAILER_MAGIC, 4);
	put_le(p + 4, crc, 4);
}

int frame_get_trailer(const unsigned char *p, size_t len, uint32_t *crc)
{
	if (len < FRAME_TRAILER_LEN)
		return FRAME_ETRUNC;
	if (get_le(p, 4) != FRAME_TRAILER_MAGIC)
		return FRAME_EMAGIC;
	*crc = (uint32_t)get_le(p + 4, 4);
	return FRAME_OK;
}

/*
 * Result: magic u32, version u16, type u16, status u16, reason length u16,
 * file index u32, files in place u32, errno u32, then the reason.
 */
size_t frame_put_result(unsigned char *p, const struct frame_result *r)
{
	size_t len = r->reason_len < FRAME_REASON_MAX ? r->reason_len :
							FRAME_REASON_MAX;

	put_le(p, FRAME_RESULT_MAGIC, 4);
	put_le(p + 4, FRAME_VERSION, 2);
	put_le(p + 6, FRAME_TYPE_RESULT, 2);
	put_le(p + 8, r->status, 2);
	put_le(p + 10, len, 2);
	put_le(p + 12, r->index, 4);
	put_le(p + 16, r->files, 4);
	put_le(p + 20, r->err, 4);
	memcpy(p + FRAME_RESULT_HDR_LEN, r->reason, len);
	return FRAME_RESULT_HDR_LEN + len;
}

int frame_get_result_hdr(const unsigned char *p, size_t len,
			 struct frame_result *r)
{
	if (len < FRAME_RESULT_HDR_LEN)
		return FRAME_ETRUNC;
	if (get_le(p, 4) != FRAME_RESULT_MAGIC)
		return FRAME_EMAGIC;
	if (get_le(p + 4, 2) != FRAME_VERSION)
		return FRAME_EVERSION;
	if (get_le(p + 6, 2) != FRAME_TYPE_RESULT)
		return FRAME_ETYPE;
	if (get_le(p + 8, 2) >= FRAME_ST_COUNT_OF_STATUSES ||
	    get_le(p + 10, 2) > FRAME_REASON_MAX)
		return FRAME_ERANGE;
	r->status = (unsigned int)get_le(p + 8, 2);
	r->reason_len = (size_t)get_le(p + 10, 2);
	r->index = (uint32_t)get_le(p + 12, 4);
	r->files = (uint32_t)get_le(p + 16, 4);
	r->err = (uint32_t)get_le(p + 20, 4);
	r->reason[0] = '\0';
	return FRAME_OK;
}

void frame_get_reason(const unsigned char *p, struct frame_result *r)
{
	size_t i;

	for (i = 0; i < r->reason_len; i++)
		r->reason[i] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
	r->reason[i] = '\0';
}

const char *frame_status_name(unsigned int status)
{
	static const char *const names[] = {
		[FRAME_ST_OK] = "ok",
		[FRAME_ST_COUNT] = "file count mismatch",
		[FRAME_ST_FRAMING] = "bad framing",
		[FRAME_ST_CRC] = "CRC mismatch",
		[FRAME_ST_STORE] = "cannot store the file",
		[FRAME_ST_RECV] = "receiving failed",
	};

	return status < FRAME_ST_COUNT_OF_STATUSES ? names[status] :
						     "unknown status";
}

const char *frame_strerror(int err)
{
	switch (err) {
	case FRAME_OK:
		return "no error";
	case FRAME_EMAGIC:
		return "bad magic number (not a syncdev file stream)";
	case FRAME_EVERSION:
		return "unsupported framing version (master and slave from different releases?)";
	case FRAME_EFLAGS:
		return "reserved header fields are not zero";
	case FRAME_EINDEX:
		return "file header out of sequence";
	case FRAME_ETRUNC:
		return "stream ends in the middle of a frame";
	case FRAME_ETYPE:
		return "unknown message type";
	case FRAME_ERANGE:
		return "a field is out of range";
	}
	return "unknown framing error";
}
