/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The syncdev device calls the programs and tests share.  Each helper
 * prints what failed and why (with a hint where a common mistake is the
 * likely cause) and returns -1 with errno kept, so callers only exit.
 */
#ifndef SYNCDEV_DEVICE_H
#define SYNCDEV_DEVICE_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The two device nodes (the paths kernel/uapi/syncdev_abi.h names). */
enum dev_side { DEV_MASTER, DEV_SLAVE };
const char *dev_path(enum dev_side side);

/*
 * A module parameter from /sys/module/syncdev/parameters: 0, or -1 (no
 * message) when the module is not loaded or the value is not a number.
 */
int dev_module_param(const char *name, unsigned long long *value);

/* The port a slave connects to by default: the module's, else 2325. */
uint16_t dev_port(void);
/* 2325, the module's port unless its port= says otherwise (for --help). */
uint16_t dev_default_port(void);

/* open(path, O_RDWR | O_CLOEXEC); the fd or -1. */
int dev_open(const char *path);

/* Master: block until a slave connects. */
int dev_accept(int fd, const char *path);

/*
 * Slave: connect to addr:port (port 0 and timeout_ms 0 mean the module's
 * defaults).  A refused connection is retried every 100 ms for up to
 * wait_ms, so a slave started just before its master still connects.
 */
int dev_connect(int fd, struct in_addr addr, uint16_t port,
		uint32_t timeout_ms, uint32_t wait_ms);

/*
 * SYNCDEV_IOC_SET_HANDSHAKE: every connection made after the call must be
 * confirmed (dev_confirm) within ms of being made, or the kernel shuts it
 * down (ETIMEDOUT) and counts a stranger.  1 set; 0 the module has no such
 * call (ENOTTY: an older syncdev, another module), silently: the caller
 * keeps its own deadline; -1 after a message.
 */
int dev_set_handshake(int fd, const char *path, uint32_t ms);
/*
 * SYNCDEV_IOC_CONFIRM: the peer proved itself, lift the connection's
 * deadline.  0, or -1 with errno (ETIMEDOUT: it passed first), silently.
 */
int dev_confirm(int fd);

/* SYNCDEV_IOC_SET_PEER: accept from / connect to addr only. */
int dev_set_peer(int fd, const char *path, struct in_addr addr);

/* Close the session's connection; the session may connect again. */
int dev_disconnect(int fd, const char *path);

/*
 * Whether a write's errno means the peer closed or vanished (the reader
 * went away: not an error of the writer's own).
 */
int dev_peer_gone(int err);

/*
 * For a message about a failed read or write: why err may have happened,
 * " (...)" naming the peer ("master", "slave"), or "" (a static buffer).
 */
const char *dev_peer_hint(int err, const char *peer);

/*
 * After a failed read or write (errno kept): "VERB WHAT (after DONE of
 * SIZE bytes) (hint): strerror", the part in parentheses left out when
 * size is 0 (a frame rather than a file's data).
 */
void dev_xfer_failed(const char *verb, const char *what, uint64_t done,
		     uint64_t size, const char *peer);

/*
 * SYNCDEV_IOC_SET_TIMEOUT: a read, write, SEND or RECV on the connection
 * during which nothing moves for seconds fails with ETIMEDOUT (0: the
 * module's progress_timeout_ms).  Prints a message on failure.
 */
int dev_set_timeout(int fd, const char *path, uint32_t seconds);
/* The same in milliseconds, silently: 0, or -1 with errno. */
int dev_set_timeout_ms(int fd, uint32_t ms);

/*
 * Whether the module carries bytes against the course's direction on
 * this session (read() on the master, write() on the slave: the two-way
 * stream).  Probed with a zero-byte call, which a device without that
 * operation refuses with EINVAL whatever its state: 1 or 0.
 */
int dev_two_way(int fd, enum dev_side side);

/*
 * Map the session's buffer: *len bytes, or all of it when *len is 0 or
 * larger than the buffer; *len is set to the mapped length.
 */
void *dev_map(int fd, size_t *len);

/* SYNCDEV_IOC_SEND / _RECV without messages: callers know the context. */
int dev_send(int fd, uint64_t offset, uint64_t len);
ssize_t dev_recv(int fd, uint64_t offset, uint64_t len, uint32_t flags);

/*
 * Log the page descriptor of the page mapped at addr (NULL: the session's
 * buffer) to the kernel log.  Only a diagnostic: failure is a warning.
 */
void dev_print_page(int fd, const void *addr);
/* mmap mode: the device buffer's page, then the file's at map (if any). */
void dev_print_pages(int fd, const void *map);
/*
 * mmap mode: once per transfer (*done), once both are mapped and touched,
 * log the page of the device buffer and the page of the file at map.
 */
void dev_print_pages_once(int fd, const void *map, int *done);

#endif
