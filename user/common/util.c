// SPDX-License-Identifier: GPL-2.0
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *prog_name = "syncdev";

void set_progname(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	prog_name = slash ? slash + 1 : argv0;
}

const char *progname(void)
{
	return prog_name;
}

static char command[64];

void set_command_name(const char *name)
{
	snprintf(command, sizeof(command), "%s", name);
}

const char *command_name(void)
{
	return command[0] ? command : prog_name;
}

/* The last message, for msg_last(). */
static char last_text[MSG_LAST_MAX];
static int last_errnum;

static void vmsg_err(int errnum, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(last_text, sizeof(last_text), fmt, copy);
	va_end(copy);
	if (errnum && n >= 0 && (size_t)n < sizeof(last_text))
		snprintf(last_text + n, sizeof(last_text) - (size_t)n, ": %s",
			 strerror(errnum));
	last_errnum = errnum;
	fprintf(stderr, "%s: ", prog_name);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

const char *msg_last(int *errnum)
{
	if (errnum)
		*errnum = last_errnum;
	return last_text;
}

void msg_forget(void)
{
	last_text[0] = '\0';
	last_errnum = 0;
}

void vmsg(const char *fmt, va_list ap)
{
	vmsg_err(0, fmt, ap);
}

void msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg_err(0, fmt, ap);
	va_end(ap);
}

void msg_errno(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg_err(saved, fmt, ap);
	va_end(ap);
	errno = saved;
}

void die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg_err(0, fmt, ap);
	va_end(ap);
	exit(code);
}

void die_errno(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg_err(saved, fmt, ap);
	va_end(ap);
	exit(EXIT_FAIL);
}

static int parse_digits(const char **sp, uint64_t *out)
{
	const char *s = *sp;
	uint64_t v = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*sp = s;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "KMGT";
	const char *u;
	uint64_t v;
	int shift = 0;
	int err = parse_digits(&s, &v);

	if (err)
		goto fail;
	if (*s) {
		u = strchr(units, toupper((unsigned char)*s));
		if (!u) {
			err = -EINVAL;
			goto fail;
		}
		shift = 10 * (int)(u - units + 1);
		s++;
		if (!strcasecmp(s, "iB") || !strcasecmp(s, "B"))
			s += strlen(s);
		if (*s) {
			err = -EINVAL;
			goto fail;
		}
		if (v > (UINT64_MAX >> shift)) {
			err = -ERANGE;
			goto fail;
		}
	}
	*out = v << shift;
	return 0;
fail:
	errno = -err;
	return -1;
}

int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;
	int err = parse_digits(&s, &v);

	if (!err && *s)
		err = -EINVAL;
	if (!err && (v < min || v > max))
		err = -ERANGE;
	if (err) {
		errno = -err;
		return -1;
	}
	*out = v;
	return 0;
}

static void __attribute__((noreturn)) out_of_memory(size_t n, size_t size)
{
	die(EXIT_FAIL, "out of memory (asked for %zu x %zu bytes)", n, size);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		out_of_memory(1, size);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	/* calloc(0, x) may return NULL; one byte keeps NULL meaning failure. */
	void *p = n && size ? calloc(n, size) : calloc(1, 1);

	if (!p)
		out_of_memory(n, size);
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		out_of_memory(n, size);
	p = realloc(p, bytes ? bytes : 1);
	if (!p)
		out_of_memory(n, size);
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		out_of_memory(1, strlen(s) + 1);
	return d;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		die(EXIT_FAIL, "out of memory formatting '%s'", fmt);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void map_populate(void *addr, size_t len, int write)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)addr & ~(page - 1);

	if (!len)
		return;
	len += (uintptr_t)addr - start;
	/* One page: its fault costs what the madvise() would. */
	if (len <= page)
		return;
	madvise((void *)start, len,
		write ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
}

int round_up_u64(uint64_t size, uint64_t unit, uint64_t *out)
{
	uint64_t rest = size % unit, up;

	if (!rest)
		up = size;
	else if (__builtin_add_overflow(size, unit - rest, &up))
		return -1;
	*out = up;
	return 0;
}

const char *mode_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFSOCK:
		return "a socket";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFLNK:
		return "a symbolic link";
	}
	return "not a regular file";
}

void put_le(unsigned char *p, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

uint64_t get_le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = (v << 8) | p[bytes];
	return v;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	uint64_t calls = 0;

	return read_full_counted(fd, buf, len, &calls);
}

ssize_t write_full(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, (const char *)buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}
