/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by every syncdev program: error reporting, number
 * parsing, clocks and full reads/writes that survive EINTR and short counts.
 */
#ifndef SYNCDEV_UTIL_H
#define SYNCDEV_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <sys/types.h>
#include <unistd.h>

/* Exit codes shared by all programs, so scripts can tell failures apart. */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* the operation failed (I/O, network, peer) */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_CORRUPT = 3,	/* data arrived but did not verify */
	EXIT_AUTH = 4,		/* the peer did not prove the shared key */
};

/* Name used as the prefix of every message; set once from argv[0]. */
void set_progname(const char *argv0);
const char *progname(void);
/*
 * The command a user types for its help ("fast", "osbench sweep"), for
 * the "see ... --help" hints: progname() unless set (a copy is kept).
 */
void set_command_name(const char *name);
const char *command_name(void);

/* "prog: <message>" on stderr. */
void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* msg() with a va_list, for functions that take their own format. */
void vmsg(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* "prog: <message>: strerror(errno)" on stderr; errno is preserved. */
void msg_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * The text of the last message (without the "prog: " prefix, with the
 * strerror part; cut at MSG_LAST_MAX - 1 bytes) and, in *errnum unless
 * NULL, its errno (0 for msg()).  "" before the first message.  The slave
 * sends it to the master as the reason of a failure.
 */
#define MSG_LAST_MAX	512
const char *msg_last(int *errnum);
/* Forget the last message: msg_last() is "" until the next one. */
void msg_forget(void);
/*
 * msg() and msg_errno() that return -1, for code that reports a failure
 * to its caller: "if (fd < 0) return fail_errno("open %s", path);".
 */
#define fail(...) (msg(__VA_ARGS__), -1)
#define fail_errno(...) (msg_errno(__VA_ARGS__), -1)
/* msg() then exit(code). */
void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* msg_errno() then exit(EXIT_FAIL). */
void die_errno(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* Bytes in a MiB, for rates in MiB/s. */
#define MIB (1024.0 * 1024.0)

/*
 * Parse a non-negative integer with an optional binary suffix
 * (K, M, G, T, also KiB/MiB/...; case-insensitive).  Returns 0 or -1 with
 * errno = EINVAL (not a number) or ERANGE (overflow).
 */
int parse_size(const char *s, uint64_t *out);
/* Plain unsigned decimal integer in [min, max]; -1 with errno on error. */
int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * Allocation that cannot fail: on exhaustion they exit(EXIT_FAIL) saying
 * how much was asked for.  For programs, where there is nothing better to
 * do; library code that can report ENOMEM to its caller should.
 */
void *xmalloc(size_t size);
/* Zeroed n * size bytes; the product is checked for overflow. */
void *xcalloc(size_t n, size_t size);
/* realloc(p, n * size), the product checked for overflow. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

/*
 * Map in the pages of [addr, addr + len) of a file mapping before they are
 * copied to (write) or from, with MADV_POPULATE_WRITE/READ: one system call
 * instead of a page fault per page.  Only a hint: errors (e.g. a kernel
 * older than 5.14) are ignored and the copy then faults as usual.  Nothing
 * for a range within one page, whose one fault costs what the call would.
 */
void map_populate(void *addr, size_t len, int write);

/*
 * size rounded up to a multiple of unit (unit > 0) into *out: 0, or -1
 * (and *out untouched) when the result does not fit in 64 bits.  A size
 * near 2^64 would otherwise wrap to a small number and pass a room check.
 */
int round_up_u64(uint64_t size, uint64_t unit, uint64_t *out);

/* "a regular file", "a directory", "a FIFO", ... for messages. */
const char *mode_kind(mode_t mode);

/* Little-endian integers of 1..8 bytes, encoded byte by byte. */
void put_le(unsigned char *p, uint64_t v, int bytes);
uint64_t get_le(const unsigned char *p, int bytes);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t now_ns(void);

/*
 * Read/write exactly len bytes, retrying on EINTR and short counts.
 * read_full returns the bytes read (less than len only at EOF) or -1.
 * write_full returns len or -1.
 */
ssize_t read_full(int fd, void *buf, size_t len);

/*
 * read_full that also adds the read() calls it made to *calls, for the
 * experiments that report system calls per second.  Inline because the
 * sweep calls it once per block, down to one-byte blocks.
 */
static inline ssize_t read_full_counted(int fd, void *buf, size_t len,
					uint64_t *calls)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		(*calls)++;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t write_full(int fd, const void *buf, size_t len);

#endif
