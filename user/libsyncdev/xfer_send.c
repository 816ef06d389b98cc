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

static int send_failed(const char *what)
{
	if (errno == EPIPE || errno == ECONNRESET)
		msg_errno("sending %s: the slave is gone", what);
	else
		msg_errno("sending %s", what);
	return EXIT_FAIL;
}

/*
 * Fill dst with the next n bytes of f, by memcpy or read(), and fold them
 * into *crc.
 */
static ssize_t copy_in(struct infile *f, uint64_t off, void *dst, size_t n,
		       uint32_t *crc)
{
	ssize_t r;

	if (f->map) {
		map_populate((void *)(f->map + off), n, 0);
		*crc = crc32c_copy(*crc, dst, f->map + off, n);
		return (ssize_t)n;
	}
	do
		r = read(f->fd, dst, n);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		msg_errno("reading input file %s", f->path);
	else if (r == 0)
		msg("input file %s shrank while being sent (%llu of %llu bytes)",
		    f->path, (unsigned long long)off,
		    (unsigned long long)f->size);
	if (r > 0)
		*crc = crc32c(*crc, dst, (size_t)r);
	return r > 0 ? r : -1;
}

static int send_file(struct devbuf *b, struct infile *f, unsigned int index,
		     const struct xfer_opts *o, int *printed)
{
	unsigned char hdr[FRAME_FILE_HDR_LEN];
	uint64_t off = 0;
	uint32_t crc = 0;
	unsigned char *dst;
	size_t room;
	ssize_t n;

	frame_put_file_hdr(hdr, index, f->size);
	if (tx_put(b, hdr, sizeof(hdr)))
		return send_failed(f->path);
	while (off < f->size) {
		dst = tx_space(b, &room);
		if (!dst)
			return send_failed(f->path);
		if (room > f->size - off)
			room = (size_t)(f->size - off);
		n = copy_in(f, off, dst, room, &crc);
		if (n < 0)
			return EXIT_FAIL;
		tx_commit(b, (size_t)n);
		off += (uint64_t)n;
		if (o->print_pages)
			dev_print_pages_once(b->fd, f->map, printed);
	}
	frame_put_trailer(hdr, crc);
	if (tx_put(b, hdr, FRAME_TRAILER_LEN))
		return send_failed(f->path);
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
	unsigned int i;

	frame_put_stream_hdr(hdr, n);
	if (tx_put(b, hdr, sizeof(hdr)))
		return send_failed("the stream header");
	for (i = 0; i < n; i++) {
		ret = send_file(b, &files[i], i, o, &printed);
		if (ret)
			return ret;
	}
	if (tx_flush(b))
		return send_failed(n ? files[n - 1].path : "the stream header");
	/* Only empty files: the device buffer is all there is to show. */
	if (o->print_pages && !printed)
		dev_print_page(b->fd, NULL);
	return EXIT_OK;
}
