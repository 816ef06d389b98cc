/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file framing of master and slave: how N files travel as one byte
 * stream over one syncdev connection (docs/protocol.md, "File framing").
 *
 * first, from the slave to the master:
 *	hello		 8 bytes	magic "SDHI", version, flags
 * then from the master:
 *	stream header	16 bytes	magic "SDXF", version, flags, file count
 *	per file:
 *	  file header	16 bytes	magic "SDFH", index, size
 *	  data		size bytes
 *	  trailer	 8 bytes	magic "SDFT", CRC32C of the data
 *
 * and after the last file, from the slave back to the master:
 *	result		24 bytes	magic "SDAK", version, type, status,
 *					reason length, file index, files
 *					in place, errno
 *	reason		0..1024 bytes	text for the master to print
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

/*
 * 3: the slave greets first, so that a connection that never spoke is not
 * taken for the slave; 2: the slave answers with a result; 1 was one-way.
 */
#define FRAME_VERSION		3
#define FRAME_HELLO_LEN		8
#define FRAME_STREAM_HDR_LEN	16
#define FRAME_FILE_HDR_LEN	16
#define FRAME_TRAILER_LEN	8
#define FRAME_RESULT_HDR_LEN	24
#define FRAME_REASON_MAX	1024
#define FRAME_RESULT_MAX_LEN	(FRAME_RESULT_HDR_LEN + FRAME_REASON_MAX)

#define FRAME_HELLO_MAGIC	0x49484453u	/* "SDHI" on the wire */
#define FRAME_STREAM_MAGIC	0x46584453u	/* "SDXF" */
#define FRAME_FILE_MAGIC	0x48464453u	/* "SDFH" */
#define FRAME_TRAILER_MAGIC	0x54464453u	/* "SDFT" */
#define FRAME_RESULT_MAGIC	0x4b414453u	/* "SDAK" */
#define FRAME_TYPE_RESULT	1	/* the only message type so far */

enum frame_error {
	FRAME_OK = 0,
	FRAME_EMAGIC,		/* a magic number is wrong: not our stream */
	FRAME_EVERSION,		/* a version this program does not speak */
	FRAME_EFLAGS,		/* reserved bits set */
	FRAME_EINDEX,		/* a file header out of sequence */
	FRAME_ETRUNC,		/* the stream ended inside a frame */
	FRAME_ETYPE,		/* a message type this program does not know */
	FRAME_ERANGE,		/* a field out of its range */
};

/* What the slave's result says about the whole set. */
enum frame_status {
	FRAME_ST_OK = 0,	/* every file verified and in place */
	FRAME_ST_COUNT,		/* the two sides disagree on the file count */
	FRAME_ST_FRAMING,	/* the stream was not well formed */
	FRAME_ST_CRC,		/* file index arrived damaged */
	FRAME_ST_STORE,		/* file index could not be stored (err) */
	FRAME_ST_RECV,		/* receiving file index failed (err) */
	FRAME_ST_COUNT_OF_STATUSES
};

#define FRAME_NO_FILE	0xffffffffu	/* index: about no file in particular */

struct frame_result {
	unsigned int status;	/* FRAME_ST_* */
	uint32_t index;		/* 0..N-1, or FRAME_NO_FILE */
	uint32_t files;		/* files verified and in place */
	uint32_t err;		/* the slave's errno (Linux numbers), 0: none */
	size_t reason_len;	/* bytes of reason, at most FRAME_REASON_MAX */
	char reason[FRAME_REASON_MAX + 1];	/* printable, NUL-terminated */
};

void frame_put_hello(unsigned char *p);
int frame_get_hello(const unsigned char *p, size_t len);

void frame_put_stream_hdr(unsigned char *p, uint32_t nfiles);
int frame_get_stream_hdr(const unsigned char *p, size_t len,
			 uint32_t *nfiles);

/* index counts from 0; the decoder checks it is the expected one. */
void frame_put_file_hdr(unsigned char *p, uint32_t index, uint64_t size);
int frame_get_file_hdr(const unsigned char *p, size_t len, uint32_t index,
		       uint64_t *size);

void frame_put_trailer(unsigned char *p, uint32_t crc);
int frame_get_trailer(const unsigned char *p, size_t len, uint32_t *crc);

/*
 * The result message: header and reason, FRAME_RESULT_HDR_LEN +
 * r->reason_len bytes (the reason is cut at FRAME_REASON_MAX); returns
 * the length.  The decoder takes the header, fills every field but the
 * reason and checks r->reason_len; frame_get_reason then copies that many
 * bytes, each one that is not printable ASCII replaced by '?'.
 */
size_t frame_put_result(unsigned char *p, const struct frame_result *r);
int frame_get_result_hdr(const unsigned char *p, size_t len,
			 struct frame_result *r);
void frame_get_reason(const unsigned char *p, struct frame_result *r);
/* "ok", "file count mismatch", "CRC mismatch", ... */
const char *frame_status_name(unsigned int status);

/* A short description of a FRAME_E* code ("bad magic number", ...). */
const char *frame_strerror(int err);

#endif
