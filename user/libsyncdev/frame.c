// SPDX-License-Identifier: GPL-2.0
#include "frame.h"
#include "util.h"

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

const char *frame_strerror(int err)
{
	switch (err) {
	case FRAME_OK:
		return "no error";
	case FRAME_EMAGIC:
		return "bad magic number (not a syncdev file stream)";
	case FRAME_EVERSION:
		return "unsupported framing version";
	case FRAME_EFLAGS:
		return "reserved header fields are not zero";
	case FRAME_EINDEX:
		return "file header out of sequence";
	case FRAME_ETRUNC:
		return "stream ends in the middle of a frame";
	}
	return "unknown framing error";
}
