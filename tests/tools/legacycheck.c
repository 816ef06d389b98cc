// SPDX-License-Identifier: GPL-2.0
/*
 * legacycheck: the legacy numbers behave as docs/legacy.md ("Legacy
 * numbers") says, one "PASS name" / "FAIL name: why" line each.  Runs in
 * the test guest with the module loaded and no other user of the devices.
 *
 *	legacycheck course|misuse|mixed|rules|dump|starter|sendresult
 *
 * course: what course programs rely on - a mapping at any offset shows
 * the buffer from its start, a receive ignores its argument and fills the
 * mapping unless the stream ends, one page before any mapping, a slave's
 * read() fills its buffer unless the stream ends (a signal in between
 * neither), numbers the course's module took for its page dump print one,
 * also as a session's first call.
 * misuse: every way a program can misuse the legacy calls gets an error
 * from the call that went wrong (or SIGBUS from the access), never
 * success with wrong bytes.
 * mixed: a session that never used a legacy number keeps the _IO* ABI
 * exactly; one that mixes both keeps its earlier mappings and its _IO*
 * commands.
 * rules: a legacy number makes a session a legacy one only in a call its
 * file's mode allows.
 * dump: one page dump of the caller's own page (tests/vm/20-legacy.sh
 * runs it as root and as another user and reads the lines).
 * starter: a slave's read() with legacy_read=starter (set by the caller).
 * sendresult: a master's legacy send returns what legacy_send_result says
 * (the parameter as it is set).
 *
 * A receive that never returns is a failure: an alarm ends the program.
 */
#include "../unit/check.h"
#include "devtest.h"
#include "testpat.h"

#include <setjmp.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <termios.h>

#define WATCHDOG_S	60

static size_t bufsz, page;
static int send_zero;		/* legacy_send_result=zero */

/* What a master's legacy send of @len bytes returns. */
static long sent(size_t len)
{
	return send_zero ? 0 : (long)len;
}

/* @len bytes of the pattern at @pos. */
static int is_pat(const unsigned char *p, size_t len, size_t pos,
		  unsigned int seed)
{
	return testpat_first_bad(p, len, pos, seed) == len;
}

static unsigned char *map_at(int fd, size_t len, int prot, size_t off)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, fd, (off_t)off);

	return p == MAP_FAILED ? NULL : p;
}

/* A connected pair with the legacy numbers (or the _IO* ones) for @what. */
static int lpair(int *m, int *s, int legacy, const char *what)
{
	int ret;

	dt_legacy = legacy;
	ret = dt_pair(m, s);
	CHECK(!ret, "%s: connect a pair over 127.0.0.1 (%s numbers)", what,
	      legacy ? "legacy" : "_IO*");
	return ret;
}

/* Write @len pattern bytes to @fd from @pos. */
static void send_pat(int fd, size_t len, size_t pos, unsigned int seed)
{
	unsigned char *b = malloc(len);

	testpat_fill(b, len, pos, seed);
	if (write(fd, b, len) != (ssize_t)len)
		fprintf(stderr, "write: %s\n", strerror(errno));
	free(b);
}

/* A mapping at any offset shows the buffer from its start. */
static void test_offsets(void)
{
	unsigned char *a, *b, *in, *out;
	int m, s;
	long n;

	if (lpair(&m, &s, 1, "offsets"))
		return;
	b = map_at(m, page, PROT_READ, 0);
	a = map_at(m, 4 * page, PROT_READ | PROT_WRITE, 8 * page);
	in = map_at(s, 4 * page, PROT_READ, bufsz + 12 * page);
	CHECK(a && b && in, "legacy mappings at 8 pages, 0 and past the buffer");
	if (!a || !b || !in)
		return;
	testpat_fill(a, 4 * page, 0, 1);
	CHECK(is_pat(b, page, 0, 1),
	      "a mapping at 8 pages and one at 0 show the same buffer page");
	CHECK(ioctl(m, SYNCDEV_LEGACY_XFER, 4 * page) == sent(4 * page),
	      "send 4 pages from the mapping made at 8 pages (returns %ld)",
	      sent(4 * page));
	n = ioctl(s, SYNCDEV_LEGACY_XFER, 1);
	CHECK(n == (long)(4 * page) && is_pat(in, 4 * page, 0, 1),
	      "a receive with argument 1 fills the 4-page mapping made past the buffer (%ld)",
	      n);
	out = map_at(s, page, PROT_READ, 3 * page);
	CHECK(out && is_pat(out, page, 0, 1),
	      "a later mapping at 3 pages shows the first page received");
	munmap(a, 4 * page);
	munmap(b, page);
	munmap(in, 4 * page);
	if (out)
		munmap(out, page);
	close(m);
	close(s);
}

struct later {
	int fd;
	size_t len;
};

/* Write the pattern in two halves, pausing in between. */
static void *send_later(void *arg)
{
	const struct later *l = arg;
	const struct timespec pause = { 0, 100 * 1000000L };

	send_pat(l->fd, l->len / 2, 0, 2);
	nanosleep(&pause, NULL);
	send_pat(l->fd, l->len - l->len / 2, l->len / 2, 2);
	return NULL;
}

/* A receive fills the mapping: short only at the end of the stream. */
static void test_fill(void)
{
	struct later l;
	unsigned char *in;
	pthread_t t;
	long n1, n2, n3;
	int m, s;

	if (lpair(&m, &s, 1, "fill"))
		return;
	in = map_at(s, 4 * page, PROT_READ, 0);
	l = (struct later){ m, 5 * page + 10 };
	pthread_create(&t, NULL, send_later, &l);
	n1 = ioctl(s, SYNCDEV_LEGACY_XFER, 0);
	CHECK(in && n1 == (long)(4 * page) && is_pat(in, n1, 0, 2),
	      "a receive waits for a full mapping (4 pages) across two writes (%ld)",
	      n1);
	pthread_join(t, NULL);
	close(m);
	n2 = ioctl(s, SYNCDEV_LEGACY_XFER, 14);
	n3 = ioctl(s, SYNCDEV_LEGACY_XFER, 4096);
	CHECK(in && n2 == (long)(page + 10) && is_pat(in, n2, 4 * page, 2) &&
	      n3 == 0, "then the rest, short at the end (%ld), then 0 (%ld)",
	      n2, n3);
	if (in)
		munmap(in, 4 * page);
	close(s);
}

/* Before any mapping a receive takes one page, which any mapping holds. */
static void test_recv_first(void)
{
	unsigned char *in;
	long n1, n2;
	int m, s;

	if (lpair(&m, &s, 1, "receive first"))
		return;
	send_pat(m, 3 * page, 0, 3);
	n1 = ioctl(s, SYNCDEV_LEGACY_XFER, 0);
	in = map_at(s, 2 * page, PROT_READ, 12345 * page);
	CHECK(n1 == (long)page && in && is_pat(in, page, 0, 3),
	      "a receive before any mapping: one page, seen by a mapping at any offset (%ld)",
	      n1);
	n2 = ioctl(s, SYNCDEV_LEGACY_XFER, 1);
	CHECK(in && n2 == (long)(2 * page) && is_pat(in, n2, page, 3),
	      "the next receive fills that 2-page mapping (%ld)", n2);
	if (in)
		munmap(in, 2 * page);
	close(m);
	close(s);
}

/* Write 300 pattern bytes, pause, then the rest; then close. */
static void *send_split(void *arg)
{
	const struct later *l = arg;
	const struct timespec pause = { 0, 100 * 1000000L };

	send_pat(l->fd, 300, 0, 7);
	nanosleep(&pause, NULL);
	send_pat(l->fd, l->len - 300, 300, 7);
	close(l->fd);
	return NULL;
}

/*
 * A course slave that assumes every read() returns the 512 bytes it asks:
 * a legacy read() fills its buffer across a pause of the sender, and is
 * short only at the end of the stream.
 */
static void test_read_fill(void)
{
	unsigned char buf[512];
	struct later l;
	ssize_t n1, n2, n3;
	int ok1, ok2;
	pthread_t t;
	int m, s;

	if (lpair(&m, &s, 1, "full reads"))
		return;
	l = (struct later){ m, 1000 };
	pthread_create(&t, NULL, send_split, &l);
	n1 = read(s, buf, sizeof(buf));
	ok1 = n1 == 512 && is_pat(buf, 512, 0, 7);
	n2 = read(s, buf, sizeof(buf));
	ok2 = n2 == 488 && is_pat(buf, 488, 512, 7);
	n3 = read(s, buf, sizeof(buf));
	CHECK(ok1 && ok2 && n3 == 0,
	      "legacy read() of 512 bytes across a pause of the sender: 512 (%zd), then the last 488 (%zd), then 0 (%zd)",
	      n1, n2, n3);
	pthread_join(t, NULL);
	close(s);
}

static void on_usr1(int sig)
{
	(void)sig;
}

struct reader {
	int fd;
	int restart;		/* SA_RESTART on the handler */
	int once;		/* no read() again after EINTR */
	ssize_t n;		/* what the read() that saw no error returned */
	int eintr;		/* read()s that failed with EINTR */
	unsigned char buf[512];
};

static void *read_512(void *arg)
{
	struct reader *r = arg;
	struct sigaction sa = { .sa_handler = on_usr1 };

	sa.sa_flags = r->restart ? SA_RESTART : 0;
	sigaction(SIGUSR1, &sa, NULL);
	while ((r->n = read(r->fd, r->buf, sizeof(r->buf))) < 0 &&
	       errno == EINTR) {
		r->eintr++;
		if (r->once)
			break;
	}
	return NULL;
}

/* A signal while a legacy read() waits for the rest of its 512 bytes. */
static void test_read_signal(int restart)
{
	const struct timespec pause = { 0, 100 * 1000000L };
	struct reader r = { .restart = restart };
	pthread_t t;
	int m, s;

	if (lpair(&m, &s, 1, "full read and a signal"))
		return;
	r.fd = s;
	pthread_create(&t, NULL, read_512, &r);
	send_pat(m, 300, 0, 8);
	nanosleep(&pause, NULL);
	pthread_kill(t, SIGUSR1);
	nanosleep(&pause, NULL);
	send_pat(m, 212, 300, 8);
	pthread_join(t, NULL);
	CHECK(r.n == 512 && is_pat(r.buf, 512, 0, 8) &&
	      r.eintr == (restart ? 0 : 1),
	      "a signal (%s) after 300 of 512 bytes: the read() %s and returns all 512 (%zd, %d EINTR)",
	      restart ? "SA_RESTART" : "no SA_RESTART",
	      restart ? "restarts" : "fails with EINTR, the next one resumes",
	      r.n, r.eintr);
	close(m);
	close(s);
}

/* After an interrupted read(), one of another length cannot resume it. */
static void test_read_abandon(void)
{
	const struct timespec pause = { 0, 100 * 1000000L };
	struct reader r = { .once = 1 };
	unsigned char buf[512];
	pthread_t t;
	int m, s;

	if (lpair(&m, &s, 1, "interrupted read abandoned"))
		return;
	r.fd = s;
	send_pat(m, 300, 0, 9);
	pthread_create(&t, NULL, read_512, &r);
	nanosleep(&pause, NULL);
	pthread_kill(t, SIGUSR1);
	pthread_join(t, NULL);
	/* Non-blocking: a read() that waited would be the failure. */
	fcntl(s, F_SETFL, O_NONBLOCK);
	CHECK(r.eintr == 1 && ERRNO_IS(read(s, buf, 100), EPIPE),
	      "a read() of another length after one that failed with EINTR (%d): EPIPE",
	      r.eintr);
	CHECK(ERRNO_IS(read(s, buf, sizeof(buf)), EPIPE),
	      "and the connection is shut down: the next read() of 512 is EPIPE too");
	close(m);
	close(s);
}

/* The course's module printed a page for any number it did not know. */
static void test_print_numbers(void)
{
	static const unsigned long nums[] = { 0x111, 9020, 0, 0x12345680 };
	unsigned char *p;
	unsigned int i;
	int m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);

	ioctl(m, SYNCDEV_LEGACY_CLOSE, 0);
	p = map_at(m, page, PROT_WRITE, 0);
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		CHECK(p && ioctl(m, nums[i], p) == 0,
		      "legacy session: ioctl %#lx on a mapped address prints its page",
		      nums[i]);
	if (p)
		munmap(p, page);
	close(m);
}

/*
 * A page dump asked for before any legacy call: the number makes the
 * session a legacy one, as 0x12345676 does.
 */
static void test_print_first(void)
{
	static const unsigned long nums[] = { 9020, 0x111, 0 };
	unsigned char *p, *past;
	unsigned int i;
	int m;

	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);
		p = map_at(m, page, PROT_WRITE, 0);
		CHECK(p && ioctl(m, nums[i], p) == 0,
		      "ioctl %#lx as a session's first call prints its page",
		      nums[i]);
		past = map_at(m, page, PROT_READ, bufsz);
		CHECK(past != NULL,
		      "and the session is a legacy one (a mapping past the buffer shows its start)");
		if (past)
			munmap(past, page);
		if (p)
			munmap(p, page);
		close(m);
	}
}

static void test_course(void)
{
	test_offsets();
	test_fill();
	test_recv_first();
	test_read_fill();
	test_read_signal(1);
	test_read_signal(0);
	test_read_abandon();
	test_print_numbers();
	test_print_first();
}

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jmp, 1);
}

/* 1 if reading @p raises SIGBUS. */
static int read_bus(const volatile unsigned char *p)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	int bus = 0;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(bus_jmp, 1))
		bus = 1;
	else
		(void)*p;
	sigaction(SIGBUS, &old, NULL);
	return bus;
}

/* A mapping longer than the buffer: the buffer, then SIGBUS. */
static void test_past_buffer(void)
{
	size_t len = bufsz + 2 * page;
	unsigned char *p;
	int m, s;

	if (lpair(&m, &s, 1, "past the buffer"))
		return;
	send_pat(m, page, 0, 4);
	close(m);
	p = map_at(s, len, PROT_READ, 5 * page);
	CHECK(p != NULL, "a legacy mapping 2 pages longer than the buffer: made");
	if (!p)
		return;
	CHECK(ioctl(s, SYNCDEV_LEGACY_XFER, 0) == (long)page &&
	      is_pat(p, page, 0, 4) && !read_bus(p + bufsz - 1),
	      "it shows the buffer (the stream ended short of filling it)");
	CHECK(read_bus(p + bufsz) && read_bus(p + len - 1),
	      "past the buffer a read is SIGBUS, never other memory");
	munmap(p, len);
	close(s);
}

/* The master's legacy send: only bytes the program can have put there. */
static void test_send_misuse(void)
{
	unsigned char *p;
	int m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR), s;

	ioctl(m, SYNCDEV_LEGACY_CLOSE, 0);
	CHECK(ERRNO_IS(ioctl(m, SYNCDEV_LEGACY_XFER, 10), EINVAL),
	      "legacy send with nothing ever mapped: EINVAL");
	close(m);
	if (lpair(&m, &s, 1, "send misuse"))
		return;
	p = map_at(m, 2 * page, PROT_WRITE, 3 * page);
	CHECK(ERRNO_IS(ioctl(m, SYNCDEV_LEGACY_XFER, 2 * page + 1), EINVAL),
	      "legacy send of more than the last mapping holds: EINVAL");
	munmap(p, 2 * page);
	p = map_at(m, bufsz + page, PROT_WRITE, 0);
	CHECK(ERRNO_IS(ioctl(m, SYNCDEV_LEGACY_XFER, bufsz + 1), EINVAL),
	      "legacy send of more than the buffer (mapping longer): EINVAL");
	CHECK(ioctl(m, SYNCDEV_LEGACY_XFER, 0) == 0,
	      "legacy send of 0 bytes: 0, nothing sent");
	munmap(p, bufsz + page);
	close(m);
	CHECK(ioctl(s, SYNCDEV_LEGACY_XFER, 0) == 0,
	      "and the slave reads the end of the stream, no byte");
	close(s);
}

/* Calls without a connection, and mappings that cannot work. */
static void test_unconnected(void)
{
	int m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);
	int s = dt_open(SYNCDEV_SLAVE_PATH, O_RDWR);
	unsigned char *p;
	char c = 0;

	ioctl(s, SYNCDEV_LEGACY_CLOSE, 0);
	ioctl(m, SYNCDEV_LEGACY_CLOSE, 0);
	p = map_at(m, page, PROT_WRITE, 7 * page);
	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_LEGACY_XFER, 0), ENOTCONN),
	      "legacy receive without a connection: ENOTCONN");
	CHECK(p && ERRNO_IS(ioctl(m, SYNCDEV_LEGACY_XFER, 1), ENOTCONN),
	      "legacy send without a connection: ENOTCONN");
	CHECK(ERRNO_IS(write(m, &c, 1), ENOTCONN) &&
	      ERRNO_IS(read(s, &c, 1), ENOTCONN),
	      "write and read without a connection: ENOTCONN");
	CHECK(mmap(NULL, page, PROT_READ, MAP_PRIVATE, s, 0) == MAP_FAILED &&
	      errno == EINVAL, "a private mapping in a legacy session: EINVAL");
	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_LEGACY_CONNECT, "127.0.0.1:99999"),
		       EINVAL), "legacy connect to port 99999: EINVAL");
	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_LEGACY_CONNECT, (void *)8), EFAULT),
	      "legacy connect with a bad string pointer: EFAULT");
	if (p)
		munmap(p, page);
	close(m);
	close(s);
}

/*
 * Page dumps of addresses with nothing there: the legacy numbers return 0
 * (and log that nothing is mapped), as the course's module did; the _IO*
 * PRINT_PAGE keeps its errors.  Numbers that are not dumps.
 */
static void test_print_misuse(void)
{
	int s = dt_open(SYNCDEV_SLAVE_PATH, O_RDWR);
	uint64_t addr = 4096;
	struct termios t;

	CHECK(ioctl(s, SYNCDEV_LEGACY_PRINT, 0) == 0,
	      "legacy page dump of address 0, nothing ever mapped: 0");
	CHECK(ioctl(s, SYNCDEV_LEGACY_PRINT, 4096) == 0 &&
	      ioctl(s, 0x111, 4096) == 0,
	      "legacy page dump (0x12345676, 0x111) of an unmapped address: 0");
	CHECK(ioctl(s, 9020, ~0UL << 12) == 0,
	      "legacy page dump (9020) of a kernel address: 0");
	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_IOC_PRINT_PAGE, &addr), EFAULT),
	      "the _IO* PRINT_PAGE of an unmapped address in that session: EFAULT");
	CHECK(ERRNO_IS(tcgetattr(s, &t), ENOTTY),
	      "a terminal ioctl in a legacy session: ENOTTY, not a dump");
	CHECK(ERRNO_IS(ioctl(s, _IO(SYNCDEV_IOC_MAGIC, 99), 0), ENOTTY),
	      "an unknown _IO number in a legacy session: ENOTTY");
	close(s);
}

static void test_misuse(void)
{
	test_past_buffer();
	test_send_misuse();
	test_unconnected();
	test_print_misuse();
}

/* A session that never used a legacy number: the _IO* ABI as it is. */
static void test_modern(void)
{
	int s = dt_open(SYNCDEV_SLAVE_PATH, O_RDWR);
	unsigned char *a, *b, buf[512];
	struct termios t;
	ssize_t n;
	int m;

	CHECK(!map_at(s, page, PROT_READ, bufsz) && errno == EINVAL &&
	      !map_at(s, 2 * page, PROT_READ, bufsz - page) && errno == EINVAL,
	      "_IO* session: a mapping past the buffer is EINVAL");
	CHECK(ERRNO_IS(ioctl(s, _IO(SYNCDEV_IOC_MAGIC, 99), 0), ENOTTY) &&
	      ERRNO_IS(ioctl(s, TCGETS, &t), ENOTTY),
	      "_IO* session: an unknown _IO number and TCGETS are ENOTTY");
	CHECK(!map_at(s, page, PROT_READ, bufsz) && errno == EINVAL,
	      "_IO* session: and it stays one (a mapping past the buffer is EINVAL)");
	close(s);
	if (lpair(&m, &s, 0, "_IO* session read"))
		return;
	send_pat(m, 300, 0, 10);
	n = read(s, buf, sizeof(buf));
	CHECK(n == 300 && is_pat(buf, 300, 0, 10),
	      "_IO* session: a read() of 512 returns the 300 bytes that arrived (%zd)",
	      n);
	close(m);
	close(s);
	if (lpair(&m, &s, 0, "_IO* session"))
		return;
	a = map_at(m, page, PROT_READ | PROT_WRITE, 8 * page);
	b = map_at(m, 9 * page, PROT_READ, 0);
	if (a)
		testpat_fill(a, page, 0, 5);
	CHECK(a && b && is_pat(b + 8 * page, page, 0, 5) && !is_pat(b, 16, 0, 5),
	      "_IO* session: a mapping at 8 pages shows buffer page 8");
	munmap(a, page);
	munmap(b, 9 * page);
	close(m);
	close(s);
}

/* Connected with _IO*, then a legacy number: what changes and what not. */
static void test_mixed_session(void)
{
	unsigned char *early, *late, *in;
	int m, s;

	if (lpair(&m, &s, 0, "mixed session"))
		return;
	early = map_at(m, 2 * page, PROT_READ | PROT_WRITE, 4 * page);
	in = map_at(s, bufsz, PROT_READ, 0);
	if (!early || !in)
		return;
	testpat_fill(early, 2 * page, 0, 6);
	CHECK(ioctl(m, SYNCDEV_LEGACY_XFER, 2 * page) == sent(2 * page) &&
	      dt_xfer(s, SYNCDEV_IOC_RECV, page, 2 * page,
		      SYNCDEV_RECV_WAITALL, 0) == (long)(2 * page) &&
	      is_pat(in + page, 2 * page, 0, 6),
	      "mixed: a legacy send from a mapping made before it (at 4 pages) sends its bytes");
	late = map_at(m, page, PROT_READ | PROT_WRITE, 4 * page);
	CHECK(late && !is_pat(late, 16, 0, 6) && is_pat(early, 16, 0, 6),
	      "mixed: a mapping made after it shows the buffer from its start, the earlier one stays");
	CHECK(dt_xfer(m, SYNCDEV_IOC_SEND, 4 * page, 2 * page, 0, 0) == 0 &&
	      dt_xfer(s, SYNCDEV_IOC_RECV, 0, 2 * page, SYNCDEV_RECV_WAITALL,
		      0) == (long)(2 * page) && is_pat(in, 2 * page, 0, 6),
	      "mixed: SEND and RECV keep their offsets");
	CHECK(ERRNO_IS(ioctl(m, _IO(SYNCDEV_IOC_MAGIC, 42), 0), ENOTTY),
	      "mixed: an unknown _IO number is still ENOTTY");
	if (late)
		munmap(late, page);
	munmap(early, 2 * page);
	munmap(in, bufsz);
	close(m);
	close(s);
}

static void test_mixed(void)
{
	test_modern();
	test_mixed_session();
}

/*
 * A legacy number in a call the file's mode does not allow (EBADF) leaves
 * the session as it was: a mapping past the buffer is still EINVAL.
 */
static void test_badf_not_legacy(const char *path, int flags,
				 unsigned long cmd, unsigned long arg,
				 const char *what)
{
	int fd = dt_open(path, flags);
	int badf = ERRNO_IS(ioctl(fd, cmd, arg), EBADF);
	unsigned char *p = map_at(fd, page, PROT_READ, bufsz);

	CHECK(badf && !p && errno == EINVAL,
	      "%s: EBADF, and the session is no legacy one (a mapping past the buffer: EINVAL)",
	      what);
	if (p)
		munmap(p, page);
	close(fd);
}

/* Who may make a session a legacy one. */
static void test_rules(void)
{
	int fd;
	unsigned char *p;

	test_badf_not_legacy(SYNCDEV_MASTER_PATH, O_RDONLY,
			     SYNCDEV_LEGACY_CONNECT, 0,
			     "0x12345677 on an O_RDONLY master");
	test_badf_not_legacy(SYNCDEV_SLAVE_PATH, O_RDONLY,
			     SYNCDEV_LEGACY_CLOSE, 0,
			     "0x12345679 on an O_RDONLY slave");
	test_badf_not_legacy(SYNCDEV_MASTER_PATH, O_RDONLY,
			     SYNCDEV_LEGACY_XFER, 0,
			     "0x12345678 on an O_RDONLY master");
	fd = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);
	CHECK(ERRNO_IS(ioctl(fd, SYNCDEV_LEGACY_XFER, 1), EINVAL),
	      "0x12345678 that fails its own check (nothing mapped): EINVAL");
	p = map_at(fd, page, PROT_READ, bufsz);
	CHECK(p != NULL,
	      "but the file's mode allowed it: the session is a legacy one");
	if (p)
		munmap(p, page);
	close(fd);
}

/* One page dump of a written page of this process (the shell reads it). */
static void test_dump(void)
{
	static unsigned char mine[1 << 16] __attribute__((aligned(4096)));
	int fd = dt_open(SYNCDEV_MASTER_PATH, O_RDONLY);

	mine[0] = 1;
	CHECK(ioctl(fd, SYNCDEV_LEGACY_PRINT, mine) == 0,
	      "a page dump of a page of the caller (uid %u)",
	      (unsigned int)getuid());
	close(fd);
}

/*
 * legacy_read=starter: the stream in 512-byte units from the start of
 * the connection; a read() takes the rest of the current one, returns at
 * most its count of it, and the rest of the unit is gone.
 */
static void test_starter(void)
{
	unsigned char buf[2048], *in;
	ssize_t n1, n2, n3, n4;
	long r;
	int m, s;

	if (lpair(&m, &s, 1, "starter read"))
		return;
	send_pat(m, 1536, 0, 12);
	n1 = read(s, buf, 100);
	CHECK(n1 == 100 && is_pat(buf, 100, 0, 12),
	      "starter: a read() of 100 takes the first 100 bytes of the first unit (%zd)",
	      n1);
	n2 = read(s, buf, 512);
	CHECK(n2 == 512 && is_pat(buf, 512, 512, 12),
	      "starter: the next read() of 512 gets the second unit: the rest of the first is gone (%zd)",
	      n2);
	n3 = read(s, buf, sizeof(buf));
	CHECK(n3 == 512 && is_pat(buf, 512, 1024, 12),
	      "starter: a read() of 2048 gets one unit, 512 bytes (%zd)", n3);
	send_pat(m, 700, 1536, 12);
	close(m);
	n1 = read(s, buf, 10);
	in = map_at(s, page, PROT_READ, 0);
	r = ioctl(s, SYNCDEV_LEGACY_XFER, 0);
	CHECK(n1 == 10 && is_pat(buf, 10, 1536, 12) && in && r == 188 &&
	      is_pat(in, 188, 2048, 12),
	      "starter: read() of 10, then a legacy receive: it starts at the next unit (%zd, %ld)",
	      n1, r);
	if (in)
		munmap(in, page);
	n4 = read(s, buf, 512);
	CHECK(n4 == 0, "starter: then the end of the stream (%zd)", n4);
	close(s);
}

/*
 * legacy_read=starter, non-blocking: a read() that finds only part of what
 * it may take of the unit returns that part, and the rest of the unit
 * stays for the next read().
 */
static void test_starter_nonblock(void)
{
	const struct timespec pause = { 0, 20 * 1000000L };
	unsigned char buf[50 + 512];
	ssize_t n1 = -1, n2, n3;
	int m, s, i;

	if (lpair(&m, &s, 1, "starter non-blocking read"))
		return;
	send_pat(m, 50, 0, 14);
	fcntl(s, F_SETFL, O_NONBLOCK);
	for (i = 0; i < 500 && n1 < 0; i++) {
		n1 = read(s, buf, 100);
		if (n1 < 0)
			nanosleep(&pause, NULL);
	}
	fcntl(s, F_SETFL, 0);
	send_pat(m, 974, 50, 14);
	n2 = read(s, buf, 50);
	n3 = read(s, buf + 50, 512);
	CHECK(n1 == 50 && n2 == 50 && is_pat(buf, 50, 50, 14) && n3 == 512 &&
	      is_pat(buf + 50, 512, 512, 14),
	      "starter: a non-blocking read() of 100 finds 50; the next read() of 50 gets the 50 after them, then the next unit (%zd, %zd, %zd)",
	      n1, n2, n3);
	close(m);
	close(s);
}

/* The master's legacy send returns what legacy_send_result says. */
static void test_send_result(void)
{
	unsigned char *out, *in;
	long r, n;
	int m, s;

	if (lpair(&m, &s, 1, "send result"))
		return;
	out = map_at(m, 3 * page, PROT_WRITE, 0);
	in = map_at(s, 3 * page, PROT_READ, 0);
	if (!out || !in)
		return;
	testpat_fill(out, 3 * page, 0, 13);
	r = ioctl(m, SYNCDEV_LEGACY_XFER, 3 * page - 5);
	munmap(out, 3 * page);
	close(m);
	n = ioctl(s, SYNCDEV_LEGACY_XFER, 0);
	CHECK(r == sent(3 * page - 5) && n == (long)(3 * page) - 5 &&
	      is_pat(in, n, 0, 13),
	      "legacy_send_result=%s: a send of %zu bytes returns %ld (%ld), and they arrive",
	      send_zero ? "zero" : "bytes", 3 * page - 5, sent(3 * page - 5),
	      r);
	munmap(in, 3 * page);
	close(s);
}

static void test_starters(void)
{
	test_starter();
	test_starter_nonblock();
}

/* legacy_send_result=zero; a module without the parameter: its default. */
static int read_send_zero(void)
{
	FILE *f = fopen("/sys/module/syncdev/parameters/legacy_send_result",
			"r");
	char word[16] = "";

	if (!f)
		return 0;
	if (fscanf(f, "%15s", word) != 1)
		word[0] = '\0';
	fclose(f);
	return !strcmp(word, "zero");
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*fn)(void); } parts[] = {
		{ "course", test_course }, { "misuse", test_misuse },
		{ "mixed", test_mixed }, { "rules", test_rules },
		{ "dump", test_dump }, { "starter", test_starters },
		{ "sendresult", test_send_result },
	};
	unsigned int i;
	FILE *f;

	if (argc != 2 || !strcmp(argv[1], "--help")) {
		printf("usage: legacycheck course|misuse|mixed|rules|dump|starter|sendresult\n"
		       "The legacy numbers' contract (docs/legacy.md), in the guest.\n");
		return argc == 2 ? 0 : 2;
	}
	f = fopen("/sys/module/syncdev/parameters/buf_size", "r");
	if (!f || fscanf(f, "%zu", &bufsz) != 1) {
		fprintf(stderr, "legacycheck: no syncdev module loaded\n");
		return 1;
	}
	fclose(f);
	send_zero = read_send_zero();
	page = (size_t)sysconf(_SC_PAGESIZE);
	alarm(WATCHDOG_S);
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (!strcmp(argv[1], parts[i].name)) {
			parts[i].fn();
			return check_done();
		}
	fprintf(stderr, "legacycheck: unknown part '%s'\n", argv[1]);
	return 2;
}
