/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * syncdev: a synchronous virtual device.  Bytes written to the master
 * device come out of a slave device, possibly on another machine, carried
 * by an in-kernel TCP connection.
 *
 *	m = open("/dev/master_device", O_RDWR);	s = open("/dev/slave_device", O_RDWR);
 *	ioctl(m, SYNCDEV_IOC_ACCEPT);		ioctl(s, SYNCDEV_IOC_CONNECT, &c);
 *	write(m, data, n);			read(s, data, n);
 *	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, m, 0);
 *	memcpy(buf, data, n); ioctl(m, SYNCDEV_IOC_SEND, &x);	ioctl(s, SYNCDEV_IOC_RECV, &x);
 *
 * Every open file is its own session with its own connection and buffer.
 * This header is the kernel-user ABI (the module's own header is
 * kernel/internal.h); see docs/protocol.md for the whole contract.
 */
#ifndef _UAPI_SYNCDEV_ABI_H
#define _UAPI_SYNCDEV_ABI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define SYNCDEV_MASTER_PATH	"/dev/master_device"
#define SYNCDEV_SLAVE_PATH	"/dev/slave_device"
#define SYNCDEV_DEFAULT_PORT	2325

/* SYNCDEV_IOC_CONNECT: where the slave connects to. */
struct syncdev_connect {
	__u32 addr;		/* IPv4 address, network byte order */
	__u16 port;		/* host byte order; 0 = the module's port */
	__u16 flags;		/* must be 0 */
	__u32 timeout_ms;	/* 0 = the module's connect_timeout_ms */
	__u32 reserved;		/* must be 0 */
};

/*
 * SYNCDEV_IOC_SEND: send len bytes starting at offset of the mmapped
 * buffer.  Returns 0 when every byte was sent.
 * SYNCDEV_IOC_RECV: receive into the buffer at offset, up to len bytes;
 * with SYNCDEV_RECV_WAITALL until len bytes or end of stream.
 * Returns the number of bytes received, 0 at end of stream.
 * offset + len must lie inside the buffer.  Both work on both devices
 * (master -> slave, and slave -> master for an acknowledgment).
 * A signal never makes a SEND or a WAITALL RECV lose its place: the
 * restarted call (same arguments) resumes where it stopped; any other
 * transfer that way first shuts the connection down (EPIPE).
 */
struct syncdev_xfer {
	__u64 offset;
	__u64 len;
	__u32 flags;
	__u32 reserved;		/* must be 0 */
};

#define SYNCDEV_RECV_WAITALL	0x1U

/* SYNCDEV_IOC_INFO: the state of this session. */
struct syncdev_info {
	__u64 buf_size;		/* bytes mappable at offset 0 */
	__u64 bytes_sent;	/* on the current connection */
	__u64 bytes_received;
	__u32 connected;	/* 1 while a connection is established */
	__u32 peer_addr;	/* IPv4, network byte order; 0 if none */
	__u16 peer_port;	/* host byte order */
	__u16 local_port;
	__u32 strangers;	/* connections dropped at their handshake deadline */
};

#define SYNCDEV_IOC_MAGIC	0xB5

/* Master: wait for one slave to connect. */
#define SYNCDEV_IOC_ACCEPT	_IO(SYNCDEV_IOC_MAGIC, 1)
/* Slave: connect to a master. */
#define SYNCDEV_IOC_CONNECT	_IOW(SYNCDEV_IOC_MAGIC, 2, struct syncdev_connect)
#define SYNCDEV_IOC_SEND	_IOW(SYNCDEV_IOC_MAGIC, 3, struct syncdev_xfer)
#define SYNCDEV_IOC_RECV	_IOW(SYNCDEV_IOC_MAGIC, 4, struct syncdev_xfer)
/* Close this session's connection (idempotent); it may connect again. */
#define SYNCDEV_IOC_DISCONNECT	_IO(SYNCDEV_IOC_MAGIC, 5)
/*
 * Print the page descriptor of the page mapped at a user address
 * (__u64 *arg; 0 means the session's buffer) to the kernel log.
 */
#define SYNCDEV_IOC_PRINT_PAGE	_IOW(SYNCDEV_IOC_MAGIC, 6, __u64)
#define SYNCDEV_IOC_INFO	_IOR(SYNCDEV_IOC_MAGIC, 7, struct syncdev_info)

/*
 * The connection carries bytes both ways: besides the master->slave
 * stream, read() on the master returns what the slave write()s (and
 * SEND on the slave / RECV on the master move the mmapped buffer the
 * same way).  Programs use it for an end-to-end acknowledgment; a
 * one-way (legacy) program never writes on the slave and is unaffected.
 *
 * SYNCDEV_IOC_SET_TIMEOUT: the progress timeout of this session, in ms.
 * A read, write, SEND or RECV on an established connection during which
 * no byte moves for that long fails with ETIMEDOUT and shuts the
 * connection down.  0 restores the module's progress_timeout_ms; the value
 * stays for later connections of the session.
 */
struct syncdev_timeout {
	__u32 progress_ms;	/* 0 = the module's progress_timeout_ms */
	__u32 reserved;		/* must be 0 */
};

#define SYNCDEV_IOC_SET_TIMEOUT	_IOW(SYNCDEV_IOC_MAGIC, 8, struct syncdev_timeout)

/*
 * SYNCDEV_IOC_SET_PEER: accept (master) or connect to (slave) only this
 * IPv4 address; a master resets any other connection and keeps waiting, a
 * slave's CONNECT elsewhere fails with EACCES.  0 = the module's
 * allowed_peer (anyone when that is empty, the default).
 */
struct syncdev_peer {
	__u32 addr;		/* IPv4, network byte order; 0 = module's */
	__u32 reserved;		/* must be 0 */
};

#define SYNCDEV_IOC_SET_PEER	_IOW(SYNCDEV_IOC_MAGIC, 9, struct syncdev_peer)

/*
 * SYNCDEV_IOC_SET_HANDSHAKE: one deadline for the start of each connection
 * (a greeting, a key proof: whatever the program checks before it trusts
 * the peer).  Every connection this session accepts or connects after the
 * call must be confirmed with SYNCDEV_IOC_CONFIRM within deadline_ms of
 * being made.  Until then no read, write, SEND or RECV on it waits past
 * that deadline, however the peer spaces its bytes; once it has passed,
 * the connection is shut down (ETIMEDOUT, for that call and every later
 * transfer on it) and counted in syncdev_info.strangers.  0 = none (the
 * default); the value stays for later connections of the session.
 */
struct syncdev_handshake {
	__u32 deadline_ms;	/* 0 = no deadline */
	__u32 reserved;		/* must be 0 */
};

#define SYNCDEV_IOC_SET_HANDSHAKE _IOW(SYNCDEV_IOC_MAGIC, 10, struct syncdev_handshake)
/* The current connection's peer is trusted: lift its handshake deadline. */
#define SYNCDEV_IOC_CONFIRM	_IO(SYNCDEV_IOC_MAGIC, 11)

/*
 * The numbers of the course's programs, accepted unchanged so that those
 * programs run without recompiling.  arg is passed by value.  A session
 * called with one of them, or with any other number outside
 * SYNCDEV_IOC_MAGIC and the terminal ioctls, in a call its file's mode
 * allows, is a legacy session from then on: its later mmap()s show the
 * buffer from its start whatever the offset (pages past the buffer:
 * SIGBUS), a slave's read() returns the count asked for unless the stream
 * ends (module parameter legacy_read=fill) or one 512-byte unit of the
 * stream (legacy_read=starter), and those other numbers act as
 * LEGACY_PRINT, as the course's module did.
 *   LEGACY_CONNECT  master: accept; slave: arg = char * "a.b.c.d[:port]"
 *   LEGACY_XFER     master: send arg bytes from the start of the most
 *                   recent mapping (EINVAL if more than it holds), return
 *                   arg (legacy_send_result=bytes) or 0 (=zero);
 *                   slave: arg ignored; receive until the most recent
 *                   mapping (one page before any) is full or the stream
 *                   ends, return the count
 *   LEGACY_CLOSE    close the connection (idempotent)
 *   LEGACY_PRINT    print the page descriptor at user address arg
 *                   (0: the session's buffer), or that nothing is mapped
 *                   there; 0
 * See docs/legacy.md.
 */
#define SYNCDEV_LEGACY_PRINT	0x12345676
#define SYNCDEV_LEGACY_CONNECT	0x12345677
#define SYNCDEV_LEGACY_XFER	0x12345678
#define SYNCDEV_LEGACY_CLOSE	0x12345679

#endif /* _UAPI_SYNCDEV_ABI_H */
