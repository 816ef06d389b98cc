// SPDX-License-Identifier: GPL-2.0
#include "crc32c.h"
#include "device.h"
#include "frame.h"
#include "outfile.h"
#include "util.h"
#include "xfer.h"

#include <errno.h>
#include <stdio.h>

/*
 * Read one fixed-size frame header.  Returns the bytes read (fewer only
 * when the stream ended) or -1 after a message.
 */
static ssize_t read_hdr(struct devbuf *b, void *hdr, size_t len,
			const char *what)
{
	ssize_t got = rx_read(b, hdr, len);

	if (got < 0)
		msg_errno("receiving %s", what);
	return got;
}

/* A decode error: the stream ended early (a failure) or is not ours. */
static int bad_frame(int err, const char *what, ssize_t got, size_t len)
{
	if (err == FRAME_ETRUNC) {
		msg("the master closed the connection in %s (after %zd of %zu bytes)",
		    what, got, len);
		return EXIT_FAIL;
	}
	msg("corrupt stream from the master in %s: %s", what,
	    frame_strerror(err));
	return EXIT_CORRUPT;
}

/* Move size bytes from the stream into f, returning their CRC in *crc. */
static int recv_data(struct devbuf *b, struct outfile *f, uint32_t *crc,
		     int *printed, const struct xfer_opts *o)
{
	const unsigned char *p;
	uint64_t off = 0;
	ssize_t n;

	*crc = 0;
	while (off < f->size) {
		n = rx_peek(b, f->size - off < SIZE_MAX ?
			       (size_t)(f->size - off) : SIZE_MAX, &p);
		if (n < 0) {
			msg_errno("receiving %s", f->path);
			return EXIT_FAIL;
		}
		if (n == 0) {
			msg("the master closed the connection in the middle of %s (after %llu of %llu bytes)",
			    f->path, (unsigned long long)off,
			    (unsigned long long)f->size);
			return EXIT_FAIL;
		}
		if (outfile_write(f, off, p, (size_t)n, crc)) {
			msg_errno("writing %s", f->tmp);
			return EXIT_FAIL;
		}
		rx_consume(b, (size_t)n);
		off += (uint64_t)n;
		if (o->print_pages)
			dev_print_pages_once(b->fd, f->map, printed);
	}
	return EXIT_OK;
}

static int recv_file(struct devbuf *b, const char *path, unsigned int index,
		     const struct xfer_opts *o, uint64_t *total, int *printed)
{
	unsigned char hdr[FRAME_FILE_HDR_LEN];
	char what[64];
	struct outfile f;
	uint32_t crc, sent;
	uint64_t size;
	ssize_t got;
	int err, ret;

	snprintf(what, sizeof(what), "the header of file %u", index + 1);
	got = read_hdr(b, hdr, FRAME_FILE_HDR_LEN, what);
	if (got < 0)
		return EXIT_FAIL;
	err = frame_get_file_hdr(hdr, (size_t)got, index, &size);
	if (err)
		return bad_frame(err, what, got, FRAME_FILE_HDR_LEN);
	if (outfile_create(&f, path, size, b->method == METHOD_MMAP))
		return EXIT_FAIL;
	ret = recv_data(b, &f, &crc, printed, o);
	if (ret)
		goto fail;

	snprintf(what, sizeof(what), "the trailer of file %u", index + 1);
	got = read_hdr(b, hdr, FRAME_TRAILER_LEN, what);
	ret = EXIT_FAIL;
	if (got < 0)
		goto fail;
	err = frame_get_trailer(hdr, (size_t)got, &sent);
	if (err) {
		ret = bad_frame(err, what, got, FRAME_TRAILER_LEN);
		goto fail;
	}
	if (sent != crc) {
		msg("CRC mismatch in %s: sent 0x%08x, received 0x%08x",
		    path, sent, crc);
		ret = EXIT_CORRUPT;
		goto fail;
	}
	if (outfile_commit(&f))
		return EXIT_FAIL;
	*total += size;
	if (o->verbose)
		printf("%s: %llu bytes, crc32c 0x%08x\n", path,
		       (unsigned long long)size, crc);
	return EXIT_OK;
fail:
	outfile_abort(&f);
	return ret;
}

int xfer_recv(struct devbuf *b, char *const *paths, unsigned int n,
	      const struct xfer_opts *o, uint64_t *total)
{
	unsigned char hdr[FRAME_STREAM_HDR_LEN];
	int printed = 0, err, ret;
	uint32_t nfiles;
	unsigned int i;
	ssize_t got;

	*total = 0;
	got = read_hdr(b, hdr, sizeof(hdr), "the stream header");
	if (got < 0)
		return EXIT_FAIL;
	err = frame_get_stream_hdr(hdr, (size_t)got, &nfiles);
	if (err)
		return bad_frame(err, "the stream header", got, sizeof(hdr));
	if (nfiles != n) {
		msg("the master sends %u files, the slave expects %u",
		    nfiles, n);
		return EXIT_FAIL;
	}
	for (i = 0; i < n; i++) {
		ret = recv_file(b, paths[i], i, o, total, &printed);
		if (ret)
			return ret;
	}
	if (o->print_pages && !printed)
		dev_print_page(b->fd, NULL);
	return EXIT_OK;
}
