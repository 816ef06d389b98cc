// SPDX-License-Identifier: GPL-2.0
#include "tcpcopy.h"
#include "ack.h"
#include "device.h"
#include "infile.h"
#include "tcp.h"
#include "util.h"
#include "cli/xfer_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static int send_failed(const struct infile *f, uint64_t off)
{
	tcp_fix_errno();
	dev_xfer_failed("sending", f->path, off, f->size, "receiver");
	return EXIT_FAIL;
}

/*
 * The size, the data and (with o->crc) its CRC32C; stops early, silently,
 * when the receiver answers before the end (it failed: ack.h).
 */
/* Keyed: the MAC of the data after it. */
static int send_mac(int fd, struct hmac_sha256 *mac)
{
	unsigned char sum[SHA256_LEN];

	hmac_sha256_final(mac, sum);
	return write_full(fd, sum, sizeof(sum)) < 0 ? -1 : 0;
}

static int send_stream(int fd, struct infile *f, const struct tcpcopy_opts *o,
		       struct ack_in *in)
{
	struct hmac_sha256 mac;

	unsigned char word[8];
	char *buf = xmalloc(o->bufsize);
	uint64_t off = 0;
	uint32_t sum = 0;
	int ret = EXIT_FAIL;
	ssize_t n;

	if (o->key_path)
		auth_file_mac_init(&mac, &o->sess, 0, f->size);
	put_le(word, f->size, 8);
	if (write_full(fd, word, 8) < 0)
		goto fail;
	n = o->zerocopy ? tcpcopy_zc_send(fd, f, &off, o, in) : 0;
	if (n == -1)
		goto fail;
	if (n)
		goto out;
	while (off < f->size) {
		n = infile_copy(f, off, buf, f->size - off < o->bufsize ?
				(size_t)(f->size - off) : o->bufsize,
				o->crc ? &sum : NULL);
		if (n < 0)
			goto out;
		if (o->key_path)
			hmac_sha256_update(&mac, buf, (size_t)n);
		if (write_full(fd, buf, (size_t)n) < 0)
			goto fail;
		off += (uint64_t)n;
		/* Not after the last: then a positive answer may come. */
		if (off < f->size && ack_early(fd, in))
			goto out;
	}
	if (infile_check_size(f))
		goto out;
	put_le(word, sum, 4);
	if (o->crc && write_full(fd, word, 4) < 0)
		goto fail;
	if (o->key_path && send_mac(fd, &mac))
		goto fail;
	ret = EXIT_OK;
	goto out;
fail:
	ret = send_failed(f, off);
out:
	free(buf);
	return ret;
}

int tcpcopy_send(const char *path, uint16_t port, struct tcpcopy_opts *o)
{
	char *names[] = { (char *)path };
	struct ack_in in = { .len = 0 };
	struct infile f;
	uint64_t t0;
	int fd, ret;

	if (infile_open(&f, path, 0))
		return EXIT_FAIL;
	fd = tcpcopy_link_accept(port, o);
	if (fd < 0)
		return EXIT_FAIL;
	if (o->key_path) {
		ret = tcpcopy_link_auth(fd, 1, o);
		if (ret)
			return ret;
		ack_set_auth(&o->sess);
	}

	t0 = now_ns();
	ret = send_stream(fd, &f, o, &in);
	if (ret)
		return ack_failed(fd, &in, 1, names, "receiver");
	ret = ack_wait(fd, &in, 1, names, "receiver");
	if (ret)
		return ret;
	xfer_print_time(now_ns() - t0, f.size);
	if (close(fd))
		die_errno("closing the connection");
	infile_close(&f);
	return EXIT_OK;
}
