/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file framing of master and slave: how N files travel as one byte
 * stream over one syncdev connection (docs/protocol.md, "File framing").
 *
 *	stream header	16 bytes	magic "SDXF", version, flags, file count
 *	per file:
 *	  file header	16 bytes	magic "SDFH", index, size
 *	  data		size bytes
 *	  trailer	 8 bytes	magic "SDFT", CRC32C of the data
 *
 * Every field is little-endian and is encoded byte by byte, so the format
 * does not depend on the host's byte order or struct layout.  The decoders
 * take the bytes that arrived (len may be short when the stream ended
 * early), check everything and return one of the FRAME_E* codes.
 */
#ifndef SYNCDEV_FRAME_H
#define SYNCDEV_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_VERSION		1
#define FRAME_STREAM_HDR_LEN	16
#define FRAME_FILE_HDR_LEN	16
#define FRAME_TRAILER_LEN	8

#define FRAME_STREAM_MAGIC	0x46584453u	/* "SDXF" on the wire */
#define FRAME_FILE_MAGIC	0x48464453u	/* "SDFH" */
#define FRAME_TRAILER_MAGIC	0x54464453u	/* "SDFT" */

enum frame_error {
	FRAME_OK = 0,
	FRAME_EMAGIC,		/* a magic number is wrong: not our stream */
	FRAME_EVERSION,		/* a version this program does not speak */
	FRAME_EFLAGS,		/* reserved bits set */
	FRAME_EINDEX,		/* a file header out of sequence */
	FRAME_ETRUNC,		/* the stream ended inside a frame */
};

void frame_put_stream_hdr(unsigned char *p, uint32_t nfiles);
int frame_get_stream_hdr(const unsigned char *p, size_t len,
			 uint32_t *nfiles);

/* index counts from 0; the decoder checks it is the expected one. */
void frame_put_file_hdr(unsigned char *p, uint32_t index, uint64_t size);
int frame_get_file_hdr(const unsigned char *p, size_t len, uint32_t index,
		       uint64_t *size);

void frame_put_trailer(unsigned char *p, uint32_t crc);
int frame_get_trailer(const unsigned char *p, size_t len, uint32_t *crc);

/* A short description of a FRAME_E* code ("bad magic number", ...). */
const char *frame_strerror(int err);

#endif
