// SPDX-License-Identifier: GPL-2.0
/*
 * tcpcopy with several files: the "tar | nc" baseline of osbench transfer
 * --files.  One connection; the count (4 bytes, LE), then for each file
 * its size (8 bytes, LE) and its data, packed into one buffer as tar packs
 * headers and data; the receiver writes each file as tar -x does: open
 * (O_CREAT | O_TRUNC), write, close, under its final name, with no
 * temporary file and no flush to the disk; with --rename, as the slave
 * writes them, under temporary names renamed into place after the last,
 * still without a flush.  Then the answer of master and slave (ack.h).
 */
#include "tcpcopy.h"
#include "ack.h"
#include "frame.h"
#include "infile.h"
#include "outfile/outfile.h"
#include "tcp.h"
#include "util.h"
#include "xfer.h"
#include "cli/xfer_cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A buffer of the stream, either way. */
struct sbuf {
	int fd;
	unsigned char *buf;
	size_t cap, pos, end;
};

/* What is queued, out: 0 or -1 with errno. */
static int flush(struct sbuf *s)
{
	if (write_full(s->fd, s->buf, s->end) < 0)
		return -1;
	s->end = 0;
	return 0;
}

static int put(struct sbuf *s, const void *p, size_t n)
{
	size_t k;

	while (n) {
		if (s->end == s->cap && flush(s))
			return -1;
		k = s->cap - s->end < n ? s->cap - s->end : n;
		memcpy(s->buf + s->end, p, k);
		s->end += k;
		p = (const unsigned char *)p + k;
		n -= k;
	}
	return 0;
}

/* The files, count, sizes and data; 0 or -1 after a message. */
static int send_files(struct sbuf *s, struct infile *f, unsigned int n)
{
	unsigned char word[8];
	uint64_t off;
	size_t room;
	unsigned int i;
	ssize_t got;

	put_le(word, n, 4);
	if (put(s, word, 4))
		return -1;
	for (i = 0; i < n; i++) {
		put_le(word, f[i].size, 8);
		if (put(s, word, 8))
			return -1;
		for (off = 0; off < f[i].size; off += (uint64_t)got) {
			if (s->end == s->cap && flush(s))
				return -1;
			room = s->cap - s->end;
			if (room > f[i].size - off)
				room = (size_t)(f[i].size - off);
			got = infile_copy(&f[i], off, s->buf + s->end, room,
					  NULL);
			if (got < 0)
				return -1;
			s->end += (size_t)got;
		}
	}
	return flush(s);
}

int tcpcopy_send_files(char **paths, unsigned int n, uint16_t port,
		       struct tcpcopy_opts *o)
{
	struct infile *f = xcalloc(n, sizeof(*f));
	struct ack_in in = { .len = 0 };
	struct sbuf s = { .cap = o->bufsize };
	uint64_t t0, total = 0;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		if (infile_open(&f[i], paths[i], 0))
			return EXIT_FAIL;
		total += f[i].size;
	}
	s.fd = tcpcopy_link_accept(port, o);
	if (s.fd < 0)
		return EXIT_FAIL;
	s.buf = xmalloc(s.cap);
	t0 = now_ns();
	if (send_files(&s, f, n)) {
		tcp_fix_errno();
		msg_errno("sending the files");
		return ack_failed(s.fd, &in, n, paths, "receiver");
	}
	ret = ack_wait(s.fd, &in, n, paths, "receiver");
	if (ret)
		return ret;
	xfer_print_time(now_ns() - t0, total);
	for (i = 0; i < n; i++)
		infile_close(&f[i]);
	free(f);
	free(s.buf);
	close(s.fd);
	return EXIT_OK;
}

/* Bytes waiting in s, reading when there are none: 0 at the end, or -1. */
static ssize_t fill(struct sbuf *s)
{
	ssize_t got;

	if (s->pos < s->end)
		return (ssize_t)(s->end - s->pos);
	do
		got = read(s->fd, s->buf, s->cap);
	while (got < 0 && errno == EINTR);
	s->pos = 0;
	s->end = got > 0 ? (size_t)got : 0;
	return got;
}

/* n bytes into dst: 0, or -1 (errno, or 0 at the end of the stream). */
static int get(struct sbuf *s, void *dst, size_t n)
{
	size_t k;
	ssize_t got;

	while (n) {
		got = fill(s);
		if (got <= 0) {
			if (got == 0)
				errno = EPIPE;
			return -1;
		}
		k = (size_t)got < n ? (size_t)got : n;
		memcpy(dst, s->buf + s->pos, k);
		s->pos += k;
		dst = (unsigned char *)dst + k;
		n -= k;
	}
	return 0;
}

/*
 * Where a file's bytes go: under its final name as tar -x writes it, or
 * (--rename) the slave's temporary file (outfile.h), renamed into place
 * with the others after the last.
 */
struct sink {
	int rename;
	const unsigned char *absent;	/* --rename: per file, OUTFILE_ABSENT */
	struct outfile f;
	int fd;
};

static int sink_open(struct sink *k, const char *path, unsigned int index,
		     uint64_t size)
{
	if (!k->rename) {
		k->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			     0666);
		return k->fd < 0 ? fail_errno("cannot create %s", path) : 0;
	}
	if (outfile_create(&k->f, path, size,
			   k->absent[index] ? OUTFILE_ABSENT : 0))
		return -1;
	k->fd = k->f.fd;
	return 0;
}

/* The file complete (ok) or not: 0, or -1 after a message. */
static int sink_close(struct sink *k, const char *path, int ok)
{
	if (k->rename && !ok)
		outfile_abort(&k->f);
	else if (k->rename)
		return outfile_close(&k->f);
	else if (close(k->fd) && ok)
		return fail_errno("writing %s", path);
	return 0;
}

/* One file: its size, then its data written to path. */
static int recv_one(struct sbuf *s, struct sink *k, const char *path,
		    struct xfer_report *r)
{
	unsigned char word[8];
	uint64_t size, off;
	ssize_t got;
	size_t n;

	r->status = FRAME_ST_RECV;
	if (get(s, word, 8))
		return fail_errno("receiving the size of %s", path);
	size = get_le(word, 8);
	r->status = FRAME_ST_STORE;
	if (sink_open(k, path, r->index, size))
		return -1;
	for (off = 0; off < size; off += n) {
		got = fill(s);
		if (got <= 0) {
			r->status = FRAME_ST_RECV;
			msg_errno("receiving %s", path);
			sink_close(k, path, 0);
			return -1;
		}
		n = (uint64_t)got < size - off ? (size_t)got :
						 (size_t)(size - off);
		if (write_full(k->fd, s->buf + s->pos, n) < 0) {
			msg_errno("writing %s", path);
			sink_close(k, path, 0);
			return -1;
		}
		s->pos += n;
	}
	if (sink_close(k, path, 1))
		return -1;
	r->total += size;
	return 0;
}

/*
 * --rename: what the slave does after the last file, less the flush: every
 * temporary file renamed into place.  0, or -1 with *r saying how many are.
 */
static int sink_commit(struct sink *k, int ret, struct xfer_report *r)
{
	unsigned int done;

	if (!k->rename || !outfile_commit_all(&done) || done >= r->files)
		return ret;
	r->files = done;
	r->index = done;
	r->status = FRAME_ST_STORE;
	return -1;
}

static int recv_files(struct sbuf *s, struct sink *k, char **paths,
		      unsigned int n, struct xfer_report *r)
{
	unsigned char word[4];
	int ret = 0;

	if (get(s, word, 4)) {
		r->status = FRAME_ST_RECV;
		return fail_errno("receiving the file count");
	}
	if (get_le(word, 4) != n) {
		r->status = FRAME_ST_COUNT;
		msg("the sender sends %u files, the receiver expects %u",
		    (unsigned int)get_le(word, 4), n);
		return -1;
	}
	for (r->index = 0; r->index < n && !ret; r->index++, r->files++)
		ret = recv_one(s, k, paths[r->index], r);
	if (ret) {
		r->index--;
		r->files--;
	} else {
		r->index = FRAME_NO_FILE;
		r->status = FRAME_ST_OK;
	}
	return sink_commit(k, ret, r);
}

/*
 * --rename: each output checked as the slave checks it (a symbolic link
 * replaced by the file it leads to), and whether its name is free; exits
 * on a refused one.
 */
static unsigned char *check_outputs(char **paths, unsigned int n)
{
	unsigned char *absent = xcalloc(n, 1);
	char **targets = outfile_check_all(paths, n, absent);

	if (!targets)
		exit(EXIT_FAIL);
	memcpy(paths, targets, n * sizeof(*paths));
	free(targets);
	outfile_set_sync(0);
	outfile_remove_on_signals();
	return absent;
}

int tcpcopy_recv_files(struct in_addr addr, uint16_t port, char **paths,
		       unsigned int n, struct tcpcopy_opts *o)
{
	struct xfer_report r = { .index = 0 };
	struct sbuf s = { .cap = o->bufsize };
	struct sink k = { .rename = o->rename };
	uint64_t t0, t1;
	int ret;

	if (k.rename)
		k.absent = check_outputs(paths, n);
	s.fd = tcpcopy_link_connect(addr, port, o);
	if (s.fd < 0)
		return EXIT_FAIL;
	s.buf = xmalloc(s.cap);
	t0 = now_ns();
	ret = recv_files(&s, &k, paths, n, &r) ? EXIT_FAIL : EXIT_OK;
	t1 = now_ns();
	ret = ack_answer(s.fd, ret, r.status, r.index, r.files, "sender");
	outfile_release();
	if (ret)
		return ret;
	xfer_print_time(t1 - t0, r.total);
	free(s.buf);
	close(s.fd);
	return EXIT_OK;
}
