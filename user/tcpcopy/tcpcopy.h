/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcpcopy: the userspace baseline of "make bench-transfer".  One file over
 * one plain TCP connection with read()/write() and a large buffer, timed
 * like master and slave, and doing the same work around the data:
 *
 *	sender -> receiver	the size (8 bytes, little-endian), the data,
 *				with crc set its CRC32C (4 bytes, LE)
 *	receiver -> sender	the result message of master and slave
 *				(frame.h, ack.h): the file is in place, or
 *				why not
 *
 * The sender exits 0 only on a positive result.  With crc the stream
 * carries the same integrity check as master and slave, so that the cost
 * of the check can be told apart from the cost of the device.
 *
 * With device set (--device) the same bytes, the same loops and the same
 * answer go over syncdev instead of a socket: /dev/master_device on the
 * sending side, /dev/slave_device on the receiving one (the kernel's
 * stream is two-way), so that osbench transfer can measure what the device
 * alone costs against plain TCP.
 */
#ifndef TCPCOPY_H
#define TCPCOPY_H

#include "auth.h"

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define TCPCOPY_DEFAULT_PORT	2326	/* next to syncdev's 2325 */

struct tcpcopy_opts {
	size_t bufsize;
	int crc;
	uint32_t wait_ms;	/* recv: retry a refused connection */
	uint32_t progress_s;	/* 0: no progress timeout */
	int device;		/* --device: over syncdev, not a socket */
	const char *device_path;	/* --device=PATH, NULL: the side's */
	int zerocopy;		/* --zerocopy: sendfile/splice, zerocopy.c */
	int tar;		/* --tar, or several files: files.c */
	int rename;		/* --rename: recv --tar under temporary names */
	const char *key_path;	/* --key: keyed, as master and slave */
	struct auth_key key;
	struct auth_session sess;	/* after the handshake */
	int hs_kernel;	/* --device --key: the kernel holds the deadline */
};

int tcpcopy_send(const char *path, uint16_t port, struct tcpcopy_opts *o);
int tcpcopy_recv(struct in_addr addr, uint16_t port, const char *path,
		 struct tcpcopy_opts *o);

/*
 * --zerocopy (zerocopy.c), one file: the data of f from *off to its end
 * by sendfile() (0 with *off unchanged when the first call is EINVAL or
 * ENOSYS: the caller copies), *off advanced; 0, -1 with errno on a socket
 * error, or -2 (after a message, or silently when ack_early() said the
 * receiver failed).  The receiver: size bytes from sock into the file fd
 * by splice() through a pipe, *done advanced; the last splice()'s result
 * (> 0 or, size 0, 1: all in; 0: the sender closed; -1: errno), -2
 * when writing the file failed (errno), or -3 when the first splice() is
 * EINVAL or ENOSYS, nothing moved (the caller reads).
 */
struct ack_in;
struct infile;
ssize_t tcpcopy_zc_send(int sock, struct infile *f, uint64_t *off,
			const struct tcpcopy_opts *o, struct ack_in *in);
ssize_t tcpcopy_zc_recv(int sock, int fd, uint64_t size, uint64_t *done,
			const struct tcpcopy_opts *o);

/*
 * Several files (files.c): the "tar | nc" baseline, plain TCP only, each
 * file written with open, write and close under its final name.
 */
int tcpcopy_send_files(char **paths, unsigned int n, uint16_t port,
		       struct tcpcopy_opts *o);
int tcpcopy_recv_files(struct in_addr addr, uint16_t port, char **paths,
		       unsigned int n, struct tcpcopy_opts *o);

/*
 * The connection, socket or (with o->device) syncdev device, with o's
 * progress timeout set; -1 after a message.  On the device with --key,
 * the kernel's handshake deadline (SYNCDEV_IOC_SET_HANDSHAKE,
 * deadline_handshake_ms()) is set before the connection where the module
 * has it (o->hs_kernel).
 */
int tcpcopy_link_accept(uint16_t port, struct tcpcopy_opts *o);
int tcpcopy_link_connect(struct in_addr addr, uint16_t port,
			 struct tcpcopy_opts *o);

/*
 * --key: the key handshake on the link, the sender's side (send) or the
 * receiver's, all within deadline_handshake_ms() of the connection: the
 * kernel's deadline, confirmed at the end, where it holds one, else this
 * program's (deadline.h; the device's progress timeout set again after).
 * EXIT_OK, or EXIT_AUTH / EXIT_FAIL after a message.
 */
int tcpcopy_link_auth(int fd, int send, struct tcpcopy_opts *o);

#endif
