// SPDX-License-Identifier: GPL-2.0
#include "auth.h"
#include "crc32c.h"
#include "device.h"
#include "frame.h"
#include "outfile/outfile.h"
#include "util.h"
#include "xfer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Record what failed for the answer to the master; returns code. */
static int failed(struct xfer_report *r, unsigned int status, int code)
{
	r->status = status;
	return code;
}

/* A failed read: its errno, with a hint when the master is to blame. */
static int recv_failed(struct xfer_report *r, const char *what,
		       uint64_t done, uint64_t size)
{
	dev_xfer_failed("receiving", what, done, size, "master");
	return failed(r, FRAME_ST_RECV, EXIT_FAIL);
}

/*
 * A frame, named for messages only: "the KIND of file N", or KIND alone
 * (FRAME_NO_FILE).  Named when a message needs it, not per file: a
 * thousand small files would otherwise cost more in snprintf than in
 * their parsing.
 */
struct frame_at {
	const char *kind;
	unsigned int index;
};

static const char *frame_name(struct frame_at at, char *buf, size_t len)
{
	if (at.index == FRAME_NO_FILE)
		return at.kind;
	snprintf(buf, len, "the %s of file %u", at.kind, at.index + 1);
	return buf;
}

/*
 * Read one fixed-size frame header.  Returns the bytes read (fewer only
 * when the stream ended) or -1 after a message.
 */
static ssize_t read_hdr(struct devbuf *b, void *hdr, size_t len,
			struct frame_at at, struct xfer_report *r)
{
	ssize_t got = rx_read(b, hdr, len);
	char what[64];

	if (got < 0)
		recv_failed(r, frame_name(at, what, sizeof(what)), 0, 0);
	return got;
}

/* A decode error: the stream ended early (a failure) or is not ours. */
static int bad_frame(struct xfer_report *r, int err, struct frame_at at,
		     ssize_t got, size_t len)
{
	char buf[64];
	const char *what = frame_name(at, buf, sizeof(buf));

	if (err == FRAME_ETRUNC) {
		msg("the master closed the connection in %s (after %zd of %zu bytes)",
		    what, got, len);
		return failed(r, FRAME_ST_RECV, EXIT_FAIL);
	}
	msg("corrupt stream from the master in %s: %s", what,
	    frame_strerror(err));
	return failed(r, FRAME_ST_FRAMING, EXIT_CORRUPT);
}

/*
 * fcntl mode: the data of a file, XFER_MAP_MIN and up, goes from the
 * device into the file by splice() through this pipe whenever the buffer
 * holds none of it: the device's splice_read hands over the socket's
 * pages and the file copies them once, where read() and write() copy
 * twice (docs/copies.md).  fd[0] < 0: read() and write() (mmap mode,
 * --copy, or a device, kernel or file system that refused).
 */
struct rx_pipe {
	int fd[2];
	size_t cap;		/* at most the buffer's: a refusal drains into it */
};

static void rx_pipe_open(struct rx_pipe *rp, const struct devbuf *b,
			 const struct xfer_opts *o)
{
	int cap;

	rp->fd[0] = rp->fd[1] = -1;
	if (b->method != METHOD_FCNTL || o->copy || pipe2(rp->fd, O_CLOEXEC))
		return;
	(void)fcntl(rp->fd[1], F_SETPIPE_SZ, (int)(b->cap < 1u << 20 ?
						   b->cap : 1u << 20));
	cap = fcntl(rp->fd[1], F_GETPIPE_SZ);
	rp->cap = cap > 0 && (size_t)cap < b->cap ? (size_t)cap : b->cap;
}

static void rx_pipe_close(struct rx_pipe *rp)
{
	if (rp->fd[0] < 0)
		return;
	close(rp->fd[0]);
	close(rp->fd[1]);
	rp->fd[0] = rp->fd[1] = -1;
}

/* Where the CRC and the MAC of what went into the file are folded. */
struct rx_fold {
	uint32_t *crc;
	struct hmac_sha256 *mac;	/* NULL: no key */
};

static void rx_fold(void *ctx, const void *p, size_t n)
{
	struct rx_fold *c = ctx;

	*c->crc = crc32c(*c->crc, p, n);
	if (c->mac)
		hmac_sha256_update(c->mac, p, n);
}

/*
 * Up to the pipe's room of f's data from off, device → pipe → file.
 * Returns the bytes now in f (folded), 0 when the master closed, -1
 * (errno) when receiving failed, -2 when storing did, or -3 when the
 * device or the file refused splice() (rp closed; what the pipe held is
 * in b's buffer, for read()'s path).
 */
static ssize_t recv_spliced(struct devbuf *b, struct outfile *f, uint64_t off,
			    struct rx_pipe *rp, struct rx_fold *c)
{
	size_t want = f->size - off < rp->cap ? (size_t)(f->size - off) :
		      rp->cap;
	ssize_t n;
	int r;

	do
		n = splice(b->fd, NULL, rp->fd[1], NULL, want, SPLICE_F_MOVE);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EINVAL || errno == ENOSYS)) {
		rx_pipe_close(rp);
		return -3;
	}
	if (n <= 0)
		return n;
	r = outfile_splice(f, off, rp->fd[0], (size_t)n, rx_fold, c, b->buf,
			   b->cap);
	if (r <= 0)
		return r ? -2 : n;
	if (read_full(rp->fd[0], b->buf, (size_t)n) != n)
		return -2;
	b->pos = 0;
	b->end = (size_t)n;
	rx_pipe_close(rp);
	return -3;
}

/* The master closed the connection in the middle of f's data. */
static int closed_in(struct outfile *f, uint64_t off, struct xfer_report *r)
{
	msg("the master closed the connection in the middle of %s (after %llu of %llu bytes)",
	    f->path, (unsigned long long)off, (unsigned long long)f->size);
	return failed(r, FRAME_ST_RECV, EXIT_FAIL);
}

static int store_failed(struct outfile *f, uint64_t off,
			struct xfer_report *r)
{
	dev_xfer_failed("writing", f->path, off, f->size, "master");
	return failed(r, FRAME_ST_STORE, EXIT_FAIL);
}

/* Move size bytes from the stream into f, returning their CRC in *crc. */
static int recv_data(struct devbuf *b, struct outfile *f, uint32_t *crc,
		     struct xfer_pages *pg, const struct xfer_opts *o,
		     struct xfer_report *r, struct hmac_sha256 *mac,
		     struct rx_pipe *rp)
{
	struct rx_fold fc = { crc, o->auth ? mac : NULL };
	const unsigned char *p;
	uint64_t off = 0;
	ssize_t n;

	*crc = 0;
	while (off < f->size) {
		if (rp->fd[0] >= 0 && b->pos == b->end && !f->map &&
		    f->size - off >= XFER_MAP_MIN) {
			n = recv_spliced(b, f, off, rp, &fc);
			if (n == -1)
				return recv_failed(r, f->path, off, f->size);
			if (n == -2)
				return store_failed(f, off, r);
			if (n == 0)
				return closed_in(f, off, r);
			if (n > 0) {
				off += (uint64_t)n;
				continue;
			}
		}
		n = rx_peek(b, f->size - off < SIZE_MAX ?
			       (size_t)(f->size - off) : SIZE_MAX,
			    f->map ? f->map + off : NULL, &p);
		if (n < 0)
			return recv_failed(r, f->path, off, f->size);
		if (n == 0)
			return closed_in(f, off, r);
		if (outfile_write(f, off, p, (size_t)n, crc))
			return store_failed(f, off, r);
		if (o->auth)
			hmac_sha256_update(mac, p, (size_t)n);
		rx_consume(b, (size_t)n);
		off += (uint64_t)n;
		if (o->print_pages)
			dev_print_pages_once(b->fd, f->map, &pg->taken);
	}
	return EXIT_OK;
}

/* The trailer of f: its CRC must be the one computed while receiving. */
static int check_trailer(struct devbuf *b, struct outfile *f, uint32_t crc,
			 unsigned int index, struct xfer_report *r)
{
	unsigned char t[FRAME_TRAILER_LEN];
	struct frame_at at = { "trailer", index };
	uint32_t sent;
	ssize_t got;
	int err;

	got = read_hdr(b, t, FRAME_TRAILER_LEN, at, r);
	if (got < 0)
		return EXIT_FAIL;
	err = frame_get_trailer(t, (size_t)got, &sent);
	if (err)
		return bad_frame(r, err, at, got, FRAME_TRAILER_LEN);
	if (sent != crc) {
		msg("CRC mismatch in %s: sent 0x%08x, received 0x%08x",
		    f->path, sent, crc);
		return failed(r, FRAME_ST_CRC, EXIT_CORRUPT);
	}
	return EXIT_OK;
}

/* Keyed: the MAC after the trailer must be the one of what arrived. */
static int check_mac(struct devbuf *b, struct outfile *f,
		     struct hmac_sha256 *mac, unsigned int index,
		     struct xfer_report *r)
{
	unsigned char sent[SHA256_LEN], want[SHA256_LEN];
	struct frame_at at = { "MAC", index };
	ssize_t got;
	int ok;

	got = read_hdr(b, sent, sizeof(sent), at, r);
	if (got < 0)
		return EXIT_FAIL;
	if ((size_t)got < sizeof(sent))
		return bad_frame(r, FRAME_ETRUNC, at, got, sizeof(sent));
	hmac_sha256_final(mac, want);
	ok = mac_equal(sent, want, sizeof(want));
	explicit_bzero(want, sizeof(want));
	if (!ok) {
		msg("MAC mismatch in %s: the data is not what a holder of the key sent",
		    f->path);
		return failed(r, FRAME_ST_CRC, EXIT_CORRUPT);
	}
	return EXIT_OK;
}

/* outfile_create's flags for file index of size bytes. */
static unsigned int out_flags(const struct devbuf *b, const struct xfer_opts *o,
			      unsigned int index, uint64_t size)
{
	unsigned int flags = 0;

	/* mmap mode: small files are written with write() (xfer.h). */
	if (b->method == METHOD_MMAP && size >= XFER_MAP_MIN)
		flags |= OUTFILE_MAP;
	if (o->absent && o->absent[index])
		flags |= OUTFILE_ABSENT;
	return flags;
}

/*
 * The first non-empty file, written with write(): its first page mapped
 * and its first byte stored again now, while the file is the slave's
 * alone (a store after its link could undo another writer's), and
 * logged after the answer (xfer_recv_pages).  The page stays mapped
 * until the program exits: an munmap is a TLB flush, at exit a page more
 * of the teardown.  Without the mapping, the buffer's line alone, now.
 */
static void map_for_page(const struct devbuf *b, struct xfer_pages *pg,
			 const struct outfile *f)
{
	pg->taken = 1;
	pg->page = outfile_map_page(f);
	if (!pg->page)
		dev_print_pages(b->fd, NULL);
}

void xfer_recv_pages(const struct devbuf *b, struct xfer_pages *pg, int ok)
{
	/* Only empty files (ok): the device buffer is all there is to show. */
	if (pg->page || (!pg->taken && ok))
		dev_print_pages(b->fd, pg->page);
}

static int recv_file(struct devbuf *b, const char *path, unsigned int index,
		     const struct xfer_opts *o, struct xfer_report *r,
		     struct xfer_pages *pg, struct rx_pipe *rp)
{
	unsigned char hdr[FRAME_FILE_HDR_LEN];
	struct frame_at at = { "header", index };
	struct hmac_sha256 mac;
	struct outfile f;
	uint32_t crc;
	uint64_t size;
	ssize_t got;
	int err, ret;

	got = read_hdr(b, hdr, FRAME_FILE_HDR_LEN, at, r);
	if (got < 0)
		return EXIT_FAIL;
	err = frame_get_file_hdr(hdr, (size_t)got, index, &size);
	if (err)
		return bad_frame(r, err, at, got, FRAME_FILE_HDR_LEN);
	if (outfile_create(&f, path, size,
			   out_flags(b, o, index, size)))
		return failed(r, FRAME_ST_STORE, EXIT_FAIL);
	if (o->auth)
		auth_file_mac_init(&mac, o->auth, index, size);
	ret = recv_data(b, &f, &crc, pg, o, r, &mac, rp);
	if (!ret)
		ret = check_trailer(b, &f, crc, index, r);
	if (!ret && o->auth)
		ret = check_mac(b, &f, &mac, index, r);
	if (o->auth)
		hmac_sha256_wipe(&mac);	/* given up, or wiped by its final */
	if (ret) {
		outfile_abort(&f);
		return ret;
	}
	if (o->print_pages && !pg->taken && size)
		map_for_page(b, pg, &f);
	if (outfile_close(&f))
		return failed(r, FRAME_ST_STORE, EXIT_FAIL);
	r->total += size;
	if (o->verbose)
		printf("%s: %llu bytes, crc32c 0x%08x\n", path,
		       (unsigned long long)size, crc);
	return EXIT_OK;
}

/*
 * The files one after the other, each closed under its temporary name once
 * verified; then the one durable point of them all (outfile_commit_all),
 * also after a failure, for the files that came before it.
 */
static int recv_files(struct devbuf *b, char *const *paths, unsigned int n,
		      const struct xfer_opts *o, struct xfer_report *r,
		      struct xfer_pages *pg)
{
	struct rx_pipe rp;
	unsigned int done;
	int ret = EXIT_OK;

	rx_pipe_open(&rp, b, o);
	for (r->index = 0; r->index < n && !ret; r->index++) {
		ret = recv_file(b, paths[r->index], r->index, o, r, pg, &rp);
		if (!ret)
			r->files++;
	}
	rx_pipe_close(&rp);
	if (!ret)
		r->index = FRAME_NO_FILE;
	else
		r->index--;
	if (!outfile_commit_all(&done))
		return ret;
	/* Not flushed or not renamed: no file is in place past done. */
	if (done < r->files) {
		r->files = done;
		r->total = 0;
		r->index = done;
		r->status = FRAME_ST_STORE;
	}
	return ret ? ret : EXIT_FAIL;
}

int xfer_recv(struct devbuf *b, char *const *paths, unsigned int n,
	      const struct xfer_opts *o, struct xfer_report *r,
	      struct xfer_pages *pg)
{
	const struct frame_at stream = { "the stream header", FRAME_NO_FILE };
	unsigned char hdr[FRAME_STREAM_HDR_LEN];
	uint32_t nfiles;
	ssize_t got;
	int err;

	*r = (struct xfer_report){ .index = FRAME_NO_FILE };
	*pg = (struct xfer_pages){ .page = NULL };
	got = read_hdr(b, hdr, sizeof(hdr), stream, r);
	if (got < 0)
		return EXIT_FAIL;
	if (got >= 4 && !memcmp(hdr, AUTH_MASTER_MAGIC, 4)) {
		msg("the master starts a key handshake (it runs with --key) and this slave has no key: nothing received");
		return failed(r, FRAME_ST_FRAMING, EXIT_AUTH);
	}
	err = frame_get_stream_hdr(hdr, (size_t)got, &nfiles);
	if (err)
		return bad_frame(r, err, stream, got, sizeof(hdr));
	if (nfiles != n) {
		msg("the master sends %u files, the slave expects %u",
		    nfiles, n);
		return failed(r, FRAME_ST_COUNT, EXIT_FAIL);
	}
	return recv_files(b, paths, n, o, r, pg);
}
