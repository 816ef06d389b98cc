// SPDX-License-Identifier: GPL-2.0
#include "ack.h"
#include "auth.h"
#include "crc32c.h"
#include "device.h"
#include "frame.h"
#include "mapguard.h"
#include "util.h"
#include "xfer.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* One run of xfer_send. */
struct send_ctx {
	struct devbuf *b;
	const struct xfer_opts *o;
	struct ack_in *in;	/* the slave's early answer */
	uint64_t seen;		/* b->moved when last looked for one */
	uint64_t start;		/* stream offset of this file's data */
	struct hmac_sha256 mac;	/* keyed: the current file's MAC */
	uint32_t crc;		/* the current file's CRC32C */
	int no_sendfile;	/* --copy, or the device took no sendfile() */
};

/*
 * Sending what failed, with how many of its size bytes the device took
 * (size 0: a frame, not a file's data).
 */
static int send_failed(const char *what, uint64_t done, uint64_t size)
{
	dev_xfer_failed("sending", what, done, size, "slave");
	return EXIT_FAIL;
}

/* Bytes of the current file's data the device took. */
static uint64_t data_moved(const struct send_ctx *c, uint64_t size)
{
	if (c->b->moved <= c->start)
		return 0;
	return c->b->moved - c->start < size ? c->b->moved - c->start : size;
}

/*
 * After each buffer that went out: a slave that speaks before the end
 * has failed (ack.h).  1 if it did: stop sending.
 */
static int slave_spoke(struct send_ctx *c)
{
	if (c->b->moved == c->seen)
		return 0;
	c->seen = c->b->moved;
	return ack_early(c->b->fd, c->in);
}

/* The bytes of a file that went: into its CRC and its MAC. */
static void fold(void *ctx, const void *p, size_t n)
{
	struct send_ctx *c = ctx;

	c->crc = crc32c(c->crc, p, n);
	if (c->o->auth)
		hmac_sha256_update(&c->mac, p, n);
}

/*
 * fcntl mode, a mapped file (master/main.c): what is queued goes out by
 * write(), then the file from *off by sendfile() into the device, whose
 * splice_write sends the file's pages (kernel/session.c): no copy on this
 * side.  Each range that went is folded into the CRC and the MAC where it
 * is, in the mapping: a pass that reads, not a copy.  A device or kernel
 * that takes no sendfile() (EINVAL, ENOSYS, before anything went that
 * way) leaves *off for the copy in send_file().
 */
static int send_spliced(struct send_ctx *c, struct infile *f, uint64_t *off)
{
	size_t want;
	ssize_t n;

	if (tx_flush(c->b))
		return send_failed(f->path, data_moved(c, f->size), f->size);
	while (*off < f->size) {
		if (slave_spoke(c))
			return EXIT_FAIL;
		want = f->size - *off < c->b->cap ? (size_t)(f->size - *off) :
						    c->b->cap;
		n = infile_sendfile(f, c->b->fd, *off, want);
		if (n < 0 && c->b->moved == c->start &&
		    (errno == EINVAL || errno == ENOSYS)) {
			c->no_sendfile = 1;
			return EXIT_OK;
		}
		if (n < 0)
			return send_failed(f->path, data_moved(c, f->size),
					   f->size);
		if (n == 0 || map_read(f->map + *off, (size_t)n, fold, c)) {
			msg("input file %s shrank while being sent (it ended at byte %llu of %llu)",
			    f->path, (unsigned long long)*off,
			    (unsigned long long)f->size);
			return EXIT_FAIL;
		}
		*off += (uint64_t)n;
		c->b->moved += (uint64_t)n;
	}
	return EXIT_OK;
}

/* Queue f's frames and data, flushing whenever the buffer is full. */
static int send_file(struct send_ctx *c, struct infile *f, unsigned int index)
{
	unsigned char hdr[FRAME_FILE_HDR_LEN];
	uint64_t off = 0;
	unsigned char *dst;
	size_t room;
	struct hmac_sha256 *mac = &c->mac;
	unsigned char sum[SHA256_LEN];
	ssize_t n;

	c->crc = 0;
	if (c->o->auth)
		auth_file_mac_init(mac, c->o->auth, index, f->size);
	frame_put_file_hdr(hdr, index, f->size);
	c->start = c->b->moved + c->b->end + sizeof(hdr);
	if (tx_put(c->b, hdr, sizeof(hdr)))
		return send_failed(f->path, 0, f->size);
	if (c->b->method == METHOD_FCNTL && f->map && !c->no_sendfile &&
	    send_spliced(c, f, &off))
		return EXIT_FAIL;
	while (off < f->size) {
		dst = tx_space(c->b, f->map ? f->map + off : NULL, &room);
		if (!dst)
			return send_failed(f->path, data_moved(c, f->size),
					   f->size);
		if (slave_spoke(c))
			return EXIT_FAIL;
		if (room > f->size - off)
			room = (size_t)(f->size - off);
		n = infile_copy(f, off, dst, room, &c->crc);
		if (n < 0)
			return EXIT_FAIL;
		if (c->o->auth)
			hmac_sha256_update(mac, dst, (size_t)n);
		tx_commit(c->b, (size_t)n);
		off += (uint64_t)n;
	}
	if (infile_check_size(f))
		return EXIT_FAIL;
	frame_put_trailer(hdr, c->crc);
	if (tx_put(c->b, hdr, FRAME_TRAILER_LEN))
		return send_failed(f->path, data_moved(c, f->size), f->size);
	if (c->o->auth) {
		hmac_sha256_final(mac, sum);
		if (tx_put(c->b, sum, sizeof(sum)))
			return send_failed(f->path, data_moved(c, f->size),
					   f->size);
	}
	if (c->o->verbose)
		printf("%s: %llu bytes, crc32c 0x%08x\n", f->path,
		       (unsigned long long)f->size, c->crc);
	return EXIT_OK;
}

int xfer_send(struct devbuf *b, struct infile *files, unsigned int n,
	      const struct xfer_opts *o, struct ack_in *in)
{
	struct send_ctx c = { .b = b, .o = o, .in = in, .seen = b->moved,
			      .no_sendfile = o->copy };
	unsigned char hdr[FRAME_STREAM_HDR_LEN];
	unsigned int i;
	int ret;

	frame_put_stream_hdr(hdr, n);
	if (tx_put(b, hdr, sizeof(hdr)))
		return send_failed("the stream header", 0, 0);
	for (i = 0; i < n; i++) {
		ret = send_file(&c, &files[i], i);
		/* A MAC given up with its file is key-derived state. */
		hmac_sha256_wipe(&c.mac);
		if (ret)
			return ret;
		/*
		 * Not followed by a look for the slave's answer: after the
		 * last file the answer may be a positive one, read by
		 * ack_wait; the next tx_space looks.
		 */
		if (b->end >= XFER_EARLY_FLUSH && tx_flush(b))
			return send_failed(files[i].path,
					   data_moved(&c, files[i].size),
					   files[i].size);
	}
	if (tx_flush(b))
		return n ? send_failed(files[n - 1].path,
				       data_moved(&c, files[n - 1].size),
				       files[n - 1].size) :
			   send_failed("the stream header", 0, 0);
	return EXIT_OK;
}

void xfer_send_pages(const struct devbuf *b, const struct infile *files,
		     unsigned int n)
{
	unsigned int i;

	/* The first non-empty file is mapped (master/main.c). */
	for (i = 0; i < n && !files[i].map; i++)
		;
	dev_print_pages(b->fd, i < n ? files[i].map : NULL);
}
