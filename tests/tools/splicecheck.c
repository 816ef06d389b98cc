// SPDX-License-Identifier: GPL-2.0
/*
 * splicecheck: sendfile() and splice() into /dev/master_device (the
 * device's splice_write) and out of /dev/slave_device (its splice_read).
 * "PASS name" / "FAIL name: why" and "# note" lines.  Runs in the test
 * guest with the module loaded, in a directory it may write files to.
 *
 *	splicecheck
 *
 * Each case is a connected pair over 127.0.0.1 (devtest.h) and a slave
 * process that reads the stream with read(), or with splice() or
 * sendfile() into a pipe that it reads, and checks it byte for byte:
 *
 *   sendfile, splice   a file of 0, 1, 4095, 4096, 4097 bytes, one device
 *                      buffer and 3 MiB + 1, by sendfile() from the file
 *                      and by splice() from a pipe a writer process
 *                      fills, each read by read() and by splice() (and
 *                      the sendfile() ones by sendfile() too); then a
 *                      marker sent with write(), so that a byte too many
 *                      or too few shows as a wrong marker;
 *   splice read        on the slave: nothing arrived and O_NONBLOCK is
 *                      EAGAIN; a signal while nothing arrives is EINTR;
 *                      the master closed is 0, the end of the stream; a
 *                      peer's urgent byte (MSG_OOB) left out of the
 *                      stream, as read() leaves it;
 *   rewritten          the file overwritten right after sendfile()
 *                      returned, the slave reading only after that: every
 *                      byte is the old or the new one, in its place (how
 *                      many are new is the sendfile contract: a note);
 *   truncated          the file truncated to 0 right after sendfile()
 *                      returned: every byte the old one or zero;
 *   signal             a 16 MiB sendfile() that the slave does not read
 *                      until a signal (no SA_RESTART) stopped it: a short
 *                      count or EINTR, then the rest by more calls, and
 *                      the whole stream exact;
 *   peer closed        the slave reads 1 MiB of 16 and closes: sendfile()
 *                      fails with ECONNRESET (after a short count).
 */
#include "devtest.h"
#include "testpat.h"

#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define WATCHDOG_S	120
#define MARKER		"END!"
#define MARKER_LEN	4
#define BIG		(16u << 20)
#define CHUNK		(64u << 10)

static int failed;

static void fail(const char *name, const char *why)
{
	printf("FAIL %s: %s\n", name, why);
	failed = 1;
}

/* @len bytes of pattern @seed into @fd: 0, or -1 with errno. */
static int write_pattern(int fd, size_t len, unsigned int seed)
{
	static unsigned char buf[CHUNK];
	size_t off, n;

	for (off = 0; off < len; off += n) {
		n = len - off < CHUNK ? len - off : CHUNK;
		testpat_fill(buf, n, off, seed);
		if (write(fd, buf, n) != (ssize_t)n)
			return -1;
	}
	return 0;
}

/* A file of @len bytes of pattern @seed; its descriptor, at offset 0. */
static int make_file(const char *path, size_t len, unsigned int seed)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write_pattern(fd, len, seed)) {
		printf("FAIL splicecheck: write %s: %s\n", path,
		       strerror(errno));
		exit(1);
	}
	return fd;
}

/*
 * How the slave takes the stream out of its device: read(), or into a
 * pipe by splice() or by sendfile() (whose direct path into a file takes
 * a regular file or a block device to read, never a device like this).
 */
enum reader { BY_READ, BY_SPLICE, BY_SENDFILE };
static const char *const reader_name[] = {
	[BY_READ] = "read()",
	[BY_SPLICE] = "splice()",
	[BY_SENDFILE] = "sendfile() into a pipe",
};
static enum reader slave_reader;

/* The slave's pipe, BY_SPLICE and BY_SENDFILE. */
static int spliced[2] = { -1, -1 };

/* One read of the slave's stream, as slave_reader says. */
static ssize_t read_some(int s, unsigned char *p, size_t len)
{
	ssize_t n, got;

	if (slave_reader == BY_READ)
		return read(s, p, len);
	if (slave_reader == BY_SPLICE)
		n = splice(s, NULL, spliced[1], NULL, len, 0);
	else
		n = sendfile(spliced[1], s, NULL, len);
	if (n <= 0)
		return n;
	/* The pipe holds what the splice put there: read it all. */
	for (got = 0; got < n; got += len) {
		len = (size_t)read(spliced[0], p + got, (size_t)(n - got));
		if ((ssize_t)len <= 0) {
			errno = EIO;
			return -1;
		}
	}
	return n;
}

/* Exactly @len bytes of the slave's stream (fewer at its end). */
static size_t read_full(int s, unsigned char *p, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read_some(s, p + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

/*
 * What a byte the slave received may be: the sent pattern only, or also
 * the pattern written over the file (@alt_seed) or zero.
 */
enum accept { EXACT, OR_NEW, OR_ZERO };

/*
 * The slave: @len bytes of pattern @seed then the marker.  Bytes that
 * were the new pattern are counted in *@newer.  0 or 1, after a FAIL.
 */
static int check_stream(int s, const char *name, size_t len,
			unsigned int seed, enum accept acc, size_t *newer)
{
	static unsigned char buf[CHUNK];
	char why[160];
	size_t off, n, i;
	unsigned char want, b;

	for (off = 0; off < len; off += n) {
		n = len - off < CHUNK ? len - off : CHUNK;
		if (read_full(s, buf, n) != n) {
			snprintf(why, sizeof(why), "stream ended at byte %zu of %zu: %s",
				 off, len, strerror(errno));
			fail(name, why);
			return 1;
		}
		for (i = 0; i < n; i++) {
			want = testpat_byte(off + i, seed);
			b = buf[i];
			if (b == want)
				continue;
			if (acc == OR_NEW && b == testpat_byte(off + i, seed + 1)) {
				(*newer)++;
				continue;
			}
			if (acc == OR_ZERO && !b)
				continue;
			snprintf(why, sizeof(why), "byte %zu is 0x%02x, sent 0x%02x",
				 off + i, b, want);
			fail(name, why);
			return 1;
		}
	}
	if (read_full(s, buf, MARKER_LEN) != MARKER_LEN ||
	    memcmp(buf, MARKER, MARKER_LEN)) {
		fail(name, "the marker written after it did not follow the data");
		return 1;
	}
	return 0;
}

/* sendfile() all of @fd into @m, resuming after short counts. */
static ssize_t send_all(int m, int fd, size_t len)
{
	off_t pos = 0;
	ssize_t n;

	/* Size 0 too: one call, which returns 0. */
	do {
		n = sendfile(m, fd, &pos, len - (size_t)pos);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : pos;
	} while ((size_t)pos < len);
	return pos;
}

/* A writer process: @len bytes of pattern @seed into pipe @w. */
static pid_t pipe_writer(int p[2], size_t len, unsigned int seed)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	close(p[0]);
	_exit(write_pattern(p[1], len, seed) ? 1 : 0);
}

/* splice() @len bytes from a pipe a writer fills into @m. */
static ssize_t splice_all(int m, size_t len, unsigned int seed)
{
	size_t done = 0;
	ssize_t n = 0;
	int p[2], st;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = pipe_writer(p, len, seed);
	close(p[1]);
	do {
		n = splice(p[0], NULL, m, NULL, len - done, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	} while (done < len);
	close(p[0]);
	waitpid(pid, &st, 0);
	return n < 0 ? -1 : (ssize_t)done;
}

/* A connected pair and a slave process running check_stream(). */
struct pair {
	int m;
	pid_t slave;
	int go[2];		/* the master's go-ahead to start reading */
};

static int pair_open(struct pair *pr, const char *name, size_t len,
		     unsigned int seed, enum accept acc)
{
	size_t newer = 0;
	char c;
	int s, ret;

	if (dt_pair(&pr->m, &s) || pipe(pr->go)) {
		fail(name, "no connected pair");
		return -1;
	}
	pr->slave = fork();
	if (pr->slave == 0) {
		close(pr->m);
		close(pr->go[1]);
		alarm(WATCHDOG_S);
		if (read(pr->go[0], &c, 1) != 1 ||
		    (slave_reader != BY_READ && pipe(spliced)))
			_exit(1);
		ret = check_stream(s, name, len, seed, acc, &newer);
		if (!ret && acc == OR_NEW)
			printf("# note: %s: %zu of %zu bytes arrived as rewritten after sendfile() returned\n",
			       name, newer, len);
		_exit(ret);
	}
	close(s);
	close(pr->go[0]);
	return 0;
}

static void pair_go(struct pair *pr)
{
	if (write(pr->go[1], "g", 1) != 1)
		perror("splicecheck: go");
	close(pr->go[1]);
	pr->go[1] = -1;
}

/* The marker, the slave's verdict, the pair closed.  0 if all passed. */
static int pair_close(struct pair *pr, const char *name, int marker)
{
	int st;

	if (pr->go[1] >= 0)
		pair_go(pr);
	if (marker && write(pr->m, MARKER, MARKER_LEN) != MARKER_LEN)
		fail(name, "write of the marker failed");
	if (waitpid(pr->slave, &st, 0) != pr->slave || !WIFEXITED(st)) {
		fail(name, "the slave did not finish (watchdog)");
		st = 1;
	} else {
		st = WEXITSTATUS(st);
		failed |= st;
	}
	close(pr->m);
	return st;
}

/* One size by sendfile() (@pipe 0) or splice() (1), read as @r says. */
static void one_size(size_t len, int use_pipe, enum reader r)
{
	const char *how = use_pipe ? "splice" : "sendfile";
	unsigned int seed = (unsigned int)len + (unsigned int)use_pipe;
	struct pair pr;
	char name[120], why[120];
	ssize_t n;
	int fd = -1;

	snprintf(name, sizeof(name), "%s %zu bytes into the master, %s on the slave",
		 how, len, reader_name[r]);
	slave_reader = r;
	if (!use_pipe)
		fd = make_file("splice.src", len, seed);
	if (pair_open(&pr, name, len, seed, EXACT))
		return;
	pair_go(&pr);
	n = use_pipe ? splice_all(pr.m, len, seed) : send_all(pr.m, fd, len);
	if (n != (ssize_t)len) {
		snprintf(why, sizeof(why), "moved %zd of %zu: %s", n, len,
			 strerror(errno));
		fail(name, why);
	}
	if (!pair_close(&pr, name, 1) && n == (ssize_t)len)
		printf("PASS %s: every byte on the slave, then the marker\n",
		       name);
	if (fd >= 0)
		close(fd);
	slave_reader = BY_READ;
}

/* The source rewritten (@truncate 0) or truncated after the call. */
static void changed_after(size_t len, int truncate)
{
	const char *name = truncate ?
		"sendfile, source truncated after it returned" :
		"sendfile, source rewritten after it returned";
	unsigned char *buf;
	struct pair pr;
	int fd = make_file("splice.src", len, 7);

	if (pair_open(&pr, name, len, 7, truncate ? OR_ZERO : OR_NEW))
		return;
	if (send_all(pr.m, fd, len) != (ssize_t)len) {
		fail(name, strerror(errno));
	} else if (truncate) {
		if (ftruncate(fd, 0))
			fail(name, "ftruncate");
	} else {
		buf = malloc(len);
		testpat_fill(buf, len, 0, 8);
		if (!buf || pwrite(fd, buf, len, 0) != (ssize_t)len)
			fail(name, "pwrite");
		free(buf);
	}
	if (!pair_close(&pr, name, 1))
		printf("PASS %s: %zu bytes, each the old one%s, in place\n",
		       name, len, truncate ? " or zero" : " or the new one");
	close(fd);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A sendfile() stopped by a signal while the slave reads nothing. */
static void signalled(void)
{
	const char *name = "sendfile stopped by a signal, resumed";
	struct sigaction sa;
	struct pair pr;
	off_t pos = 0;
	ssize_t n;
	int fd = make_file("splice.src", BIG, 11);
	char why[160];

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	if (pair_open(&pr, name, BIG, 11, EXACT))
		return;
	ualarm(300000, 0);
	n = sendfile(pr.m, fd, &pos, BIG);
	if (!((n > 0 && n < BIG && pos == n) || (n < 0 && errno == EINTR))) {
		snprintf(why, sizeof(why),
			 "the first call returned %zd (%s), offset %lld: not a short count nor EINTR",
			 n, n < 0 ? strerror(errno) : "-", (long long)pos);
		fail(name, why);
	}
	pair_go(&pr);
	while (pos < BIG) {
		n = sendfile(pr.m, fd, &pos, BIG - (size_t)pos);
		if (n <= 0 && !(n < 0 && errno == EINTR))
			break;
	}
	if (pos != BIG) {
		snprintf(why, sizeof(why), "resumed to %lld of %u: %s",
			 (long long)pos, BIG, strerror(errno));
		fail(name, why);
	}
	if (!pair_close(&pr, name, 1) && pos == BIG)
		printf("PASS %s: a short count, the rest by more calls, every byte in place\n",
		       name);
	close(fd);
}

/* The slave closes after 1 MiB: the master's sendfile() fails. */
static void peer_closed(void)
{
	const char *name = "sendfile, the slave closed mid-stream";
	static unsigned char buf[CHUNK];
	int fd = make_file("splice.src", BIG, 13);
	off_t pos = 0;
	int m, s, st, err = 0;
	ssize_t n;
	size_t i;
	pid_t pid;
	char why[160];

	if (dt_pair(&m, &s)) {
		fail(name, "no connected pair");
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(m);
		for (i = 0; i < 16; i++)
			if (read_full(s, buf, CHUNK) != CHUNK)
				_exit(1);
		_exit(0);	/* closes with bytes unread: a reset */
	}
	close(s);
	while (pos < BIG) {
		n = sendfile(m, fd, &pos, BIG - (size_t)pos);
		if (n < 0 && errno != EINTR) {
			err = errno;
			break;
		}
		if (!n)
			break;
	}
	waitpid(pid, &st, 0);
	if (err == ECONNRESET && pos < BIG) {
		printf("PASS %s: ECONNRESET after %lld bytes\n", name,
		       (long long)pos);
	} else {
		snprintf(why, sizeof(why), "ended with %s after %lld bytes, want ECONNRESET",
			 err ? strerror(err) : "no error", (long long)pos);
		fail(name, why);
	}
	close(m);
	close(fd);
}

static void expect(const char *name, ssize_t n, int err, ssize_t want,
		   int want_err)
{
	char why[120];

	if (n == want && (want >= 0 || err == want_err)) {
		printf("PASS %s\n", name);
		return;
	}
	snprintf(why, sizeof(why), "returned %zd (%s), want %zd (%s)", n,
		 n < 0 ? strerror(err) : "-", want,
		 want < 0 ? strerror(want_err) : "-");
	fail(name, why);
}

/* splice() out of the slave when nothing comes, and at the end. */
static void splice_read_edges(void)
{
	struct sigaction sa;
	int m, s, p[2], fl;
	ssize_t n;

	if (dt_pair(&m, &s) || pipe(p)) {
		fail("splice() out of the slave", "no connected pair");
		return;
	}
	fl = fcntl(s, F_GETFL);
	if (fl < 0 || fcntl(s, F_SETFL, fl | O_NONBLOCK))
		fail("splice() out of the slave", "fcntl O_NONBLOCK");
	n = splice(s, NULL, p[1], NULL, 4096, 0);
	expect("splice() out of the slave, O_NONBLOCK, nothing arrived: EAGAIN",
	       n, errno, -1, EAGAIN);
	if (fcntl(s, F_SETFL, fl))
		fail("splice() out of the slave", "fcntl blocking");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	ualarm(200000, 0);
	n = splice(s, NULL, p[1], NULL, 4096, 0);
	expect("splice() out of the slave, a signal while nothing arrives: EINTR",
	       n, errno, -1, EINTR);
	close(m);
	n = splice(s, NULL, p[1], NULL, 4096, 0);
	expect("splice() out of the slave, the master closed: 0 (end of stream)",
	       n, errno, 0, 0);
	close(s);
	close(p[0]);
	close(p[1]);
}

/*
 * A peer's urgent byte: TCP keeps it out of the stream, and tcp_read_sock()
 * stops in front of it; splice() must go on past it as read() does.
 */
static void urgent_byte(void)
{
	const char *name = "splice() out of the slave past a peer's urgent byte";
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	unsigned char got[8];
	int l, c = -1, s;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(l, 1) || getsockname(l, (struct sockaddr *)&a, &alen)) {
		fail(name, "no listening socket");
		return;
	}
	s = dt_open("/dev/slave_device", O_RDWR);
	if (dt_connect(s, "127.0.0.1", ntohs(a.sin_port), 5000) ||
	    (c = accept(l, NULL, NULL)) < 0 ||
	    send(c, "abc", 3, 0) != 3 || send(c, "U", 1, MSG_OOB) != 1 ||
	    send(c, "def", 3, 0) != 3) {
		fail(name, strerror(errno));
	} else {
		close(c);
		c = -1;
		slave_reader = BY_SPLICE;
		if (pipe(spliced)) {
			fail(name, "pipe");
		} else if (read_full(s, got, sizeof(got)) != 6 ||
			   memcmp(got, "abcdef", 6)) {
			fail(name, "the stream is not abcdef");
		} else {
			printf("PASS %s: abcdef, the urgent byte left out as read() leaves it\n",
			       name);
		}
		close(spliced[0]);
		close(spliced[1]);
		slave_reader = BY_READ;
	}
	if (c >= 0)
		close(c);
	close(s);
	close(l);
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 0, 1, 4095, 4096, 4097, 0,
					(3u << 20) + 1 };
	struct syncdev_info info;
	int m, s, p;
	size_t i, len;

	(void)argv;
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 1) {
		fprintf(stderr, "usage: splicecheck (in a writable directory)\n");
		return 2;
	}
	if (dt_pair(&m, &s) || ioctl(m, SYNCDEV_IOC_INFO, &info)) {
		printf("FAIL splicecheck: no connected pair\n");
		return 1;
	}
	close(m);
	close(s);
	for (p = 0; p < 2; p++)
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			len = i == 5 ? info.buf_size : sizes[i];
			one_size(len, p, BY_READ);
			one_size(len, p, BY_SPLICE);
			if (!p)
				one_size(len, p, BY_SENDFILE);
		}
	splice_read_edges();
	urgent_byte();
	changed_after(1u << 20, 0);
	changed_after(1u << 20, 1);
	signalled();
	peer_closed();
	unlink("splice.src");
	return failed;
}
