// SPDX-License-Identifier: GPL-2.0
#include "tcpcopy.h"
#include "ack.h"
#include "device.h"
#include "outfile/outfile.h"
#include "tcp.h"
#include "util.h"
#include "xfer.h"
#include "cli/xfer_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

/* A failed or short read of what: the message; EXIT_FAIL, status RECV. */
static int recv_failed(ssize_t n, const char *what, uint64_t done,
		       uint64_t size, struct xfer_report *r)
{
	r->status = FRAME_ST_RECV;
	if (n == 0) {
		msg("the sender closed the connection in %s (after %llu of %llu bytes)",
		    what, (unsigned long long)done, (unsigned long long)size);
		return EXIT_FAIL;
	}
	tcp_fix_errno();
	dev_xfer_failed("receiving", what, done, size, "sender");
	return EXIT_FAIL;
}

/* The size bytes of the data into f; their CRC32C into *sum if crc. */
static int recv_data(int fd, struct outfile *f, const struct tcpcopy_opts *o,
		     uint32_t *sum, struct xfer_report *r,
		     struct hmac_sha256 *mac)
{
	int zc = o->zerocopy;
	char *buf = xmalloc(o->bufsize);
	uint64_t total = 0;
	ssize_t n = 1;

	if (zc)
		n = tcpcopy_zc_recv(fd, f->fd, f->size, &total, o);
	if (n == -3) {
		zc = 0;		/* no splice() out of fd: read() it */
		n = 1;
	}
	if (n == -2) {
		dev_xfer_failed("writing", f->path, total, f->size, "sender");
		r->status = FRAME_ST_STORE;
	}
	while (!zc && total < f->size) {
		do
			n = read(fd, buf, f->size - total < o->bufsize ?
				 (size_t)(f->size - total) : o->bufsize);
		while (n < 0 && errno == EINTR);
		if (n <= 0)
			break;
		if (outfile_write(f, total, buf, (size_t)n,
				  o->crc ? sum : NULL)) {
			dev_xfer_failed("writing", f->path, total, f->size,
					"sender");
			r->status = FRAME_ST_STORE;
			n = -2;
			break;
		}
		if (o->key_path)
			hmac_sha256_update(mac, buf, (size_t)n);
		total += (uint64_t)n;
	}
	free(buf);
	if (n == -2)
		return EXIT_FAIL;
	return n <= 0 ? recv_failed(n, f->path, total, f->size, r) : EXIT_OK;
}

/* The CRC32C word after the data, against the one computed. */
static int check_crc(int fd, uint32_t sum, struct xfer_report *r)
{
	unsigned char word[4];
	ssize_t n = read_full(fd, word, 4);

	if (n != 4)
		return recv_failed(n < 0 ? -1 : 0, "the CRC32C", (uint64_t)
				   (n < 0 ? 0 : n), 4, r);
	if (get_le(word, 4) == sum)
		return EXIT_OK;
	msg("CRC32C mismatch: received data 0x%08x, sender 0x%08x", sum,
	    (unsigned)get_le(word, 4));
	r->status = FRAME_ST_CRC;
	return EXIT_CORRUPT;
}

/* Keyed: the MAC after the data against the one computed. */
static int check_mac(int fd, struct hmac_sha256 *mac, struct xfer_report *r)
{
	unsigned char sent[SHA256_LEN], want[SHA256_LEN];
	ssize_t n = read_full(fd, sent, sizeof(sent));

	if (n != (ssize_t)sizeof(sent))
		return recv_failed(n < 0 ? -1 : 0, "the MAC", (uint64_t)
				   (n < 0 ? 0 : n), sizeof(sent), r);
	hmac_sha256_final(mac, want);
	if (mac_equal(sent, want, sizeof(want)))
		return EXIT_OK;
	msg("MAC mismatch: the data is not what a holder of the key sent");
	r->status = FRAME_ST_CRC;
	return EXIT_CORRUPT;
}

static int recv_stream(int fd, const char *path, const struct tcpcopy_opts *o,
		       struct xfer_report *r)
{
	struct hmac_sha256 mac;
	unsigned char word[8];
	struct outfile f;
	uint32_t sum = 0;
	ssize_t n = read_full(fd, word, 8);
	int ret;

	if (n != 8)
		return recv_failed(n < 0 ? -1 : 0, "the size",
				   (uint64_t)(n < 0 ? 0 : n), 8, r);
	if (outfile_create(&f, path, get_le(word, 8), 0)) {
		r->status = FRAME_ST_STORE;
		return EXIT_FAIL;
	}
	if (o->key_path)
		auth_file_mac_init(&mac, &o->sess, 0, f.size);
	ret = recv_data(fd, &f, o, &sum, r, &mac);
	if (!ret && o->crc)
		ret = check_crc(fd, sum, r);
	if (!ret && o->key_path)
		ret = check_mac(fd, &mac, r);
	if (ret) {
		outfile_abort(&f);
		return ret;
	}
	if (outfile_commit(&f)) {
		r->status = FRAME_ST_STORE;
		return EXIT_FAIL;
	}
	r->files = 1;
	r->total = f.size;
	return EXIT_OK;
}

int tcpcopy_recv(struct in_addr addr, uint16_t port, const char *path,
		 struct tcpcopy_opts *o)
{
	struct xfer_report r = { .index = 0 };
	char *target = outfile_check(path, NULL);
	uint64_t t0, t1;
	int fd, ret;

	if (!target)
		return EXIT_FAIL;
	outfile_remove_on_signals();
	fd = tcpcopy_link_connect(addr, port, o);
	if (fd < 0)
		return EXIT_FAIL;
	if (o->key_path) {
		ret = tcpcopy_link_auth(fd, 0, o);
		if (ret)
			return ret;
		ack_set_auth(&o->sess);
	}

	t0 = now_ns();
	ret = recv_stream(fd, target, o, &r);
	t1 = now_ns();
	if (!ret)
		r.index = FRAME_NO_FILE;
	ret = ack_answer(fd, ret, r.status, r.index, r.files, "sender");
	if (ret)
		return ret;
	xfer_print_time(t1 - t0, r.total);
	close(fd);
	free(target);
	return EXIT_OK;
}
