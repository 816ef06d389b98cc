// SPDX-License-Identifier: GPL-2.0
#include "crc32c.h"
#include "device.h"
#include "frame.h"
#include "util.h"
#include "xfer.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * Sending what failed, with how many of its size bytes the device took
 * (size 0: a frame, not a file's data).
 */
static int send_failed(const char *what, uint64_t done, uint64_t size)
{
	int err = errno;

	if (size)
		msg_errno("sending %s (after %llu of %llu bytes)%s", what,
			  (unsigned long long)done, (unsigned long long)size,
			  dev_peer_hint(err, "slave"));
	else
		msg_errno("sending %s%s", what, dev_peer_hint(err, "slave"));
	return EXIT_FAIL;
}

/* Bytes of f's data the device took: its data starts at stream offset start. */
static uint64_t data_moved(const struct devbuf *b, uint64_t start,
			   uint64_t size)
{
	if (b->moved <= start)
		return 0;
	return b->moved - start < size ? b->moved - start : size;
}

/*
 * Queue f's frames and data (flushing when the buffer is full); *start is
 * the stream offset of its first data byte.
 */
static int send_file(struct devbuf *b, struct infile *f, unsigned int index,
		     const struct xfer_opts *o, int *printed, uint64_t *start)
{
	unsigned char hdr[FRAME_FILE_HDR_LEN];
	uint64_t off = 0;
	uint32_t crc = 0;
	unsigned char *dst;
	size_t room;
	ssize_t n;

	frame_put_file_hdr(hdr, index, f->size);
	*start = b->moved + b->end + sizeof(hdr);
	if (tx_put(b, hdr, sizeof(hdr)))
		return send_failed(f->path, 0, f->size);
	while (off < f->size) {
		dst = tx_space(b, &room);
		if (!dst)
			return send_failed(f->path, data_moved(b, *start, f->size),
					   f->size);
		if (room > f->size - off)
			room = (size_t)(f->size - off);
		n = infile_copy(f, off, dst, room, &crc);
		if (n < 0)
			return EXIT_FAIL;
		tx_commit(b, (size_t)n);
		off += (uint64_t)n;
		if (o->print_pages)
			dev_print_pages_once(b->fd, f->map, printed);
	}
	if (infile_check_size(f))
		return EXIT_FAIL;
	frame_put_trailer(hdr, crc);
	if (tx_put(b, hdr, FRAME_TRAILER_LEN))
		return send_failed(f->path, data_moved(b, *start, f->size),
				   f->size);
	if (o->verbose)
		printf("%s: %llu bytes, crc32c 0x%08x\n", f->path,
		       (unsigned long long)f->size, crc);
	return EXIT_OK;
}

int xfer_send(struct devbuf *b, struct infile *files, unsigned int n,
	      const struct xfer_opts *o)
{
	unsigned char hdr[FRAME_STREAM_HDR_LEN];
	int printed = 0, ret;
	uint64_t start = 0;
	unsigned int i;

	frame_put_stream_hdr(hdr, n);
	if (tx_put(b, hdr, sizeof(hdr)))
		return send_failed("the stream header", 0, 0);
	for (i = 0; i < n; i++) {
		ret = send_file(b, &files[i], i, o, &printed, &start);
		if (ret)
			return ret;
	}
	if (tx_flush(b))
		return n ? send_failed(files[n - 1].path,
				       data_moved(b, start, files[n - 1].size),
				       files[n - 1].size) :
			   send_failed("the stream header", 0, 0);
	/* Only empty files: the device buffer is all there is to show. */
	if (o->print_pages && !printed)
		dev_print_page(b->fd, NULL);
	return EXIT_OK;
}
