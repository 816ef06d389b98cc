/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plain userspace TCP for the programs that do not use the device:
 * tcpcopy (the benchmark baseline) and the test tools.  IPv4 only, like
 * the device.
 */
#ifndef SYNCDEV_TCP_H
#define SYNCDEV_TCP_H

#include <netinet/in.h>
#include <stdint.h>

/* Listen on port (all addresses); the socket or -1 after a message. */
int tcp_listen(uint16_t port);
/* The same on addr:port (port 0: any) with a queue of backlog. */
int tcp_listen_at(struct in_addr addr, uint16_t port, int backlog);
/* Accept one connection on port, then stop listening; -1 after a message. */
int tcp_accept_one(uint16_t port);
/*
 * Connect to addr:port, retrying a refused connection for up to wait_ms;
 * the socket or -1 after a message.
 */
int tcp_connect(struct in_addr addr, uint16_t port, uint32_t wait_ms);
/*
 * A read() or write() on fd during which nothing moves for seconds fails
 * (SO_RCVTIMEO, SO_SNDTIMEO).  0: no limit.  -1 after a message.
 */
int tcp_set_timeout(int fd, uint32_t seconds);
/* After a failed read or write: their timeout's EAGAIN is ETIMEDOUT. */
void tcp_fix_errno(void);
/* Close with a reset (SO_LINGER 0) instead of an orderly end. */
void tcp_reset(int fd);
/*
 * connect() fd to sa: 0, or -1 with errno.  A connect that TCP completed
 * with itself is ECONNREFUSED: a connect to a local port in the ephemeral
 * range that nothing listens on may be given that very port, and the
 * handshake completes with itself.  fd is then set to close with a reset
 * (no TIME_WAIT holding the port); the caller closes it as after any
 * failure.
 */
int tcp_connect_fd(int fd, const struct sockaddr_in *sa);

#endif
