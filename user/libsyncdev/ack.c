// SPDX-License-Identifier: GPL-2.0
#include "ack.h"
#include "auth.h"
#include "device.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* Keyed: the answer is followed by its MAC (auth.h). */
static const struct auth_session *ack_auth;

void ack_set_auth(const struct auth_session *s)
{
	ack_auth = s;
}

int ack_send(int fd, unsigned int status, uint32_t index, uint32_t files)
{
	struct frame_result r;
	unsigned char buf[FRAME_RESULT_MAX_LEN + SHA256_LEN];
	const char *why = "";
	int err = 0;
	size_t len;

	if (status != FRAME_ST_OK)
		why = msg_last(&err);
	r.status = status;
	r.index = index;
	r.files = files;
	r.err = (uint32_t)err;
	r.reason_len = strnlen(why, FRAME_REASON_MAX);
	memcpy(r.reason, why, r.reason_len);
	len = frame_put_result(buf, &r);
	if (ack_auth) {
		auth_answer_mac(ack_auth, buf, len, buf + len);
		len += SHA256_LEN;
	}
	return write_full(fd, buf, len) < 0 ? -1 : 0;
}

/* Read and drop the rest of the stream, until the sender closes. */
static void drain(int fd)
{
	static unsigned char buf[1 << 16];
	ssize_t n;

	do
		n = read(fd, buf, sizeof(buf));
	while (n > 0 || (n < 0 && errno == EINTR));
}

int ack_answer(int fd, int ret, unsigned int status, uint32_t index,
	       uint32_t files, const char *peer)
{
	if (ack_send(fd, status, index, files) == 0) {
		if (ret && status != FRAME_ST_RECV)
			drain(fd);
		return ret;
	}
	if (ret)
		return ret;
	msg_errno("%u %s verified and in place, but the %s could not be told%s",
		  files, files == 1 ? "file is" : "files are", peer,
		  dev_peer_hint(errno, peer));
	return EXIT_FAIL;
}

enum { READ_OK, READ_ERRNO, READ_EOF, READ_BAD };

/* Make in hold want bytes, reading the rest; what it holds, or -1. */
static ssize_t fill(int fd, struct ack_in *in, size_t want)
{
	ssize_t n;

	if (in->len < want) {
		n = read_full(fd, in->buf + in->len, want - in->len);
		if (n < 0)
			return -1;
		in->len += (size_t)n;
	}
	return (ssize_t)in->len;
}

/* One result message; *bad is the FRAME_E* code of READ_BAD. */
static int read_result(int fd, struct ack_in *in, struct frame_result *r,
		       int *bad)
{
	ssize_t got = fill(fd, in, FRAME_RESULT_HDR_LEN);

	if (got < 0)
		return READ_ERRNO;
	if (got == 0)
		return READ_EOF;
	*bad = frame_get_result_hdr(in->buf, (size_t)got, r);
	if (*bad)
		return READ_BAD;
	got = fill(fd, in, FRAME_RESULT_HDR_LEN + r->reason_len);
	if (got < 0)
		return READ_ERRNO;
	if ((size_t)got < FRAME_RESULT_HDR_LEN + r->reason_len) {
		*bad = FRAME_ETRUNC;
		return READ_BAD;
	}
	frame_get_reason(in->buf + FRAME_RESULT_HDR_LEN, r);
	return READ_OK;
}

/* The receiver's answer as a message; EXIT_OK only if it is all good. */
static int report(const struct frame_result *r, unsigned int n,
		  char *const *names, const char *peer)
{
	const char *why = r->reason_len ? r->reason :
					  frame_status_name(r->status);

	if (r->status == FRAME_ST_OK) {
		if (r->files == n && r->index == FRAME_NO_FILE)
			return EXIT_OK;
		msg("the %s confirmed %u files, but %u were sent", peer,
		    r->files, n);
	} else if (r->index < n) {
		msg("the %s failed with file %u of %u (%s): %s [%u in place there]",
		    peer, r->index + 1, n, names[r->index], why, r->files);
	} else {
		msg("the %s failed: %s", peer, why);
	}
	return EXIT_FAIL;
}

/* Keyed: the MAC that follows the answer in in is the answer's. */
static int answer_mac_ok(int fd, struct ack_in *in,
			 const struct frame_result *r)
{
	size_t len = FRAME_RESULT_HDR_LEN + r->reason_len;
	unsigned char want[SHA256_LEN];
	ssize_t got = fill(fd, in, len + SHA256_LEN);

	if (got < 0 || (size_t)got < len + SHA256_LEN) {
		msg("the confirmation carries no MAC (a slave without --key?)");
		return 0;
	}
	auth_answer_mac(ack_auth, in->buf, len, want);
	if (mac_equal(want, in->buf + len, SHA256_LEN))
		return 1;
	msg("the confirmation's MAC is wrong: it is not from a holder of the key");
	return 0;
}

int ack_wait(int fd, struct ack_in *in, unsigned int n, char *const *names,
	     const char *peer)
{
	struct frame_result r;
	int bad = 0;

	switch (read_result(fd, in, &r, &bad)) {
	case READ_OK:
		if (ack_auth && !answer_mac_ok(fd, in, &r))
			return EXIT_FAIL;
		return report(&r, n, names, peer);
	case READ_EOF:
		msg("the %s closed the connection without confirming the transfer (it failed or was killed: see its messages)",
		    peer);
		break;
	case READ_BAD:
		msg("malformed confirmation from the %s: %s", peer,
		    frame_strerror(bad));
		break;
	default:
		if (errno == EAGAIN)	/* a socket's SO_RCVTIMEO */
			errno = ETIMEDOUT;
		if (errno == ETIMEDOUT)
			msg_errno("no confirmation from the %s after the last byte%s",
				  peer, dev_peer_hint(errno, peer));
		else if (dev_peer_gone(errno))
			msg_errno("the %s is gone before confirming the transfer",
				  peer);
		else
			msg_errno("waiting for the %s's confirmation", peer);
	}
	return EXIT_FAIL;
}

/* Run read_result without blocking. */
static int read_now(int fd, struct ack_in *in, struct frame_result *r)
{
	int flags = fcntl(fd, F_GETFL), bad, ret;

	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK))
		return READ_ERRNO;
	ret = read_result(fd, in, r, &bad);
	fcntl(fd, F_SETFL, flags);
	return ret;
}

int ack_early(int fd, struct ack_in *in)
{
	int flags = fcntl(fd, F_GETFL);
	ssize_t n;

	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK))
		return 0;
	do
		n = read(fd, in->buf + in->len, sizeof(in->buf) - in->len);
	while (n < 0 && errno == EINTR);
	fcntl(fd, F_SETFL, flags);
	if (n > 0)
		in->len += (size_t)n;
	return in->len > 0;
}

int ack_failed(int fd, struct ack_in *in, unsigned int n, char *const *names,
	       const char *peer)
{
	struct frame_result r;

	if (!in->len) {
		if (read_now(fd, in, &r) == READ_OK)
			report(&r, n, names, peer);
	} else if (ack_wait(fd, in, n, names, peer) == EXIT_OK) {
		msg("the %s confirmed the transfer before it was complete",
		    peer);
	}
	return EXIT_FAIL;
}
